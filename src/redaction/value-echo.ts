/**
 * Scrubbing answers by value confirms a guess: a caller who sends candidate values where no secret
 * belongs sees "[redacted]" where one of them is a value the vault holds. These helpers find the
 * vault values a request carries outside secret places, and which of them an answer was scrubbed of.
 */
import { join } from '../common/validation/json-schema';
import { isRedactedField, isSecretReference, redactText } from './redact';
import type { SecretValueMatcher, ValueScrubber } from './secret-value-matcher';

/** The vault values a request carries outside secret places, each with the paths it stands at. */
export type CarriedValues = Map<string, string[]>;

/**
 * The values of `vault` that `body` holds in a string or a field name outside a secret place (a
 * field redaction blanks whole, or a URL password, connection-string key or other secret pattern).
 * A value the body also holds at a secret place counts all the same: put there by a reference, it
 * is one the caller may use but not know.
 */
export function vaultValuesCarried(body: unknown, vault: SecretValueMatcher): CarriedValues {
  const carried: CarriedValues = new Map();
  // Where the walk stands; spelled out as a path only for a text holding a vault value, as few do.
  const segments: (string | number)[] = [];
  const note = (text: string): void => {
    if (text.length < vault.minLength || vault.found(text).length === 0) return;
    const values = vault.found(redactText(text));
    if (values.length === 0) return;
    // A field name may be the guess itself: the path names it scrubbed.
    const path = segments.reduce<string>(
      (at, segment) => join(at, typeof segment === 'number' ? segment : vault.scrub(segment)),
      '',
    );
    for (const value of values) {
      const paths = carried.get(value);
      if (paths === undefined) carried.set(value, [path]);
      else if (!paths.includes(path)) paths.push(path);
    }
  };
  const walk = (value: unknown, depth: number): void => {
    if (typeof value === 'string') return note(value);
    if (typeof value !== 'object' || value === null || depth === MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        segments.push(index);
        walk(value[index], depth + 1);
        segments.pop();
      }
      return;
    }
    if (isSecretReference(value)) return;
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      segments.push(key);
      note(key);
      if (!isRedactedField(key)) walk(object[key], depth + 1);
      segments.pop();
    }
  };
  walk(body, 0);
  return carried;
}

// Bodies reach here checked by their routes' schemas, which nest a few levels.
const MAX_DEPTH = 64;

/**
 * A scrubber that also notes which of the carried values each scrub removed: what the answer it
 * is used on would have echoed.
 */
export class EchoNoting implements ValueScrubber {
  readonly minLength: number;
  private readonly echoed = new Set<string>();

  constructor(
    private readonly vault: SecretValueMatcher,
    private readonly carried: CarriedValues,
  ) {
    this.minLength = vault.minLength;
  }

  scrub(text: string): string {
    const scrubbed = this.vault.scrub(text);
    if (scrubbed !== text) {
      for (const value of this.carried.keys()) if (text.includes(value)) this.echoed.add(value);
    }
    return scrubbed;
  }

  /** The request's paths whose vault values the answers scrubbed so far held; sorted, each once. */
  echoedPaths(): string[] {
    const paths = new Set<string>();
    for (const value of this.echoed) for (const path of this.carried.get(value)!) paths.add(path);
    return [...paths].sort();
  }
}
