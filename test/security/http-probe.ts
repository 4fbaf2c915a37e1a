/**
 * A raw HTTP client for hostile requests, and the checks every answer of the gateway must pass.
 * supertest (through the WHATWG URL parser) resolves `..` and re-encodes paths before sending; this
 * client sends the path exactly as given, over a small keep-alive pool.
 */
import { Pool } from 'undici';
import type { HttpMethod } from './route-catalog';

export interface Probe {
  method: HttpMethod;
  path: string;
  headers?: Record<string, string>;
  /** Sent as is; a JSON content type is added unless `headers` name one. */
  body?: string;
}

export interface ProbeResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export class ProbeClient {
  private readonly pool: Pool;

  constructor(url: string, connections = 4) {
    this.pool = new Pool(url, { connections, pipelining: 1 });
  }

  async send(probe: Probe): Promise<ProbeResponse> {
    const headers = { ...probe.headers };
    const named = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
    if (probe.body !== undefined && !named) headers['content-type'] = 'application/json';
    const response = await this.pool.request({
      method: probe.method,
      path: probe.path,
      headers,
      body: probe.body,
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** JSON for a body: `undefined` (a valid jsonValue leaf inside arrays) is sent as null, like JSON.stringify does. */
export const json = (value: unknown): string => JSON.stringify(value) ?? 'null';

/** Percent-encodes what may not appear in a request line, keeping `/`, `.`, `%` and the rest of ASCII. */
export function rawPathSegment(value: string): string {
  return Array.from(value, (char) =>
    /^[\x21-\x7e]$/.test(char) && char !== '?' && char !== '#' ? char : encodeURIComponent(char),
  ).join('');
}

/** What must hold for every answer; `context` names the request in a failure message. */
export function expectSound(response: ProbeResponse, secrets: readonly string[], context: string): void {
  const where = `${context} answered ${response.status}: ${response.text.slice(0, 500)}`;
  if (response.status >= 500) throw new Error(`5xx: ${where}`);
  if (typeof response.headers['x-request-id'] !== 'string') throw new Error(`no X-Request-Id: ${where}`);
  if (response.status >= 400) {
    const type = String(response.headers['content-type']);
    if (!type.startsWith('application/problem+json')) throw new Error(`not problem+json (${type}): ${where}`);
    const problem = JSON.parse(response.text) as Record<string, unknown>;
    const shaped =
      typeof problem.type === 'string' &&
      typeof problem.title === 'string' &&
      typeof problem.detail === 'string' &&
      problem.status === response.status &&
      problem.requestId === response.headers['x-request-id'];
    if (!shaped) throw new Error(`problem without its fields: ${where}`);
  }
  const headers = JSON.stringify(response.headers);
  for (const secret of secrets) {
    if (response.text.includes(secret) || headers.includes(secret)) {
      throw new Error(`a planted secret came back: ${where}`);
    }
  }
}
