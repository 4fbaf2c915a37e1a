/**
 * The OpenAPI document served at /docs-json: valid OpenAPI (checked by @readme/openapi-parser), and
 * complete by the project's own rules for every operation, derived from the kind of route (see
 * src/openapi/api-problems.ts for the decorators that satisfy them). Its answer schemas are held to
 * what the gateway really answers.
 */
import { validate } from '@readme/openapi-parser';
import Ajv from 'ajv';
import { randomUUID } from 'node:crypto';
import { validCreateBody } from './fixtures/pipe-bodies';
import { validDashboardBody } from './fixtures/dashboard-bodies';
import { bearer } from './support/fixtures';
import { startGateway } from './support/gateway';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';
import { routeName, ROUTES } from './security/route-catalog';

type Json = Record<string, any>;

interface Operation {
  route: string;
  method: string;
  template: string;
  operation: Json;
}

function operationsOf(document: Json): Operation[] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      route: `${method.toUpperCase()} ${template}`,
      method: method.toUpperCase(),
      template,
      operation,
    })),
  );
}

const PROBLEM = { $ref: '#/components/schemas/Problem' };
const PUBLIC = new Set(ROUTES.filter((route) => route.access === 'public').map(routeName));

/** Which upstream a route calls, by its path; null for routes the gateway answers alone. */
function upstreamOf({ method, template }: Operation): 'pipes' | 'dashboards' | null {
  // The event stream calls no upstream as it opens: its poller does, apart from any request.
  if (template.endsWith('/pipes/events')) return null;
  if (template.startsWith('/v1/organizations/')) return 'pipes';
  if (template === '/v1/dashboards' || template === '/v1/dashboards/{id}') return 'dashboards';
  if (method === 'POST' && template.endsWith('/restore')) return 'dashboards';
  if (method === 'POST' && template.endsWith('/resubmit')) return 'pipes';
  return null;
}

/** Everything wrong with one operation, by the rules every operation is held to. */
function problemsOf(op: Operation, oidc: boolean): string[] {
  const { operation } = op;
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const statuses = Object.keys(responses);
  const found: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) found.push(what);
  };
  const documents = (status: number) => status in responses;
  const headerOf = (status: number, header: string) => responses[status]?.headers?.[header] !== undefined;

  expect(typeof operation.summary === 'string' && operation.summary.length > 0, 'a summary');
  expect(typeof operation.description === 'string' && operation.description.length > 0, 'a description');

  const successes = statuses.filter((status) => status.startsWith('2'));
  expect(successes.length > 0, 'a success response');
  for (const status of successes.filter((status) => status !== '204')) {
    const content = Object.values<Json>(responses[status].content ?? {});
    expect(
      content.length > 0 && content.every((media) => media.schema !== undefined),
      `a schema for ${status}`,
    );
  }
  const errors = statuses.filter((status) => /^[45]/.test(status));
  // Every operation can fail unexpectedly (500), and refuses a URL it cannot read (400), the
  // public ones too; most can fail in other documented ways as well.
  expect(documents(500), '500');
  expect(documents(400), '400 (URL)');
  for (const status of errors) {
    expect(
      JSON.stringify(responses[status].content?.['application/problem+json']?.schema) ===
        JSON.stringify(PROBLEM),
      `the Problem schema for ${status}`,
    );
  }
  for (const status of statuses)
    expect(headerOf(Number(status), 'X-Request-Id'), `X-Request-Id on ${status}`);
  expect(!documents(429) || headerOf(429, 'Retry-After'), 'Retry-After on 429');

  const security = operation.security as Json[] | undefined;
  if (PUBLIC.has(op.route)) {
    expect(security === undefined || security.length === 0, 'no security on a public route');
  } else {
    const expected = op.template.startsWith('/v1/admin/')
      ? [{ 'platform-token': [] }]
      : [
          { 'gateway-key': [] },
          // About the caller: any credential.
          ...(op.template === '/v1/me' ? [{ 'platform-token': [] }] : []),
          ...(oidc ? [{ oidc: [] }] : []),
        ];
    expect(JSON.stringify(security) === JSON.stringify(expected), `security ${JSON.stringify(expected)}`);
    for (const status of [400, 401, 403, 429, 503]) expect(documents(status), `${status} (authenticated)`);
    expect(headerOf(401, 'WWW-Authenticate'), 'WWW-Authenticate on 401');
    expect(headerOf(503, 'Retry-After'), 'Retry-After on 503');
  }

  if (operation.requestBody !== undefined) {
    expect(
      operation.requestBody.content?.['application/json']?.schema !== undefined,
      'a request body schema',
    );
    for (const status of [400, 413, 415]) expect(documents(status), `${status} (JSON body)`);
  }

  const upstream = upstreamOf(op);
  if (upstream !== null) {
    for (const status of [404, 409, 422, 429, 502, 503, 504])
      expect(documents(status), `${status} (upstream)`);
    if (upstream === 'pipes') expect(documents(424), '424 (pipes upstream)');
  }

  const headerParameters = ((operation.parameters ?? []) as Json[])
    .filter((parameter) => parameter.in === 'header')
    .map((parameter) => parameter.name as string);
  if (headerParameters.includes('If-Match')) {
    expect(documents(412) && headerOf(412, 'ETag'), '412 with ETag (If-Match)');
  }
  if (headerParameters.includes('Idempotency-Key')) {
    expect(documents(409) && documents(422), '409 and 422 (Idempotency-Key)');
  }
  if (upstream === 'dashboards' && op.method !== 'DELETE' && op.template !== '/v1/dashboards') {
    for (const status of successes) expect(headerOf(Number(status), 'ETag'), `ETag on ${status} (dashboard)`);
  }
  return found;
}

