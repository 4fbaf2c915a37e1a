import { hash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal data always hashes equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/**
 * `value` with the keys of every object in sorted order. Parts already in order are returned as
 * they are rather than copied: audit verification canonicalises a million parsed objects, most of
 * them sorted already.
 */
function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) {
    const items = value.map(sortKeys);
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const sorted = [...keys].sort();
  const entries = sorted.map((key) => [key, sortKeys(record[key])] as const);
  // Same order and same children: JSON.stringify writes the object exactly as the sorted copy.
  const unchanged = entries.every(([key, inner], index) => key === keys[index] && inner === record[key]);
  return unchanged ? value : Object.fromEntries(entries);
}

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** A stable advisory-lock id (safe integer) for a name, e.g. one dashboard of one tenant. */
export function lockIdFor(name: string): number {
  return hash('sha256', name, 'buffer').readUIntBE(0, 6);
}
