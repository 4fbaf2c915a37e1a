/** Real HTTP calls for the simulator specs, with the body read once and parsed when it is JSON. */

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  // Specs read response JSON of every shape by path; typing each would only restate the assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, for bodies that must not be valid JSON. */
  rawBody?: string;
  signal?: AbortSignal;
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export async function call(url: string, init: CallInit = {}): Promise<HttpResult> {
  const payload = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: payload,
    signal: init.signal,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function basicAuth(keyId: string, keySecret: string): string {
  return `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;
}
