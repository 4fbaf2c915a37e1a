import { REDACTED } from './redact';

/**
 * Shorter values are not searched for: they would blank out ordinary words and numbers. Secrets
 * that short are left to the field-name rules and the patterns.
 */
export const MIN_MATCHED_SECRET_LENGTH = 8;

// The trie holds at most this many code units of a value; a longer value is found by its first
// ones and then compared whole, so a matcher's size grows with the number of values, not their length.
const MAX_KEY_LENGTH = 64;

const ROOT = 0;
const NONE = -1;

/** What redaction needs of a matcher: a scrub, and the shortest text worth scrubbing. */
export type ValueScrubber = Pick<SecretValueMatcher, 'minLength' | 'scrub'>;

/**
 * Finds any of a fixed set of secret values in text and replaces it with "[redacted]": an
 * Aho–Corasick automaton over the values' UTF-16 code units, built once and then run over each
 * text in one pass, whatever the number of values. Matching is exact, code unit for code unit
 * (no case folding, no normalisation, no grapheme segmentation: a value followed by a combining
 * mark is still found). Where occurrences overlap or one lies inside another, every code unit of
 * every occurrence is covered, and each run of covered text becomes one "[redacted]".
 */
export class SecretValueMatcher {
  /** The shortest value held; a shorter text cannot hold one. Infinity when none is held. */
  readonly minLength: number;
  private readonly values: ReadonlySet<string>;
  // The automaton, one entry per state. Children of a state are the edges
  // firstEdge[state] .. firstEdge[state + 1] - 1, sorted by code unit.
  private readonly firstEdge: Int32Array;
  private readonly edgeUnit: Uint16Array;
  private readonly edgeTarget: Int32Array;
  private readonly failure: Int32Array;
  /** The root's children by ASCII code unit (ROOT where none), for the state the scan is mostly in. */
  private readonly rootAscii: Int32Array;
  /** The state whose keys end here (itself, or the nearest one down its failure links); NONE if none. */
  private readonly reported: Int32Array;
  /** The values whose key (their first MAX_KEY_LENGTH code units) ends at a state, by state. */
  private readonly keyed: Map<number, string[]>;
  private readonly depth: Int32Array;

  constructor(values: Iterable<string>) {
    const held = new Set<string>();
    for (const value of values) if (value.length >= MIN_MATCHED_SECRET_LENGTH) held.add(value);
    this.values = held;
    this.minLength = Infinity;
    const children = [new Map<number, number>()];
    const depths = [0];
    this.keyed = new Map();
    for (const value of held) {
      this.minLength = Math.min(this.minLength, value.length);
      let state = ROOT;
      const keyLength = Math.min(value.length, MAX_KEY_LENGTH);
      for (let index = 0; index < keyLength; index++) {
        const unit = value.charCodeAt(index);
        let next = children[state].get(unit);
        if (next === undefined) {
          next = children.length;
          children.push(new Map<number, number>());
          depths.push(depths[state] + 1);
          children[state].set(unit, next);
        }
        state = next;
      }
      const sharing = this.keyed.get(state);
      if (sharing) sharing.push(value);
      else this.keyed.set(state, [value]);
    }

    const states = children.length;
    this.depth = Int32Array.from(depths);
    this.firstEdge = new Int32Array(states + 1);
    let edges = 0;
    for (let state = 0; state < states; state++) {
      this.firstEdge[state] = edges;
      edges += children[state].size;
    }
    this.firstEdge[states] = edges;
    this.edgeUnit = new Uint16Array(edges);
    this.edgeTarget = new Int32Array(edges);
    for (let state = 0; state < states; state++) {
      let edge = this.firstEdge[state];
      for (const [unit, target] of [...children[state]].sort(([a], [b]) => a - b)) {
        this.edgeUnit[edge] = unit;
        this.edgeTarget[edge] = target;
        edge += 1;
      }
    }
    this.rootAscii = new Int32Array(128);
    for (const [unit, target] of children[ROOT]) if (unit < 128) this.rootAscii[unit] = target;

    // Failure links breadth first: each state's is the longest proper suffix of its path that is
    // also a path of the trie.
    this.failure = new Int32Array(states);
    this.reported = new Int32Array(states).fill(NONE);
    const queue: number[] = [...children[ROOT].values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      const fallback = this.failure[state];
      this.reported[state] = this.keyed.has(state) ? state : this.reported[fallback];
      for (const [unit, target] of children[state]) {
        let candidate = fallback;
        let next = this.child(candidate, unit);
        while (next === NONE && candidate !== ROOT) {
          candidate = this.failure[candidate];
          next = this.child(candidate, unit);
        }
        this.failure[target] = next === NONE ? ROOT : next;
        queue.push(target);
      }
    }
  }

