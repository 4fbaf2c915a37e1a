/**
 * Every route of the gateway as data: who may call it and how to build a request that the route
 * accepts. The security and reliability suites drive the gateway from this one table, so a route
 * added to the gateway but not here is caught by the OpenAPI check in each suite.
 */
import { randomUUID } from 'node:crypto';
import { validDashboardBody } from '../fixtures/dashboard-bodies';
import { validCreateBody, validUpdateBody } from '../fixtures/pipe-bodies';
import type { Role } from '../../src/auth/roles';
import { bearer, platformAuth, type TestTenant } from '../support/fixtures';
import type { TestGateway } from '../support/gateway';
import type { UpstreamWorld, WorldGateway } from '../support/upstreams';
import type { DashboardSeed } from '../../sandbox';

/** `caller`: any valid credential (a key, a user's token, the platform token). */
// `viewer or auditor`: open to both roles, which stand apart (a dashboard's stored versions).
export type Access = 'public' | 'platform' | 'caller' | Role | 'viewer or auditor';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The resources a request can name; each suite fills it from resources it made. */
export interface RouteContext {
  /** The tenant the platform route issues keys for. */
  tenantId: string;
  /** A key that DELETE /v1/keys/{id} may revoke; no other route uses it. */
  revocableKeyId: string;
  /** Group mappings of the tenant that the tenant admin's and the platform's DELETE may remove. */
  deletableGroupMappingId: string;
  platformDeletableGroupMappingId: string;
  /** A group assignment of the tenant that the platform's DELETE may remove. */
  platformDeletableGroupAssignmentId: string;
  /**
   * The next of a few groups assigned to the tenant, in turn: the first use of each maps it (a
   * tenant admin maps only the tenant's groups); once all are used, a mapping of one is a 409.
   */
  assignedGroup(): string;
  /** A credential the read routes show. */
  credentialId: string;
  /** Credentials the rotate and the DELETE route may change; no upstream call needs them. */
  rotatableCredentialId: string;
  deletableCredentialId: string;
  organizationId: string;
  serviceId: string;
  pipeId: string;
  dashboardId: string;
  /** A stored version of the dashboard. */
  version: number;
  historyId: string;
  /** A vault secret of the world's tenant, and the history entry of a pipe created with references to it. */
  secretId: string;
  referencedHistoryId: string;
  /** A signed checkpoint of the tenant's audit chain. */
  checkpoint: object;
  /** A seq a review of the tenant's audit log may cover: each call one later than the one before. */
  reviewThrough(): number;
  /** Planted in every secret field of the bodies built here. */
  secret: string;
  /** A new pipe (or dashboard) upstream on each call, for the routes that delete or stop one. */
  freshPipeId(): string;
  freshDashboardId(): string;
}

export interface RouteSpec {
  method: HttpMethod;
  /** As the OpenAPI document writes it, e.g. `/v1/credentials/{id}`. */
  template: string;
  access: Access;
  params?: (ctx: RouteContext) => Record<string, string>;
  body?: (ctx: RouteContext) => object;
}

const pipeParams = (ctx: RouteContext) => ({
  organizationId: ctx.organizationId,
  serviceId: ctx.serviceId,
});
const pipeIdParams = (ctx: RouteContext) => ({ ...pipeParams(ctx), pipeId: ctx.pipeId });
const freshPipeParams = (ctx: RouteContext) => ({ ...pipeParams(ctx), pipeId: ctx.freshPipeId() });
const dashboardParams = (ctx: RouteContext) => ({ id: ctx.dashboardId });
const versionParams = (ctx: RouteContext) => ({ id: ctx.dashboardId, n: String(ctx.version) });

