import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { redactText } from '../redaction/redact';

export const REQUEST_ID_HEADER = 'x-request-id';

// A caller's id is echoed back and written to logs, so only plain tokens of sane length are kept.
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * The caller's X-Request-Id when it is sane, else a new UUIDv4. A token the redaction would hide
 * (a gateway key) is not sane either: the id also goes upstream and into the audit log.
 */
export function requestIdFor(request: IncomingMessage): string {
  const header = request.headers[REQUEST_ID_HEADER];
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) && redactText(header) === header
    ? header
    : randomUUID();
}
