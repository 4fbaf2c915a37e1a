import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createGatewayClient } from '../../../clients/typescript/src';
import { Console, type ConsoleContext } from '../console-context';

/** What the fake gateway answers a request: a status and a JSON body. */
export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Answers each request the console sends; `null` fails it as an unreachable gateway would. */
export type FakeGateway = (request: Request) => FakeAnswer | null | Promise<FakeAnswer | null>;

/** A JSON answer of the fake gateway. */
export function json(body: unknown, status = 200): FakeAnswer {
  return { status, body };
}

/** A problem answer (RFC 9457) as the gateway writes them. */
export function problem(
  status: number,
  detail: string,
  errors?: { path: string; message: string }[],
): FakeAnswer {
  return {
    status,
    body: { type: 'about:blank', title: detail, status, detail, ...(errors ? { errors } : {}) },
    headers: { 'content-type': 'application/problem+json' },
  };
}

/** The signed-in console's context over a fake gateway, for the given operations. */
export function fakeConsole(
  gateway: FakeGateway,
  operations: string[] = [],
): ConsoleContext & { requests: Request[] } {
  const requests: Request[] = [];
  const client = createGatewayClient({
    baseUrl: 'http://gateway.test',
    token: 'test-token',
    fetch: async (request: Request) => {
      requests.push(request);
      const reply = await gateway(request);
      if (request.signal.aborted) throw new DOMException('aborted', 'AbortError');
      if (reply === null) throw new TypeError('fetch failed');
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'content-type': 'application/json', ...reply.headers },
      });
    },
  });
  const allowed = new Set(operations);
  return {
    client,
    tenant: { id: 'tenant-1', name: 'team', roles: ['auditor'], operations },
    can: (operation) => allowed.has(operation),
    requests,
  };
}

/** Renders `ui` inside a signed-in console. */
export function renderInConsole(ui: ReactNode, context: ConsoleContext): RenderResult {
  return render(<Console.Provider value={context}>{ui}</Console.Provider>);
}

/** The path and query of a request, as the gateway would route it. */
export function routeOf(request: Request): string {
  const url = new URL(request.url);
  return `${request.method} ${url.pathname}${url.search}`;
}
