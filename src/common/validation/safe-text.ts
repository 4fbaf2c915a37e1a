/**
 * The one check for text people write that the gateway keeps and shows again: X-On-Behalf-Of and
 * the names given to tenants, keys, credentials and group mappings. Such text ends up in the audit
 * log, its export and other people's screens, so it must read as what it looks like (no control,
 * bidi or invisible characters) and must not be a secret pasted in the wrong place.
 */
import { lengthProblem, typeMessage } from './messages';
import { FieldRule, type TextPattern } from './validation-decorators';

// Controls, format characters (bidi overrides and isolates, zero-width spaces and joiners, BOM,
// soft hyphen), private use, line and paragraph separators.
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Co}\p{Zl}\p{Zp}]/u;
// With the u flag a surrogate matches only when it is not half of a pair.
const LONE_SURROGATE = /\p{Cs}/u;

const SECRET_SHAPES: readonly [RegExp, string][] = [
  [/pgw_[A-Za-z0-9_-]{8,}/, 'a gateway key'],
  [/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/, 'a JSON Web Token'],
  [/^\s*(?:authorization\s*:\s*)?(?:basic|bearer)\s+\S+\s*$/i, 'an Authorization header value'],
  [/\bauthorization\s*:/i, 'an Authorization header value'],
  [/[a-z][a-z0-9+.-]*:\/\/[^\s/?#]*@/i, 'a URL with user information'],
  [/(?:^|[\s,;(])[^\s:@/]+:[^\s@/]+@[^\s@]+/, 'user:password@host credentials'],
  [/\b(?:password|passwd|pwd|secret|token|api[_-]?key)\s*=\s*\S/i, 'a secret assignment'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
];

// Runs of token characters: a long one that mixes cases (with digits or symbols, or longer still),
// or a long hex one, is a key. UUIDs, hex ids and words break into shorter runs or one case.
const TOKEN_RUN = /[A-Za-z0-9+/=_-]{32,}/g;
const LONG_HEX_RUN = /[0-9a-fA-F]{40,}/;

function looksRandom(run: string): boolean {
  return /[a-z]/.test(run) && /[A-Z]/.test(run) && (/[0-9+/=_-]/.test(run) || run.length >= 40);
}

/** Why `text` does not read as what it looks like, or null when it does. */
export function unprintableTextReason(text: string): string | null {
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode text (no lone surrogates)';
  if (INVISIBLE_OR_CONTROL.test(text)) {
    return 'must not contain control, bidirectional-override or invisible characters';
  }
  return null;
}

/** Why `text` may not be kept, or null when it may. */
export function unsafeTextReason(text: string): string | null {
  const unprintable = unprintableTextReason(text);
  if (unprintable !== null) return unprintable;
  for (const [shape, what] of SECRET_SHAPES) {
    if (shape.test(text)) return `must not hold a secret (it looks like ${what})`;
  }
  if (LONG_HEX_RUN.test(text) || (text.match(TOKEN_RUN) ?? []).some(looksRandom)) {
    return 'must not hold a secret (it looks like a long random token)';
  }
  return null;
}

/**
 * A name people give something: a string of `min` to `max` characters (code points) that passes
 * `unsafeTextReason` and, when given, matches `rule`. One message per problem.
 */
export function IsSafeName(min = 1, max = 100, rule?: TextPattern): PropertyDecorator {
  return FieldRule('isSafeName', (value) => {
    if (typeof value !== 'string') return typeMessage('string');
    return (
      lengthProblem([...value].length, min, max) ??
      unprintableTextReason(value) ??
      (rule && !rule.pattern.test(value) ? rule.message : null) ??
      unsafeTextReason(value)
    );
  });
}
