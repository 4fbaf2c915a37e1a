import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * The headers helmet sets, worked out once: with a fixed policy they are the same for every
 * response, and running helmet's dozen middlewares per request showed up in the read-path profile.
 */
export function protectiveHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({
    // Swagger UI at /docs needs its own inline script and styles; everything else is JSON.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'unsafe-inline'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
      },
    },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    // helmet calls back synchronously, so this throws out of protectiveHeaders.
    if (error) throw error instanceof Error ? error : new Error('helmet refused its options');
  });
  return headers;
}
