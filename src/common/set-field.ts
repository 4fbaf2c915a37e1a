/**
 * `target[key] = value`, where a key named "__proto__" stays a field: assigning that key would set
 * the object's prototype instead, and the field would be lost (JSON.parse makes such keys fields).
 */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
