/**
 * The one redaction used everywhere a value leaves the gateway's trust boundary: logs, the
 * create-spec history, the audit log, error bodies and upstream responses (DESIGN section 5).
 * It keeps the shape, so a reviewer sees which secrets were supplied but never their values.
 */
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
  return SECRET_FIELDS.has(normaliseField(name));
}

/** Redacts secrets embedded in free text: URL passwords, connection-string keys, gateway keys. */
export function redactText(text: string): string {
  if (text.length < 8) return text;
  let result = text;
  if (result.includes('@')) result = result.replace(URL_PASSWORD, `$1:${REDACTED}@`);
  if (result.includes('=')) result = result.replace(CONNECTION_STRING_SECRET, `$1=${REDACTED}`);
  if (result.includes('pgw_')) result = result.replace(GATEWAY_KEY, REDACTED);
  return result;
}

/** A deep copy of `value` with every secret replaced by "[redacted]". */
export function redactSecrets<T>(value: T): T {
  return redactValue(value, false, new WeakSet()) as T;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Only JSON-like data is walked (plain objects and arrays); anything else is summarised by its
 * class name, so a stray socket or request object can neither leak nor blow up the walk.
 */
function redactValue(value: unknown, secret: boolean, seen: WeakSet<object>): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value !== 'object') {
    if (secret) return REDACTED;
    return typeof value === 'string' ? redactText(value) : value;
  }
  if (value instanceof Date) return secret ? REDACTED : value;
  if (value instanceof Error) return { name: value.name, message: redactText(value.message) };
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, secret, seen));
    if (!isPlainObject(value)) return `[${value.constructor?.name ?? 'object'}]`;
    const result: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const secretHere = secret || SECRET_OBJECTS.has(normaliseField(key)) || isSecretField(key);
      result[key] = redactValue(inner, secretHere, seen);
    }
    return result;
  } finally {
    seen.delete(value);
  }
}
