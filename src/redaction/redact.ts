/**
 * The one redaction used everywhere a value leaves the gateway's trust boundary: logs, the
 * create-spec history, the audit log, error bodies and upstream responses (docs/security.md).
 * It keeps the shape, so a reviewer sees which secrets were supplied but never their values.
 */
import { sortKeyNames } from '../common/canonical-json';
import { setField } from '../common/set-field';
import type { ValueScrubber } from './secret-value-matcher';

export const REDACTED = '[redacted]';

// A field is secret when its name, compared case-insensitively and ignoring - and _, is one of
// these or ends in one of them (`keySecret`, `sasToken`, `client_secret`, `X-Api-Key`, ...), or starts
// with `serviceAccount` (`serviceAccountKey`, `serviceAccountFile`): whether or not a schema knows it.
const SECRET_NAMES = ['pwd', 'sas', 'cookie', 'authorization'];
const SECRET_SUFFIXES = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'secretkey',
  'token',
  'privatekey',
  'apikey',
  'accountkey',
  'sharedaccesskey',
  'connectionstring',
  'cookie',
  'authorization',
];
const SECRET_PREFIXES = ['serviceaccount'];

// Objects every leaf of which is secret (`source.kafka.credentials`, `source.kinesis.accessKey`, ...).
const SECRET_OBJECTS = new Set(['credentials', 'accessKey'].map(normaliseField));

// Azure-style connection strings carry the account key or a SAS signature as `Name=value;` parts,
// with any spacing round `=`, and a value may be quoted (then it may hold `;`).
const CONNECTION_STRING_SECRET =
  /\b(AccountKey|SharedAccessKey|SharedAccessSignature|sig|Password|Pwd)(\s*=\s*)("(?:[^"]|"")*"|'(?:[^']|'')*'|[^;]*)/gi;
// The user-info of a URL, up to the last `@` of its authority (as URL parsers read it), so a password
// holding `@` is redacted whole; the password is what follows the first `:`.
const URL_USER_INFO = /([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:"'<>]*):([^\s/?#"'<>]*)@/gi;
// `user:password@host` without a scheme, as in Kafka broker lists.
const BARE_USER_INFO = /(^|[\s,;"'(=])([^\s:@,;"'/()=]+):(?!\/\/)([^\s"'<>]*)@(?=[\w[])/g;
// Credentials in an Authorization header quoted into text.
const AUTHORIZATION_VALUE = /\b(Basic|Bearer)\s+([A-Za-z0-9._~+/=-]{8,})/g;
// Gateway keys have a recognisable prefix, so one pasted anywhere is caught too.
const GATEWAY_KEY = /\bpgw_[A-Za-z0-9_-]{8,}/g;

function normaliseField(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

export function isSecretField(name: string): boolean {
  return fieldKind(name) === 'secret';
}

/**
 * Whether redaction replaces all that a field of this name holds, at any depth: a field named like
 * a secret, or a secret object (`credentials`, `accessKey`).
 */
export function isRedactedField(name: string): boolean {
  return fieldKind(name) !== 'plain';
}

function isSecretName(normalised: string): boolean {
  return (
    SECRET_NAMES.includes(normalised) ||
    SECRET_SUFFIXES.some((suffix) => normalised.endsWith(suffix)) ||
    SECRET_PREFIXES.some((prefix) => normalised.startsWith(prefix))
  );
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
    kind = SECRET_OBJECTS.has(normalised) ? 'secret object' : isSecretName(normalised) ? 'secret' : 'plain';
    if (fieldKinds.size >= MAX_REMEMBERED_FIELDS) fieldKinds.clear();
    fieldKinds.set(name, kind);
  }
  return kind;
}

// Shorter secret values are not searched for verbatim: they would blank out ordinary words.
const MIN_KNOWN_SECRET_LENGTH = 4;

/**
 * Redacts secrets embedded in free text: every `known` secret and every value `vault` holds
 * wherever it appears, URL passwords, connection-string keys and gateway keys. Whole values go
 * first, so that no pattern leaves part of one behind.
 */
export function redactText(text: string, known: readonly string[] = [], vault?: ValueScrubber): string {
  let result = text;
  for (const secret of known) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  if (vault !== undefined) result = vault.scrub(result);
  if (result.length < 8) return result;
  if (result.includes('@')) {
    result = result
      .replace(URL_USER_INFO, `$1$2:${REDACTED}@`)
      .replace(BARE_USER_INFO, (match: string, before: string, user: string, password: string) =>
        password === REDACTED ? match : `${before}${user}:${REDACTED}@`,
      );
  }
  if (result.includes('=')) result = result.replace(CONNECTION_STRING_SECRET, `$1$2${REDACTED}`);
  if (result.includes('Bearer') || result.includes('Basic')) {
    result = result.replace(AUTHORIZATION_VALUE, `$1 ${REDACTED}`);
  }
  if (result.includes('pgw_')) result = result.replace(GATEWAY_KEY, REDACTED);
  return result;
}

/**
 * A deep copy of `value` with every secret replaced by "[redacted]". `known` are secret values
 * (see `secretValuesOf`) to find verbatim in any string, e.g. a password an upstream error quotes
 * back from the request that carried it.
 */
export function redactSecrets<T>(value: T, known: readonly string[] = []): T {
  return redactValue(value, false, { seen: new WeakSet(), known, sortKeys: false }) as T;
}

/**
 * `canonicalJson(redactSecrets(value))` for JSON as JSON.parse makes it (a caller's body): the
 * redacted copy is built with its keys in order, so it is not copied a second time to sort it.
 */
export function redactedCanonicalJson(value: unknown): string {
  return JSON.stringify(redactValue(value, false, { seen: new WeakSet(), known: [], sortKeys: true }));
}

/**
 * A reference to a vault secret, `{"$secret": "<name or id>"}`: it names the secret, not its value,
 * so what the gateway keeps of a spec keeps it as it is.
 */
export function isSecretReference(value: unknown): value is { $secret: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.length === 1 && keys[0] === '$secret' && typeof (value as { $secret: unknown }).$secret === 'string'
  );
}

/**
 * `redactSecrets` for JSON the caller owns outright, fresh from JSON.parse (an upstream's answer):
 * redacted in place instead of copied, so a proxied read allocates no second copy of its body.
 * JSON.parse makes a tree of plain objects, arrays and primitives, so the walk has no cycles,
 * dates, errors or class instances to look out for. An answer never holds a secret reference: a
 * lookalike is redacted like any other value. The values `vault` holds are removed from field
 * names too: an upstream may quote a value as the key of a map.
 */
export function redactParsedJson<T>(value: T, known: readonly string[] = [], vault?: ValueScrubber): T {
  return redactJsonTree(value, false, { known, vault }, 0) as T;
}

/**
 * How deep redactParsedJson follows JSON. JSON.parse takes any depth, but this walk and every
 * later one (the reply's JSON.stringify included) recurse, and a few thousand levels exhaust the
 * stack; real answers nest a few levels.
 */
export const MAX_PARSED_JSON_DEPTH = 1_000;

/** Thrown by redactParsedJson for JSON nested deeper than MAX_PARSED_JSON_DEPTH. */
export class JsonTooDeepError extends Error {
  constructor() {
    super(`JSON nested more than ${MAX_PARSED_JSON_DEPTH} levels deep`);
  }
}

/** What a walk of parsed JSON finds verbatim: secrets of the request, and the tenant's vault. */
interface KnownValues {
  known: readonly string[];
  vault: ValueScrubber | undefined;
}

function redactJsonTree(value: unknown, secret: boolean, values: KnownValues, depth: number): unknown {
  if (typeof value !== 'object') {
    if (secret) return REDACTED;
    return typeof value === 'string' ? redactText(value, values.known, values.vault) : value;
  }
  if (value === null) return value;
  if (depth === MAX_PARSED_JSON_DEPTH) throw new JsonTooDeepError();
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      value[index] = redactJsonTree(value[index], secret, values, depth + 1);
    }
    return value;
  }
  const object = value as Record<string, unknown>;
  const { vault } = values;
  for (const key of Object.keys(object)) {
    const inner = object[key];
    const redacted = redactJsonTree(inner, secret || fieldKind(key) !== 'plain', values, depth + 1);
    const name = vault === undefined || key.length < vault.minLength ? key : vault.scrub(key);
    if (name !== key) {
      delete object[key];
      setField(object, name, redacted);
    } else if (redacted !== inner) setField(object, key, redacted);
  }
  return object;
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
    // A secret string may itself hold parts an upstream could quote alone (a connection string's key).
    collectSecretsInText(value, found);
    return;
  }
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, secret, found, seen);
  } else if (isPlainObject(value)) {
    // Only fields named like secrets: a username under `credentials` is no secret, and searching
    // for it verbatim would blank out ordinary words.
    for (const key of Object.keys(value)) {
      collectSecrets(value[key], secret || isSecretField(key), found, seen);
    }
  }
}

