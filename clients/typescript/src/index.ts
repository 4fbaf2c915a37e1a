/**
 * A typed client of the pipes-gateway for frontends: openapi-fetch over the types generated from
 * the gateway's OpenAPI document (schema.d.ts). Every call is checked against the document at
 * compile time: paths, path and query parameters, headers, bodies and answers.
 *
 *   const gateway = createGatewayClient({ baseUrl: 'https://gateway.example.com', token: key });
 *   const { data, error, response } = await gateway.GET('/v1/dashboards/{id}', {
 *     params: { path: { id } },
 *   });
 *
 * `error` is the problem+json body (`Problem`) when the answer is not a success.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };

export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];
export type Pipe = Schemas['Pipe'];
export type PipeEnvelope = Schemas['PipeEnvelope'];
export type Dashboard = Schemas['Dashboard'];
export type DashboardEnvelope = Schemas['DashboardEnvelope'];
/** `{ $secret: '<name or id>' }`: a vault secret of the tenant, where a pipe body takes a secret. */
export type SecretReference = Schemas['SecretReference'];

export type GatewayClient = Client<paths>;

export interface GatewayClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the gateway is, e.g. `https://gateway.example.com` (no trailing `/v1`). */
  baseUrl: string;
  /**
   * A gateway key (`pgw_…`) or a signed-in user's token, sent as `Authorization: Bearer <token>`.
   * Leave it out to set the header per call, or for the health routes.
   */
  token?: string;
}

export function createGatewayClient({
  baseUrl,
  token,
  headers,
  ...options
}: GatewayClientOptions): GatewayClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
  });
}
