import { hash } from 'node:crypto';
import { setField } from './set-field';

/** JSON with object keys sorted at every level, so equal data always hashes equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/**
 * `value` with the keys of every object in sorted order. Parts already in order are returned as
 * they are, and nothing is allocated for them: audit verification canonicalises a million parsed
 * objects and every dashboard read one dashboard, most of them sorted already.
 */
function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item = sortKeys(value[index]);
      if (item !== value[index]) (copy ??= value.slice())[index] = item;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let inOrder = true;
  for (let index = 1; index < keys.length && inOrder; index++) inOrder = keys[index - 1] < keys[index];
  if (!inOrder) sortKeyNames(keys);
  // Filled only once a child differs from the original (the ones before it are the original's).
  let children: unknown[] | undefined;
  for (let index = 0; index < keys.length; index++) {
    const original = record[keys[index]];
    const child = sortKeys(original);
    if (child !== original && children === undefined) {
      children = keys.slice(0, index).map((key) => record[key]);
    }
    children?.push(child);
  }
  if (inOrder && children === undefined) return value;
  const sorted: Record<string, unknown> = {};
  for (let index = 0; index < keys.length; index++) {
    setField(sorted, keys[index], children ? children[index] : record[keys[index]]);
  }
  return sorted;
}

/**
 * Sorts `keys` in place as `Array.prototype.sort` would. An object has few keys, and for those an
 * insertion sort is faster and allocates nothing, where V8's sort copies the array to sort it:
 * that copy showed in what a proxied dashboard read allocated.
 */
export function sortKeyNames(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort();
    return;
  }
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index];
    let at = index;
    for (; at > 0 && keys[at - 1] > key; at--) keys[at] = keys[at - 1];
    keys[at] = key;
  }
}

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