// Each pattern is only tried on text holding the character or word it cannot match without, as
// redactText does: most strings of a spec hold none of them.
function collectSecretsInText(text: string, found: Set<string>): void {
  if (text.includes('=')) {
    for (const match of text.matchAll(CONNECTION_STRING_SECRET)) found.add(unquoted(match[3]));
  }
  if (text.includes('@')) {
    for (const match of [...text.matchAll(URL_USER_INFO), ...text.matchAll(BARE_USER_INFO)]) {
      found.add(match[3]);
      found.add(safeDecode(match[3]));
    }
  }
  if (text.includes('Bearer') || text.includes('Basic')) {
    for (const match of text.matchAll(AUTHORIZATION_VALUE)) found.add(match[2]);
  }
}

/** A connection-string value without its quotes, doubled quotes undone. */
function unquoted(value: string): string {
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
    return value
      .slice(1, -1)
      .split(quote + quote)
      .join(quote);
  }
  return value;
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
  /** Copies objects with their keys in canonical order (canonical-json.ts). */
  sortKeys: boolean;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Only JSON-like data is walked (plain objects and arrays); anything else is summarised by its
 * class name, so a stray socket or request object can neither leak nor blow up the walk. Secret
 * references are kept as they are: what the gateway keeps of a caller's spec names its secrets.
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
      const result = new Array<unknown>(value.length);
      for (let index = 0; index < value.length; index++) {
        result[index] = redactValue(value[index], secret, walk);
      }
      return result;
    }
    if (!isPlainObject(value)) return `[${value.constructor?.name ?? 'object'}]`;
    if (isSecretReference(value)) return { $secret: value.$secret };
    const result: Record<string, unknown> = {};
    const keys = Object.keys(value);
    if (walk.sortKeys) sortKeyNames(keys);
    for (const key of keys) {
      setField(result, key, redactValue(value[key], secret || fieldKind(key) !== 'plain', walk));
    }
    return result;
  } finally {
    seen.delete(value);
  }
}