  /** Whether `value` is one of the values matched (8 code units or more). */
  has(value: string): boolean {
    return this.values.has(value);
  }

  /** The values that occur in `text`, each once. */
  found(text: string): string[] {
    if (text.length < this.minLength) return [];
    const covered = this.occurrences(text);
    if (covered === null) return [];
    const values = new Set<string>();
    for (let index = 0; index < covered.length; index += 2) {
      values.add(text.slice(covered[index], covered[index + 1]));
    }
    return [...values];
  }

  /** `text` with every occurrence of every value replaced; the same string when there is none. */
  scrub(text: string): string {
    if (text.length < this.minLength) return text;
    const covered = this.occurrences(text);
    if (covered === null) return text;
    return replaced(text, covered);
  }

  /** [start, end) of every occurrence, as one flat list; null when there is none. */
  private occurrences(text: string): number[] | null {
    const { rootAscii, reported, failure } = this;
    let found: number[] | null = null;
    let state = ROOT;
    for (let index = 0; index < text.length; index++) {
      const unit = text.charCodeAt(index);
      for (;;) {
        const next = state === ROOT && unit < 128 ? rootAscii[unit] || NONE : this.child(state, unit);
        if (next !== NONE) {
          state = next;
          break;
        }
        if (state === ROOT) break;
        state = failure[state];
      }
      if (reported[state] !== NONE) found = this.collect(text, index + 1, reported[state], found ?? []);
    }
    return found;
  }

  /** Adds the occurrences of the values whose keys end at `end` (from `state` down its failure links). */
  private collect(text: string, end: number, state: number, found: number[]): number[] {
    for (let at = state; at !== NONE; at = this.reported[this.failure[at]]) {
      const start = end - this.depth[at];
      for (const value of this.keyed.get(at)!) {
        if (value.length <= MAX_KEY_LENGTH || text.startsWith(value, start)) {
          found.push(start, start + value.length);
        }
      }
    }
    return found;
  }

  private child(state: number, unit: number): number {
    let low = this.firstEdge[state];
    let high = this.firstEdge[state + 1] - 1;
    // Most states have one or two children; the root and a few near it have many.
    while (high - low > 4) {
      const middle = (low + high) >>> 1;
      if (this.edgeUnit[middle] < unit) low = middle + 1;
      else high = middle;
    }
    for (let edge = low; edge <= high; edge++) {
      if (this.edgeUnit[edge] === unit) return this.edgeTarget[edge];
    }
    return NONE;
  }
}

/** `text` with each run of covered code units (the union of the [start, end) pairs) replaced once. */
function replaced(text: string, pairs: number[]): string {
  const spans: [number, number][] = [];
  for (let index = 0; index < pairs.length; index += 2) spans.push([pairs[index], pairs[index + 1]]);
  spans.sort(([a], [b]) => a - b);
  let result = '';
  let kept = 0;
  let runStart = spans[0][0];
  let runEnd = spans[0][1];
  for (const [start, end] of spans) {
    if (start > runEnd) {
      result += text.slice(kept, runStart) + REDACTED;
      kept = runEnd;
      runStart = start;
    }
    if (end > runEnd) runEnd = end;
  }
  return result + text.slice(kept, runStart) + REDACTED + text.slice(runEnd);
}
