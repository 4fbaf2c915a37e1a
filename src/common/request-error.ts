import { validationProblem } from './problem/validation';

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

/**
 * Throws a 400 naming the query parameter whose percent-escapes do not decode as UTF-8 (`%ED%A0%80`,
 * the bytes of a lone surrogate, `%uD800`, a bare `%`). The query parser would keep such text as it
 * came; the router already refuses the same in the path.
 */
export function assertDecodableQuery(url: string): void {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return;
  for (const part of url.slice(start + 1).split('&')) {
    if (part.includes('%') && decoded(part) === null) {
      const name = part.split('=')[0];
      throw validationProblem([
        {
          path: decoded(name.replace(/\+/g, ' ')) ?? name,
          message: 'has a percent-escape that does not decode as UTF-8 (write a literal % as %25)',
        },
      ]);
    }
  }
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
