import { endedLines } from './ended-lines';

describe('endedLines', () => {
  it('leaves out a last line its writer has not ended yet', () => {
    expect(endedLines('<1>1 first\n<1>1 second\n<1>1 {"checkpoint":"ey')).toEqual([
      '<1>1 first',
      '<1>1 second',
    ]);
  });

  it('keeps every line of a file that ends in a newline, and none of an unended first one', () => {
    expect(endedLines('<1>1 first\n\n<1>1 second\n')).toEqual(['<1>1 first', '<1>1 second']);
    expect(endedLines('<1>1 fir')).toEqual([]);
    expect(endedLines('')).toEqual([]);
  });
});