async function servedDocument(env: Record<string, string>): Promise<Json> {
  const gateway = await startGateway(env);
  try {
    return (await gateway.http.get('/docs-json').expect(200)).body;
  } finally {
    await gateway.close();
  }
}

describe.each([
  ['without sign-in', {}, false],
  [
    'with sign-in',
    { OIDC_ISSUER: 'http://127.0.0.1:9/issuer', OIDC_AUDIENCE: 'pipes-gateway-openapi-test' },
    true,
  ],
])('the OpenAPI document %s (e2e)', (_label, env, oidc) => {
  let document: Json;

  beforeAll(async () => {
    document = await servedDocument(env);
  });

  it('is valid OpenAPI', async () => {
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('names a server, and the security schemes that exist', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(
      oidc ? ['gateway-key', 'oidc', 'platform-token'] : ['gateway-key', 'platform-token'],
    );
  });

  it('documents every operation completely', () => {
    const incomplete = operationsOf(document)
      .map((op) => ({ route: op.route, missing: problemsOf(op, oidc) }))
      .filter(({ missing }) => missing.length > 0);
    expect(incomplete).toEqual([]);
  });

  it('describes the problem+json shape of docs/api.md', () => {
    const problem = document.components.schemas.Problem;
    expect(problem.required).toEqual(['type', 'title', 'status', 'detail', 'requestId']);
    expect(Object.keys(problem.properties)).toEqual([
      'type',
      'title',
      'status',
      'detail',
      'requestId',
      'traceId',
      'errors',
      'upstream',
      'tenantId',
      'pipes',
    ]);
    expect(Object.keys(problem.properties.errors.items.properties)).toEqual(['path', 'message']);
    expect(Object.keys(problem.properties.pipes.items.properties)).toEqual([
      'pipeId',
      'name',
      'organizationId',
      'serviceId',
      'paths',
    ]);
    expect(Object.keys(problem.properties.upstream.properties)).toEqual(['status', 'requestId', 'body']);
  });
});

describe('the answer schemas against real answers (e2e)', () => {
  let world: UpstreamWorld;
  let document: Json;
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });

  beforeAll(async () => {
    world = await startUpstreamWorld();
    document = (await world.gateway.http.get('/docs-json').expect(200)).body;
  });
  afterAll(() => world.close());

  /** Why `body` does not fit the named component, or [] when it does. */
  const misfits = (component: string, body: unknown): unknown[] => {
    const check = ajv.compile({ $ref: `#/components/schemas/${component}`, components: document.components });
    return check(body) ? [] : (check.errors ?? []);
  };
  const key = (role: 'operator' | 'viewer' | 'admin') => bearer(world.tenant.keys[role]);

  it('pipes answers fit PipeEnvelope and PipeListEnvelope', async () => {
    const pipes = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`;
    const created = await world.gateway.http
      .post(pipes)
      .set(key('operator'))
      .send(validCreateBody('kafka'))
      .expect(200);
    expect(misfits('PipeEnvelope', created.body)).toEqual([]);
    const listed = await world.gateway.http.get(pipes).set(key('viewer')).expect(200);
    expect(misfits('PipeListEnvelope', listed.body)).toEqual([]);
    const settings = await world.gateway.http
      .get(`${pipes}/${created.body.result.id}/settings`)
      .set(key('viewer'))
      .expect(200);
    expect(misfits('PipeSettingsEnvelope', settings.body)).toEqual([]);
  });

  it('dashboards answers fit DashboardEnvelope and DashboardListEnvelope', async () => {
    const created = await world.gateway.http
      .post('/v1/dashboards')
      .set(key('operator'))
      .send(validDashboardBody())
      .expect(201);
    expect(misfits('DashboardEnvelope', created.body)).toEqual([]);
    const listed = await world.gateway.http.get('/v1/dashboards').set(key('viewer')).expect(200);
    expect(misfits('DashboardListEnvelope', listed.body)).toEqual([]);
  });

  it('errors of every origin fit Problem', async () => {
    const answers = [
      await world.gateway.http.get('/v1/credentials').expect(401),
      await world.gateway.http.post('/v1/keys').set(key('admin')).send({ name: 7 }).expect(400),
      await world.gateway.http.get(`/v1/credentials/${randomUUID()}`).set(key('viewer')).expect(404),
      await world.gateway.http.patch('/v1/credentials').expect(405),
      await world.gateway.http
        .get(`/v1/dashboards/${'f'.repeat(24)}`)
        .set(key('viewer'))
        .expect(404),
    ];
    for (const answer of answers) {
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect([answer.status, misfits('Problem', answer.body)]).toEqual([answer.status, []]);
    }
    expect(answers[4].body.upstream).toMatchObject({ status: 404 });
  });
});
