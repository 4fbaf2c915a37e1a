import { sha256Hex } from './canonical-json';

/** If-None-Match as RFC 9110 reads it: `*`, or a list of tags compared weakly. */
export function noneMatchHolds(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

// Texts are held as keys: their total length is bounded, not their number.
const MAX_REMEMBERED_CHARACTERS = 1_000_000;

/**
 * Tags of answer texts. The same text read again is usually the same string (the upstream client
 * keeps the redacted JSON), whose hash V8 keeps, so a repeat costs a map lookup, not a digest.
 */
export class TextEtags {
  private readonly byText = new Map<string, string>();
  private characters = 0;

  of(text: string): string {
    let etag = this.byText.get(text);
    if (etag === undefined) {
      etag = `"${sha256Hex(text).slice(0, 32)}"`;
      if (text.length > MAX_REMEMBERED_CHARACTERS) return etag;
      if (this.characters + text.length > MAX_REMEMBERED_CHARACTERS) {
        this.byText.clear();
        this.characters = 0;
      }
      this.byText.set(text, etag);
      this.characters += text.length;
    }
    return etag;
  }
}