export const ROUTES: readonly RouteSpec[] = [
  {
    method: 'POST',
    template: '/v1/admin/tenants',
    access: 'platform',
    body: () => ({ name: `team-${randomUUID().slice(0, 8)}` }),
  },
  { method: 'GET', template: '/v1/admin/tenants', access: 'platform' },
  { method: 'GET', template: '/v1/admin/audit-sinks', access: 'platform' },
  {
    method: 'POST',
    template: '/v1/admin/tenants/{tenantId}/keys',
    access: 'platform',
    params: (ctx) => ({ tenantId: ctx.tenantId }),
    body: () => ({ name: 'issued by the platform', roles: ['viewer'] }),
  },
  {
    method: 'POST',
    template: '/v1/admin/tenants/{tenantId}/groups',
    access: 'platform',
    params: (ctx) => ({ tenantId: ctx.tenantId }),
    body: () => ({ group: `platform-assigned-${randomUUID()}` }),
  },
  {
    method: 'GET',
    template: '/v1/admin/tenants/{tenantId}/groups',
    access: 'platform',
    params: (ctx) => ({ tenantId: ctx.tenantId }),
  },
  {
    method: 'DELETE',
    template: '/v1/admin/tenants/{tenantId}/groups/{id}',
    access: 'platform',
    params: (ctx) => ({ tenantId: ctx.tenantId, id: ctx.platformDeletableGroupAssignmentId }),
  },
  {
    method: 'POST',
    template: '/v1/admin/tenants/{tenantId}/group-mappings',
    access: 'platform',
    params: (ctx) => ({ tenantId: ctx.tenantId }),
    body: () => ({ group: `platform-group-${randomUUID()}`, roles: ['viewer'] }),
  },
  {
    method: 'GET',
    template: '/v1/admin/tenants/{tenantId}/group-mappings',
    access: 'platform',
    params: (ctx) => ({ tenantId: ctx.tenantId }),
  },
  {
    method: 'DELETE',
    template: '/v1/admin/tenants/{tenantId}/group-mappings/{id}',
    access: 'platform',
    params: (ctx) => ({ tenantId: ctx.tenantId, id: ctx.platformDeletableGroupMappingId }),
  },
  {
    method: 'POST',
    template: '/v1/group-mappings',
    access: 'admin',
    body: (ctx) => ({ group: ctx.assignedGroup(), roles: ['operator'] }),
  },
  { method: 'GET', template: '/v1/group-mappings', access: 'admin' },
  {
    method: 'DELETE',
    template: '/v1/group-mappings/{id}',
    access: 'admin',
    params: (ctx) => ({ id: ctx.deletableGroupMappingId }),
  },
  {
    method: 'POST',
    template: '/v1/keys',
    access: 'admin',
    body: () => ({ name: 'spare', roles: ['viewer'] }),
  },
  { method: 'GET', template: '/v1/keys', access: 'admin' },
  {
    method: 'DELETE',
    template: '/v1/keys/{id}',
    access: 'admin',
    params: (ctx) => ({ id: ctx.revocableKeyId }),
  },
  {
    method: 'POST',
    template: '/v1/credentials',
    access: 'admin',
    body: (ctx) => ({
      kind: 'pipes',
      name: 'another organization',
      organizationId: randomUUID(),
      keyId: 'KEYID-route-catalog',
      keySecret: `${ctx.secret}-created`,
    }),
  },
  { method: 'GET', template: '/v1/credentials', access: 'viewer' },
  {
    method: 'GET',
    template: '/v1/credentials/{id}',
    access: 'viewer',
    params: (ctx) => ({ id: ctx.credentialId }),
  },
  {
    method: 'POST',
    template: '/v1/credentials/{id}/rotate',
    access: 'admin',
    params: (ctx) => ({ id: ctx.rotatableCredentialId }),
    body: (ctx) => ({ keySecret: `${ctx.secret}-rotated` }),
  },
  {
    method: 'DELETE',
    template: '/v1/credentials/{id}',
    access: 'admin',
    params: (ctx) => ({ id: ctx.deletableCredentialId }),
  },
  {
    method: 'GET',
    template: '/v1/credentials/{id}/usage',
    access: 'viewer',
    params: (ctx) => ({ id: ctx.secretId }),
  },
  {
    method: 'POST',
    template: '/v1/organizations/{organizationId}/services/{serviceId}/pipes',
    access: 'operator',
    params: pipeParams,
    body: (ctx) => validCreateBody('kafka', { secret: ctx.secret }),
  },
  {
    method: 'GET',
    template: '/v1/organizations/{organizationId}/services/{serviceId}/pipes',
    access: 'viewer',
    params: pipeParams,
  },
  {
    method: 'GET',
    template: '/v1/organizations/{organizationId}/services/{serviceId}/pipes/events',
    access: 'viewer',
    params: pipeParams,
  },
  {
    method: 'GET',
    template: '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}',
    access: 'viewer',
    params: pipeIdParams,
  },
  {
    method: 'PATCH',
    template: '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}',
    access: 'operator',
    params: pipeIdParams,
    body: (ctx) => validUpdateBody('kafka', { secret: ctx.secret }),
  },
  {
    method: 'DELETE',
    template: '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}',
    access: 'operator',
    params: freshPipeParams,
  },
  {
    method: 'PATCH',
    template: '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/state',
    access: 'operator',
    params: freshPipeParams,
    body: () => ({ command: 'stop' }),
  },
  {
    method: 'PATCH',
    template: '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/scaling',
    access: 'operator',
    params: pipeIdParams,
    body: () => ({ replicas: 2, replicaCpuMillicores: 500, replicaMemoryGb: 1 }),
  },
  {
    method: 'GET',
    template: '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings',
    access: 'viewer',
    params: pipeIdParams,
  },
  {
    method: 'PUT',
    template: '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings',
    access: 'operator',
    params: pipeIdParams,
    body: () => ({ clickhouse_max_threads: 8, streaming_max_insert_wait_ms: 1000 }),
  },
  { method: 'GET', template: '/v1/dashboards', access: 'viewer' },
  { method: 'POST', template: '/v1/dashboards', access: 'operator', body: () => validDashboardBody() },
  { method: 'GET', template: '/v1/dashboards/{id}', access: 'viewer', params: dashboardParams },
  {
    method: 'DELETE',
    template: '/v1/dashboards/{id}',
    access: 'operator',
    params: (ctx) => ({ id: ctx.freshDashboardId() }),
  },
  {
    method: 'PUT',
    template: '/v1/dashboards/{id}',
    access: 'operator',
    params: dashboardParams,
    body: () => validDashboardBody(),
  },
  {
    method: 'GET',
    template: '/v1/dashboards/{id}/versions',
    access: 'viewer or auditor',
    params: dashboardParams,
  },
  {
    method: 'GET',
    template: '/v1/dashboards/{id}/versions/{n}',
    access: 'viewer or auditor',
    params: versionParams,
  },
  {
    method: 'POST',
    template: '/v1/dashboards/{id}/versions/{n}/restore',
    access: 'operator',
    params: versionParams,
  },
  { method: 'GET', template: '/v1/history/pipe-specs', access: 'auditor' },
  {
    method: 'GET',
    template: '/v1/history/pipe-specs/{id}',
    access: 'auditor',
    params: (ctx) => ({ id: ctx.historyId }),
  },
  {
    method: 'POST',
    template: '/v1/history/pipe-specs/{id}/resubmit',
    access: 'operator',
    params: (ctx) => ({ id: ctx.referencedHistoryId }),
    body: () => ({ name: 'resubmitted' }),
  },
  { method: 'GET', template: '/v1/me', access: 'caller' },
  { method: 'GET', template: '/v1/audit', access: 'auditor' },
  { method: 'GET', template: '/v1/audit/actions', access: 'auditor' },
  { method: 'GET', template: '/v1/audit/actors', access: 'auditor' },
  { method: 'GET', template: '/v1/audit/targets', access: 'auditor' },
  { method: 'GET', template: '/v1/audit/export', access: 'auditor' },
  { method: 'GET', template: '/v1/audit/verify', access: 'auditor' },
  {
    method: 'POST',
    template: '/v1/audit/verify',
    access: 'auditor',
    body: (ctx) => ({ checkpoint: ctx.checkpoint }),
  },
  { method: 'GET', template: '/v1/audit/checkpoint', access: 'auditor' },
  { method: 'GET', template: '/v1/audit/sinks', access: 'auditor' },
  {
    method: 'POST',
    template: '/v1/audit/reviews',
    access: 'auditor',
    body: (ctx) => ({ throughSeq: ctx.reviewThrough(), note: 'Reviewed.' }),
  },
  { method: 'GET', template: '/v1/audit/reviews/latest', access: 'auditor' },
  { method: 'GET', template: '/v1/audit/signing-keys', access: 'public' },
  { method: 'GET', template: '/health/live', access: 'public' },
  { method: 'GET', template: '/health/ready', access: 'public' },
  { method: 'GET', template: '/metrics', access: 'public' },
];

