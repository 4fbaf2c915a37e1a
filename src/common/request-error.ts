/**
 * A request the gateway refuses before Nest sees it (body parser, request hooks). The code
 * starts with GATEWAY_ so that `toProblem` shows the message, which is worded for callers.
 */
export class GatewayRequestError extends Error {
  constructor(
    readonly code: `GATEWAY_${string}`,
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
  }
}

// A NUL cannot be stored in Postgres text; refused here, it never reaches a query.
const ENCODED_NUL = /%00/i;

/** Throws for a URL (path or query) that carries an encoded NUL character. */
export function assertNoNulInUrl(url: string): void {
  if (ENCODED_NUL.test(url)) {
    throw new GatewayRequestError('GATEWAY_URL_NUL', 'The URL must not contain NUL (%00).');
  }
}
