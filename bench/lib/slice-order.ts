/**
 * The order the targets take their slices in, turn `slice`: each turn begins with the next target,
 * and goes on forwards, or backwards every other turn. Forwards only, a target would always follow
 * the same one and take whatever that one leaves behind (a process still busy from its slice, its
 * connections closing); backwards, it follows its other neighbour.
 */
export function targetsInTurn<T>(targets: readonly T[], slice: number): T[] {
  const count = targets.length;
  const step = slice % 2 === 0 ? 1 : -1;
  return targets.map((_, index) => targets[(((slice + step * index) % count) + count) % count]);
}