export const routeName = (route: RouteSpec): string => `${route.method} ${route.template}`;

/** The names of a template's path parameters, in order. */
export function paramNames(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
}

/** The template with each parameter replaced by its value as given: no encoding is added. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => values[name]);
}

/** A request path the route accepts: the context's ids, URI-encoded. */
export function pathOf(route: RouteSpec, ctx: RouteContext): string {
  const values = Object.entries(route.params?.(ctx) ?? {}).map(([name, value]) => [
    name,
    encodeURIComponent(value),
  ]);
  return fillTemplate(route.template, Object.fromEntries(values));
}

/** The Authorization header of a caller the route admits, from `tenant`'s keys. */
export function authorizedCaller(route: RouteSpec, tenant: TestTenant): Record<string, string> {
  if (route.access === 'public') return {};
  if (route.access === 'platform') return platformAuth;
  const role = route.access === 'caller' || route.access === 'viewer or auditor' ? 'viewer' : route.access;
  return bearer(tenant.keys[role]);
}

/** What the OpenAPI document says of one operation, as far as the suites read it. */
export interface OpenApiOperation {
  requestBody?: unknown;
  parameters?: { in: string; name: string }[];
}

/** The gateway's own operations, as its OpenAPI document lists them, by `METHOD template`. */
export async function documentedOperations(gateway: TestGateway): Promise<Map<string, OpenApiOperation>> {
  const document = await gateway.http.get('/docs-json').expect(200);
  return new Map(
    Object.entries(document.body.paths as Record<string, Record<string, OpenApiOperation>>).flatMap(
      ([template, byMethod]) =>
        Object.entries(byMethod).map(([method, operation]) => [
          `${method.toUpperCase()} ${template}`,
          operation,
        ]),
    ),
  );
}

