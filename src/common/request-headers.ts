import { readsAsActor } from '../auth/actors';
import { validationProblem } from './problem/validation';
import { atMostCharacters } from './validation/messages';
import { unsafeTextReason } from './validation/safe-text';

// Printable ASCII without spaces, as idempotency keys are in practice (UUIDs, ULIDs, hashes).
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header, checked; null when absent. */
export function idempotencyKeyHeader(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!IDEMPOTENCY_KEY.test(value)) {
    throw validationProblem([
      { path: 'header:Idempotency-Key', message: 'must be 1 to 255 printable characters without spaces' },
    ]);
  }
  return value;
}

const IF_MATCH_MAX = 1024;
// RFC 9110 section 8.8.3: an optional W/ and a quoted run of visible characters (Node reads header
// bytes as ISO-8859-1, so obs-text arrives as \u0080-\u00ff). "*" also stands in a list, as it
// does when a client sends the header twice and Node joins the lines.
const ENTITY_TAG = '(?:\\*|(?:W/)?"[\\x21\\x23-\\x7e\\x80-\\xff]*")';
const IF_MATCH = new RegExp(`^${ENTITY_TAG}(?:[ \\t]*,[ \\t]*${ENTITY_TAG})*$`);

/**
 * If-Match, checked for size and syntax; its tags are compared by the service. An unquoted tag is
 * refused here: it could never match, and a 412 would wrongly say the dashboard changed.
 */
export function ifMatchHeader(value: string | undefined): string | undefined {
  if (value === undefined) return value;
  if (value.length > IF_MATCH_MAX) {
    throw validationProblem([{ path: 'header:If-Match', message: atMostCharacters(IF_MATCH_MAX) }]);
  }
  if (!IF_MATCH.test(value)) {
    throw validationProblem([
      {
        path: 'header:If-Match',
        message:
          'must be * or entity tags in double quotes, separated by commas: send the ETag header as it was ' +
          'received, quotes included (If-Match: "5d41402abc4b2a76")',
      },
    ]);
  }
  return value;
}

// A person's identifier as frontends send it (email, user id, name), counted in characters.
const ON_BEHALF_OF_MAX = 128;
// Written like an actor, the name would read as a caller the gateway verified (and history's
// actor filter, which looks at both, would find it as one).
const ACTOR_FORM_REFUSED =
  'must name the person as the frontend knows them, not in a form the gateway records callers in ' +
  '(key:…, user:…, user-sub:…, platform, cli, sandbox, gateway)';
const NON_ASCII = /[^\p{ASCII}]/u;
// A byte order mark is kept, so that it is refused like any invisible character.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * X-On-Behalf-Of, checked; null when absent. Node reads header bytes as ISO-8859-1, while clients
 * send names like "Michał" as UTF-8: bytes that are valid UTF-8 are read as such, others stay
 * ISO-8859-1 (RFC 9110's historical reading). The value is recorded in history and audit, so it
 * gets the same check as the names people give things: printable, and no secret.
 */
export function onBehalfOfHeader(header: string | string[] | undefined, rawHeaders: string[]): string | null {
  if (header === undefined) return null;
  // Node joins repeated lines into "alice, bob": who the call is for would be ambiguous.
  const lines = rawHeaders.filter(
    (name, index) => index % 2 === 0 && name.toLowerCase() === 'x-on-behalf-of',
  );
  if (lines.length > 1) {
    throw validationProblem([{ path: 'header:X-On-Behalf-Of', message: 'must be sent once' }]);
  }
  const value = headerText(Array.isArray(header) ? header[0] : header);
  const length = [...value].length;
  const problem =
    length < 1 || length > ON_BEHALF_OF_MAX
      ? `must be 1 to ${ON_BEHALF_OF_MAX} characters`
      : readsAsActor(value)
        ? ACTOR_FORM_REFUSED
        : unsafeTextReason(value);
  if (problem !== null) throw validationProblem([{ path: 'header:X-On-Behalf-Of', message: problem }]);
  return value;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** X-Tenant-Id (which tenant a signed-in user acts in), checked; null when absent. */
export function tenantIdHeader(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw validationProblem([
      { path: 'header:X-Tenant-Id', message: 'must be a tenant id (a UUID), sent once' },
    ]);
  }
  return value.toLowerCase();
}

function headerText(latin1: string): string {
  if (!NON_ASCII.test(latin1)) return latin1;
  try {
    return utf8.decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return latin1;
  }
}
