import { targetsInTurn } from './slice-order';

describe('targetsInTurn', () => {
  const targets = ['direct', 'baseline', 'gateway', 'compared'];
  const turns = (count: number): string[][] =>
    Array.from({ length: count }, (_, slice) => targetsInTurn(targets, slice));

  it('gives every target a slice in each turn, and each turn a different first', () => {
    for (const turn of turns(6)) expect([...turn].sort()).toEqual([...targets].sort());
    expect(new Set(turns(4).map((turn) => turn[0])).size).toBe(4);
  });

  it('puts each target after more than one other, counting the turn before', () => {
    const sequence = turns(6).flat();
    for (const target of targets) {
      const before = new Set(
        sequence.flatMap((name, index) => (name === target && index > 0 ? [sequence[index - 1]] : [])),
      );
      expect(before.size).toBeGreaterThan(1);
    }
  });
});
