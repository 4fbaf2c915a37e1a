/**
 * One clear message per problem: what a caller reads when a request is refused, through the real
 * HTTP pipeline. The wording matches the upstream body checks (src/common/validation/messages.ts).
 */
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { validDashboardBody } from './fixtures/dashboard-bodies';
import { bearer, createTenant, platformAuth, type TestTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';

describe('field errors of the gateway-owned bodies and queries (e2e)', () => {
  let gateway: TestGateway;
  let tenant: TestTenant;

  beforeAll(async () => {
    gateway = await startGateway();
    tenant = await createTenant(gateway);
  });
  afterAll(() => gateway.close());

  const errorsOf = async (
    path: string,
    body: object,
    auth: Record<string, string> = bearer(tenant.keys.admin),
  ): Promise<unknown> => (await gateway.http.post(path).set(auth).send(body).expect(400)).body.errors;

  const pipesCredential = { kind: 'pipes', name: 'prod', organizationId: randomUUID(), keyId: 'KEYID' };

  it.each([
    ['a missing secret', pipesCredential, [{ path: 'keySecret', message: 'is required' }]],
    [
      'a secret of the wrong type',
      { ...pipesCredential, keySecret: 42 },
      [{ path: 'keySecret', message: 'must be a string' }],
    ],
    [
      'an empty secret',
      { ...pipesCredential, keySecret: '' },
      [{ path: 'keySecret', message: 'must not be empty' }],
    ],
    [
      'a secret with a space',
      { ...pipesCredential, keySecret: 'a b' },
      [{ path: 'keySecret', message: 'must not contain whitespace' }],
    ],
    [
      'a kind it does not know',
      { ...pipesCredential, kind: 'ftp' },
      [{ path: 'kind', message: 'must be one of pipes, dashboards, secret' }],
    ],
    [
      'a missing name and organization',
      { kind: 'pipes', keyId: 'K', keySecret: 'S' },
      [
        { path: 'name', message: 'is required' },
        { path: 'organizationId', message: 'is required' },
      ],
    ],
    [
      'a flag that is a string',
      { kind: 'dashboards', name: 'd', token: 't', isDefault: 'yes' },
      [{ path: 'isDefault', message: 'must be true or false' }],
    ],
  ])('a credential with %s: one message per field', async (_what, body, errors) => {
    expect(await errorsOf('/v1/credentials', body)).toEqual(expect.arrayContaining(errors));
    expect(await errorsOf('/v1/credentials', body)).toHaveLength(errors.length);
  });

  it.each([
    ['missing', { name: 'ci' }, 'is required'],
    ['not a list', { name: 'ci', roles: 'admin' }, 'must be an array'],
    ['empty', { name: 'ci', roles: [] }, 'must have at least 1 item'],
    [
      'a role it does not know',
      { name: 'ci', roles: ['root'] },
      'each item must be one of admin, operator, viewer, auditor',
    ],
    ['a role twice', { name: 'ci', roles: ['viewer', 'viewer'] }, 'must not list an item twice'],
  ])('key roles %s: one message', async (_what, body, message) => {
    expect(await errorsOf('/v1/keys', body)).toEqual([{ path: 'roles', message }]);
  });

  it.each([
    ['a word', 'abc'],
    ['a number out of range', '500'],
    ['a fraction', '1.5'],
  ])('a page limit that is %s: one message with the type and range wanted', async (_what, limit) => {
    const response = await gateway.http
      .get('/v1/keys')
      .query({ limit })
      .set(bearer(tenant.keys.admin))
      .expect(400);
    expect(response.body.errors).toEqual([
      { path: 'limit', message: 'must be a whole number from 1 to 200' },
    ]);
  });

  it('a tenant name: the type before any other rule, and the rule that is broken', async () => {
    expect(await errorsOf('/v1/admin/tenants', { name: 7 }, platformAuth)).toEqual([
      { path: 'name', message: 'must be a string' },
    ]);
    expect(await errorsOf('/v1/admin/tenants', { name: 'a b' }, platformAuth)).toEqual([
      {
        path: 'name',
        message: 'must start with a letter or digit and hold only letters, digits, ".", "_" and "-"',
      },
    ]);
  });
});

describe('If-Match, body size and methods (e2e)', () => {
  let world: UpstreamWorld;
  let dashboard: string;

  beforeAll(async () => {
    world = await startUpstreamWorld({ BODY_LIMIT_BYTES: '4096' });
    dashboard = `/v1/dashboards/${world.dashboards.seedDashboard({ name: 'Orders', tags: [], tiles: [] }).id}`;
  });
  afterAll(() => world.close());

  const operator = () => bearer(world.tenant.keys.operator);

  it('refuses an unquoted but current ETag with 400 saying how to quote it, and writes nothing', async () => {
    const read = await world.gateway.http.get(dashboard).set(bearer(world.tenant.keys.viewer)).expect(200);
    const unquoted = String(read.headers.etag).replace(/"/g, '');
    const refused = await world.gateway.http
      .put(dashboard)
      .set(operator())
      .set('If-Match', unquoted)
      .send(validDashboardBody())
      .expect(400);
    expect(refused.body.errors).toEqual([
      { path: 'header:If-Match', message: expect.stringContaining('in double quotes') },
    ]);
    expect(refused.body.type).not.toMatch(/dashboard-changed$/);
    const after = await world.gateway.http.get(dashboard).set(bearer(world.tenant.keys.viewer)).expect(200);
    expect(after.headers.etag).toBe(read.headers.etag);

    await world.gateway.http
      .put(dashboard)
      .set(operator())
      .set('If-Match', String(read.headers.etag))
      .send(validDashboardBody())
      .expect(200);
  });

  it('names the body limit in bytes and its setting, whether the size is declared or not', async () => {
    const declared = await world.gateway.http
      .put(dashboard)
      .set(operator())
      .send({ ...validDashboardBody(), name: 'x'.repeat(5000) })
      .expect(413);
    const message = 'The request body is larger than the limit of 4096 bytes (BODY_LIMIT_BYTES).';
    expect(declared.body).toMatchObject({ status: 413, detail: message });

    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${world.gateway.url}${dashboard}`);
      const request = httpRequest(
        url,
        { method: 'PUT', headers: { ...operator(), 'content-type': 'application/json' } },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      // No Content-Length: the limit is found while the body streams in.
      request.write(`{"name":"${'x'.repeat(3000)}`);
      request.end(`${'x'.repeat(3000)}"}`);
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).detail).toBe(message);
  });

  it('answers a known path asked with another method 405 with Allow, an unknown path 404', async () => {
    const wrong = await world.gateway.http.patch(dashboard).set(operator()).send({}).expect(405);
    expect(wrong.headers.allow).toBe('DELETE, GET, HEAD, PUT');
    expect(wrong.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(wrong.body).toMatchObject({
      status: 405,
      title: 'Method not allowed',
      detail: 'PATCH is not allowed on this path; it answers DELETE, GET, HEAD, PUT.',
      requestId: wrong.headers['x-request-id'],
    });
    const collection = await world.gateway.http.delete('/v1/credentials').expect(405);
    expect(collection.headers.allow).toBe('GET, HEAD, POST');
    // Without authentication too: the method is refused before anything else is looked at.
    await world.gateway.http.delete('/v1/audit/verify').expect(405);

    await world.gateway.http.patch('/v1/nothing-here').expect(404);
    await world.gateway.http.get('/v1/dashboards/a/b/c').set(operator()).expect(404);
  });

  it('refuses a URL it cannot read on /metrics as documented, like on every other route', async () => {
    const nul = await world.gateway.http.get('/metrics?name=%00').expect(400);
    expect(nul.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(nul.body).toMatchObject({
      type: expect.stringMatching(/\/bad-request$/),
      detail: 'The URL must not contain NUL (%00).',
    });
    const undecodable = await world.gateway.http.get('/metrics?name=%ED%A0%80').expect(400);
    expect(undecodable.body).toMatchObject({
      type: expect.stringMatching(/\/validation-failed$/),
      errors: [
        {
          path: 'name',
          message: 'has a percent-escape that does not decode as UTF-8 (write a literal % as %25)',
        },
      ],
    });
  });

  it('says so when a path without /v1 exists under /v1', async () => {
    const credentials = await world.gateway.http.get('/credentials?limit=5').set(operator()).expect(404);
    expect(credentials.body).toMatchObject({
      status: 404,
      title: 'Not found',
      detail: 'Cannot GET /credentials: the API is under /v1; did you mean /v1/credentials?',
    });
    const pipe = await world.gateway.http.patch(`/dashboards/${'a'.repeat(24)}`).expect(404);
    expect(pipe.body.detail).toBe(
      `Cannot PATCH /dashboards/${'a'.repeat(24)}: the API is under /v1; did you mean /v1/dashboards/${'a'.repeat(24)}?`,
    );
    const nowhere = await world.gateway.http.get('/nothing-here').expect(404);
    expect(nowhere.body.detail).toBe('Cannot GET /nothing-here');
  });
});
