/** Nearest-rank percentile of ascending values; NaN when there are none. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Median of some values; rounds of one benchmark differ by up to a third on a shared machine. */
export function median(values: number[]): number {
  const sorted = Float64Array.from(values.filter((value) => !Number.isNaN(value))).sort();
  if (sorted.length === 0) return NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
