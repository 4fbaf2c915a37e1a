/**
 * The one redaction used everywhere a value leaves the gateway's trust boundary: logs, the
 * create-spec history, the audit log, error bodies and upstream responses (DESIGN section 5).
 * It keeps the shape, so a reviewer sees which secrets were supplied but never their values.
 */
import { setField } from '../common/set-field';

export const REDACTED = '[redacted]';

// Fields whose value is a secret wherever they appear (compared case-insensitively, ignoring - and _).
const SECRET_FIELDS = new Set(
  [
    'password',
    'passwd',
    'secret',
    'secretKey',
    'keySecret',
    'clientSecret',
    'token',
    'accessToken',
    'refreshToken',
    'apiKey',
    'privateKey',
    'authorization',
    'proxyAuthorization',
    'cookie',
    'setCookie',
    'xApiKey',
    'sas',
    'sasToken',
  ].map(normaliseField),
);

// Objects every leaf of which is secret (`source.kafka.credentials`, `source.kinesis.accessKey`, ...).
const SECRET_OBJECTS = new Set(['credentials', 'accessKey'].map(normaliseField));

// Azure-style connection strings carry the account key or a SAS signature as `Name=value;` parts.
const CONNECTION_STRING_SECRET =
  /\b(AccountKey|SharedAccessKey|SharedAccessSignature|sig|Password|Pwd)=([^;]*)/gi;
// user:password@ inside any URL.
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*):([^@/?#\s]*)@/gi;
// Gateway keys have a recognisable prefix, so one pasted anywhere is caught too.
const GATEWAY_KEY = /\bpgw_[A-Za-z0-9_-]{8,}/g;

function normaliseField(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

export function isSecretField(name: string): boolean {
  return fieldKind(name) === 'secret';
}

type FieldKind = 'plain' | 'secret' | 'secret object';

// Field names repeat across every answer of an upstream, and normalising each one again took half
// the time of redacting a proxied read. Bounded: names also come from callers' bodies.
const fieldKinds = new Map<string, FieldKind>();
const MAX_REMEMBERED_FIELDS = 10_000;

function fieldKind(name: string): FieldKind {
  let kind = fieldKinds.get(name);
  if (kind === undefined) {
    const normalised = normaliseField(name);
    kind = SECRET_FIELDS.has(normalised)
      ? 'secret'
      : SECRET_OBJECTS.has(normalised)
        ? 'secret object'
        : 'plain';
    if (fieldKinds.size >= MAX_REMEMBERED_FIELDS) fieldKinds.clear();
    fieldKinds.set(name, kind);
  }
  return kind;
}

// Shorter secret values are not searched for verbatim: they would blank out ordinary words.
const MIN_KNOWN_SECRET_LENGTH = 4;

/**
 * Redacts secrets embedded in free text: every `known` secret wherever it appears, URL
 * passwords, connection-string keys and gateway keys.
 */
export function redactText(text: string, known: readonly string[] = []): string {
  let result = text;
  for (const secret of known) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  if (result.length < 8) return result;
  if (result.includes('@')) result = result.replace(URL_PASSWORD, `$1:${REDACTED}@`);
  if (result.includes('=')) result = result.replace(CONNECTION_STRING_SECRET, `$1=${REDACTED}`);
  if (result.includes('pgw_')) result = result.replace(GATEWAY_KEY, REDACTED);
  return result;
}

/**
 * A deep copy of `value` with every secret replaced by "[redacted]". `known` are secret values
 * (see `secretValuesOf`) to find verbatim in any string, e.g. a password an upstream error quotes
 * back from the request that carried it.
 */
export function redactSecrets<T>(value: T, known: readonly string[] = []): T {
  return redactValue(value, false, { seen: new WeakSet(), known, inPlace: false }) as T;
}

/**
 * `redactSecrets` for JSON the caller owns outright, fresh from JSON.parse (an upstream's answer):
 * redacted in place instead of copied, which halves what a proxied read allocates for its body.
 */
export function redactParsedJson<T>(value: T, known: readonly string[] = []): T {
  return redactValue(value, false, { seen: new WeakSet(), known, inPlace: true }) as T;
}

/**
 * The secret values `value` carries (fields named like secrets, connection-string keys, URL
 * passwords) together with `alsoSecret`, longest first so that `redactText` never leaves part
 * of one behind.
 */
export function secretValuesOf(value: unknown, alsoSecret: readonly string[] = []): string[] {
  const found = new Set<string>(alsoSecret);
  collectSecrets(value, false, found, new WeakSet());
  return [...found]
    .filter((secret) => secret.length >= MIN_KNOWN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

function collectSecrets(value: unknown, secret: boolean, found: Set<string>, seen: WeakSet<object>): void {
  if (typeof value === 'string') {
    if (secret) found.add(value);
    else collectSecretsInText(value, found);
    return;
  }
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, secret, found, seen);
  } else if (isPlainObject(value)) {
    // Only fields named like secrets: a username under `credentials` is no secret, and searching
    // for it verbatim would blank out ordinary words.
    for (const [key, inner] of Object.entries(value)) {
      collectSecrets(inner, secret || isSecretField(key), found, seen);
    }
  }
}

function collectSecretsInText(text: string, found: Set<string>): void {
  for (const match of text.matchAll(CONNECTION_STRING_SECRET)) found.add(match[2]);
  for (const match of text.matchAll(URL_PASSWORD)) {
    found.add(match[2]);
    found.add(safeDecode(match[2]));
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

interface RedactionWalk {
  seen: WeakSet<object>;
  known: readonly string[];
  /** Replace values inside `value` itself rather than in a copy. */
  inPlace: boolean;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Only JSON-like data is walked (plain objects and arrays); anything else is summarised by its
 * class name, so a stray socket or request object can neither leak nor blow up the walk.
 */
function redactValue(value: unknown, secret: boolean, walk: RedactionWalk): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value !== 'object') {
    if (secret) return REDACTED;
    return typeof value === 'string' ? redactText(value, walk.known) : value;
  }
  if (value instanceof Date) return secret ? REDACTED : value;
  if (value instanceof Error) return { name: value.name, message: redactText(value.message, walk.known) };
  const { seen } = walk;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const result = walk.inPlace ? value : new Array<unknown>(value.length);
      for (let index = 0; index < value.length; index++) {
        result[index] = redactValue(value[index], secret, walk);
      }
      return result;
    }
    if (!isPlainObject(value)) return `[${value.constructor?.name ?? 'object'}]`;
    const result: Record<string, unknown> = walk.inPlace ? value : {};
    for (const key of Object.keys(value)) {
      setField(result, key, redactValue(value[key], secret || fieldKind(key) !== 'plain', walk));
    }
    return result;
  } finally {
    seen.delete(value);
  }
}