/** The gateway's own routes, as its OpenAPI document lists them: `METHOD template`. */
export async function documentedRoutes(gateway: TestGateway): Promise<string[]> {
  return [...(await documentedOperations(gateway)).keys()];
}

// Enough for every caller of the access matrix to get a group of its own.
const ASSIGNED_GROUPS = 24;

async function created(request: PromiseLike<{ status: number; body: any }>, what: string): Promise<any> {
  const response = await request;
  if (response.status >= 300) {
    throw new Error(`${what} answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

/** A key and credentials of `tenant` that routes may revoke, rotate or delete; plus one to read. */
export async function prepareVault(
  gateway: Pick<TestGateway, 'http'>,
  tenant: TestTenant,
  secret: string,
): Promise<
  Pick<
    RouteContext,
    | 'tenantId'
    | 'revocableKeyId'
    | 'deletableGroupMappingId'
    | 'platformDeletableGroupMappingId'
    | 'platformDeletableGroupAssignmentId'
    | 'assignedGroup'
    | 'credentialId'
    | 'rotatableCredentialId'
    | 'deletableCredentialId'
    | 'checkpoint'
    | 'reviewThrough'
  >
> {
  const admin = bearer(tenant.keys.admin);
  const pipesCredential = () =>
    gateway.http
      .post('/v1/credentials')
      .set(admin)
      .send({
        kind: 'pipes',
        name: 'spare organization',
        organizationId: randomUUID(),
        keyId: 'KEYID-spare',
        keySecret: `${secret}-spare`,
      });
  const key = await created(
    gateway.http
      .post('/v1/keys')
      .set(admin)
      .send({ name: 'spare', roles: ['viewer'] }),
    'a spare key',
  );
  // The platform's mapping of a free group assigns it to the tenant.
  const groupMapping = () =>
    created(
      gateway.http
        .post(`/v1/admin/tenants/${tenant.id}/group-mappings`)
        .set(platformAuth)
        .send({ group: `spare-${randomUUID()}`, roles: ['viewer'] }),
      'a spare group mapping',
    );
  const [deletableMapping, platformDeletableMapping] = [await groupMapping(), await groupMapping()];
  const assignGroup = (group: string) =>
    created(
      gateway.http.post(`/v1/admin/tenants/${tenant.id}/groups`).set(platformAuth).send({ group }),
      'a group assignment',
    );
  const deletableAssignment = await assignGroup(`spare-${randomUUID()}`);
  const assigned: string[] = [];
  for (let i = 0; i < ASSIGNED_GROUPS; i++)
    assigned.push((await assignGroup(`assigned-${randomUUID()}`)).group);
  let nextAssigned = 0;
  // The events made above are more than the reviews any suite records.
  let reviewed = 0;
  const [readable, rotatable, deletable] = [
    await created(pipesCredential(), 'a readable credential'),
    await created(pipesCredential(), 'a rotatable credential'),
    await created(pipesCredential(), 'a deletable credential'),
  ];
  const checkpoint = await created(
    gateway.http.get('/v1/audit/checkpoint').set(bearer(tenant.keys.auditor)),
    'an audit checkpoint',
  );
  return {
    tenantId: tenant.id,
    revocableKeyId: key.id,
    deletableGroupMappingId: deletableMapping.id,
    platformDeletableGroupMappingId: platformDeletableMapping.id,
    platformDeletableGroupAssignmentId: deletableAssignment.id,
    assignedGroup: () => assigned[nextAssigned++ % assigned.length],
    credentialId: readable.id,
    rotatableCredentialId: rotatable.id,
    deletableCredentialId: deletable.id,
    checkpoint,
    reviewThrough: () => ++reviewed,
  };
}

/**
 * In the world's tenant: a kafka pipe, a dashboard with one stored version, a history record, a
 * vault secret and a pipe created with references to it, and pipes and dashboards made on demand
 * upstream for the routes that delete or stop one.
 */
export async function prepareUpstreamResources(
  world: UpstreamWorld<WorldGateway>,
  secret: string,
): Promise<
  Pick<
    RouteContext,
    | 'organizationId'
    | 'serviceId'
    | 'pipeId'
    | 'dashboardId'
    | 'version'
    | 'historyId'
    | 'secretId'
    | 'referencedHistoryId'
    | 'freshPipeId'
    | 'freshDashboardId'
  >
> {
  const { gateway, tenant, organizationId, serviceId } = world;
  const pipe = await created(
    gateway.http
      .post(`/v1/organizations/${organizationId}/services/${serviceId}/pipes`)
      .set(bearer(tenant.keys.operator))
      .send(validCreateBody('kafka', { secret })),
    'a pipe',
  );
  const dashboardId = world.dashboards.seedDashboard({ name: 'Checkout', tags: [], tiles: [] }).id;
  await created(
    gateway.http
      .put(`/v1/dashboards/${dashboardId}`)
      .set(bearer(tenant.keys.operator))
      .send(validDashboardBody()),
    'a dashboard replace',
  );
  const vaultSecret = await created(
    gateway.http
      .post('/v1/credentials')
      .set(bearer(tenant.keys.admin))
      .send({
        kind: 'secret',
        name: `catalog-${randomUUID().slice(0, 8)}`,
        value: { username: 'catalog', password: `${secret}-vault` },
      }),
    'a vault secret',
  );
  const referencing = validCreateBody('kafka');
  referencing.source.kafka.credentials = { $secret: vaultSecret.id };
  referencing.source.kafka.schemaRegistry.credentials = { $secret: vaultSecret.id };
  const referenced = await created(
    gateway.http
      .post(`/v1/organizations/${organizationId}/services/${serviceId}/pipes`)
      .set(bearer(tenant.keys.operator))
      .send(referencing),
    'a pipe with references',
  );
  const history = await created(
    gateway.http.get('/v1/history/pipe-specs').query({ limit: '200' }).set(bearer(tenant.keys.auditor)),
    'the history',
  );
  const historyOf = (pipeId: string) =>
    history.items.find((item: { pipeId: string }) => item.pipeId === pipeId).id;
  return {
    organizationId,
    serviceId,
    pipeId: pipe.result.id,
    dashboardId,
    version: 1,
    historyId: historyOf(pipe.result.id),
    secretId: vaultSecret.id,
    referencedHistoryId: historyOf(referenced.result.id),
    freshPipeId: () => world.pipes.seedPipe(organizationId, serviceId, validCreateBody('kafka')).id,
    freshDashboardId: () => world.dashboards.seedDashboard(validDashboardBody() as DashboardSeed).id,
  };
}

/** Everything a route can name, all in the world's tenant. */
export async function prepareContext(
  world: UpstreamWorld<WorldGateway>,
  secret: string,
): Promise<RouteContext> {
  return {
    ...(await prepareVault(world.gateway, world.tenant, secret)),
    ...(await prepareUpstreamResources(world, secret)),
    secret,
  };
}
