import { countDown, countUp } from './counts';

describe('countUp and countDown', () => {
  it('count per key and forget a key counted back to zero', () => {
    const counts = new Map<string, number>();
    countUp(counts, 'a');
    countUp(counts, 'a');
    countUp(counts, 'b');
    expect([...counts]).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
    countDown(counts, 'a');
    countDown(counts, 'b');
    expect([...counts]).toEqual([['a', 1]]);
    countDown(counts, 'a');
    countDown(counts, 'never-counted');
    expect(counts.size).toBe(0);
  });
});
