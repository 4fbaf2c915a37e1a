import { createGatewayClient, type GatewayClient, type Problem } from '../../clients/typescript/src';
import type { components } from '../../clients/typescript/src';

export type { GatewayClient };
export type Me = components['schemas']['MeView'];
export type MeTenant = components['schemas']['MeTenantView'];

/**
 * The typed client of the public API, with the signed-in credential and the chosen tenant on every
 * call. `onRefused` hears a 401: the token expired or the key was revoked.
 */
export function gatewayClient(
  token: string,
  tenantId: () => string | null,
  onRefused: () => void,
): GatewayClient {
  const client = createGatewayClient({ baseUrl: window.location.origin, token });
  client.use({
    onRequest({ request, schemaPath }) {
      const tenant = tenantId();
      // /v1/me is about the caller in every tenant.
      if (tenant !== null && schemaPath !== '/v1/me') request.headers.set('X-Tenant-Id', tenant);
      return request;
    },
    onResponse({ response }) {
      if (response.status === 401) onRefused();
      return response;
    },
  });
  return client;
}

/** An answer that is not a success, in words for the person: the gateway's own `detail` first. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly problem: Problem | null,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

/** The data of an openapi-fetch result, or a GatewayError saying why there is none. */
export async function answer<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  return (await exchange(call)).data;
}

/** As `answer`, with the response too: for its headers (an ETag). */
export async function exchange<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<{ data: T; response: Response }> {
  let result;
  try {
    result = await call;
  } catch {
    throw new GatewayError(
      'The gateway could not be reached. Check your connection and try again.',
      null,
      null,
    );
  }
  const { data, error, response } = result;
  if (response.ok) return { data: data as T, response };
  const problem = isProblem(error) ? error : null;
  throw new GatewayError(messageFor(response.status, problem), response.status, problem);
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'status' in value && 'title' in value;
}

function messageFor(status: number, problem: Problem | null): string {
  const fields = problem?.errors?.map((field) => `${field.path} ${field.message}`) ?? [];
  // A refused field says more than the summary around it.
  if (fields.length > 0) return `The gateway refused this: ${fields.join('; ')}.`;
  const detail = problem?.detail ?? problem?.title;
  if (detail) return detail;
  if (status === 403) return 'You do not have the role this needs.';
  if (status === 404) return 'It no longer exists, or it belongs to another tenant.';
  return `The gateway answered ${status}.`;
}

/** Why something failed, for an error note. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The fields the gateway refused (a 400's `errors`), each with what is wrong; empty otherwise. */
export function refusedFields(error: unknown): { path: string; message: string }[] {
  return error instanceof GatewayError ? (error.problem?.errors ?? []) : [];
}

/**
 * A new Idempotency-Key (a UUIDv4). `crypto.randomUUID` exists on secure pages only, and a gateway
 * may be served over plain HTTP inside a network: random bytes work on every page.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
