import { randomUUID } from 'node:crypto';
import { UpstreamCredentials } from '../src/credentials/upstream-credentials';
import { PrismaService } from '../src/database/prisma.service';
import { bearer, createTenant, TestTenant } from './support/fixtures';
import { startGateway, TestGateway } from './support/gateway';

const CANARY = `CANARY${randomUUID().replace(/-/g, '')}`;
const actor = { actor: 'test', onBehalfOf: null, keyId: null, requestId: 'test' };

describe('credentials vault (e2e)', () => {
  let gateway: TestGateway;
  let prisma: PrismaService;
  let tenant: TestTenant;
  let other: TestTenant;
  const orgId = randomUUID();

  beforeAll(async () => {
    gateway = await startGateway({
      DASHBOARDS_ALLOWED_HOSTS: 'dash.internal.example.com,obs.internal.example.com:8443,127.0.0.1:8443',
    });
    prisma = gateway.app.get(PrismaService);
    tenant = await createTenant(gateway);
    other = await createTenant(gateway);
  });
  afterAll(async () => {
    await gateway.close();
  });

  const admin = () => bearer(tenant.keys.admin);
  const createPipes = (organizationId = orgId, keySecret = CANARY) =>
    gateway.http
      .post('/v1/credentials')
      .set(admin())
      .send({ kind: 'pipes', name: 'org key', organizationId, keyId: 'KEYID-abcd1234', keySecret });

  it('stores a pipes credential and answers metadata only', async () => {
    const response = await createPipes().expect(201);
    expect(response.body).toMatchObject({
      kind: 'pipes',
      name: 'org key',
      organizationId: orgId,
      hint: '1234',
      version: 1,
      lastUsedAt: null,
      rejectedAt: null,
    });
    expect(Object.keys(response.body)).not.toEqual(expect.arrayContaining(['keySecret']));
    expect(JSON.stringify(response.body)).not.toContain(CANARY);
    expect(JSON.stringify(response.headers)).not.toContain(CANARY);
  });

  it('refuses a second pipes credential for the same organization with 409', async () => {
    await createPipes().expect(409);
  });

  it('keeps the secret out of every response, log line and column but the ciphertext', async () => {
    const created = await createPipes(randomUUID()).expect(201);
    const list = await gateway.http.get('/v1/credentials').set(bearer(tenant.keys.viewer)).expect(200);
    const one = await gateway.http
      .get(`/v1/credentials/${created.body.id}`)
      .set(bearer(tenant.keys.viewer))
      .expect(200);
    const rotated = await gateway.http
      .post(`/v1/credentials/${created.body.id}/rotate`)
      .set(admin())
      .send({ keySecret: `${CANARY}-rotated` })
      .expect(200);
    for (const body of [list.body, one.body, rotated.body])
      expect(JSON.stringify(body)).not.toContain(CANARY);
    expect(gateway.logs.text()).not.toContain(CANARY);

    const rows = await prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      'SELECT id, tenant_id, kind, name, organization_id, base_url, hint, key_version, version, ciphertext FROM credentials',
    );
    for (const row of rows) {
      const { ciphertext, ...plainColumns } = row;
      expect(JSON.stringify(plainColumns)).not.toContain(CANARY);
      expect(Buffer.from(ciphertext as Uint8Array).toString('latin1')).not.toContain(CANARY);
    }
    const audit = await prisma.auditEvent.findMany({ where: { tenantId: tenant.id } });
    expect(JSON.stringify(audit)).not.toContain(CANARY);
  });

  it('rotates: version + 1, new hint, and the new secret is what upstream calls get', async () => {
    const organizationId = randomUUID();
    const created = await createPipes(organizationId, 'first-secret').expect(201);
    const service = gateway.app.get(UpstreamCredentials);
    expect((await service.pipesCredential(tenant.id, organizationId, actor)).secret.keySecret).toBe(
      'first-secret',
    );
    const rotated = await gateway.http
      .post(`/v1/credentials/${created.body.id}/rotate`)
      .set(admin())
      .send({ keyId: 'NEWKEY-9999', keySecret: 'second-secret' })
      .expect(200);
    expect(rotated.body).toMatchObject({ version: 2, hint: '9999' });
    const after = await service.pipesCredential(tenant.id, organizationId, actor);
    expect(after.secret).toEqual({ keyId: 'NEWKEY-9999', keySecret: 'second-secret' });
  });

  it('deletes: later calls that need it fail clearly with 422', async () => {
    const organizationId = randomUUID();
    const created = await createPipes(organizationId).expect(201);
    const service = gateway.app.get(UpstreamCredentials);
    await service.pipesCredential(tenant.id, organizationId, actor);
    await gateway.http.delete(`/v1/credentials/${created.body.id}`).set(admin()).expect(204);
    await gateway.http.get(`/v1/credentials/${created.body.id}`).set(admin()).expect(404);
    await expect(service.pipesCredential(tenant.id, organizationId, actor)).rejects.toMatchObject({
      problem: { status: 422, type: 'pipes-credential-missing' },
    });
  });

  it('stores dashboards credentials with an allow-listed https baseUrl and a default', async () => {
    const first = await gateway.http
      .post('/v1/credentials')
      .set(admin())
      .send({ kind: 'dashboards', name: 'main', token: `tok-${CANARY}-wxyz` })
      .expect(201);
    expect(first.body).toMatchObject({ kind: 'dashboards', isDefault: true, hint: 'wxyz' });
    const selfHosted = await gateway.http
      .post('/v1/credentials')
      .set(admin())
      .send({
        kind: 'dashboards',
        name: 'self-hosted',
        token: 'tok-2',
        baseUrl: 'https://dash.internal.example.com/',
      })
      .expect(201);
    expect(selfHosted.body).toMatchObject({ isDefault: false, baseUrl: 'https://dash.internal.example.com' });
    expect(JSON.stringify(first.body)).not.toContain(CANARY);
  });

  describe('allow-list entries name the port', () => {
    const create = (baseUrl: string) =>
      gateway.http
        .post('/v1/credentials')
        .set(admin())
        .send({ kind: 'dashboards', name: 'x', token: 't', baseUrl });

    it.each(['https://dash.internal.example.com:443', 'https://obs.internal.example.com:8443/observability'])(
      'admits %s',
      async (baseUrl) => {
        await create(baseUrl).expect(201);
      },
    );

    it.each([
      'https://dash.internal.example.com:8443',
      'https://dash.internal.example.com:22',
      'https://obs.internal.example.com',
      'https://obs.internal.example.com:8444',
    ])('refuses %s with the rule, and no word of which ports are open', async (baseUrl) => {
      const response = await create(baseUrl).expect(400);
      expect(response.body.errors).toEqual([
        {
          path: 'baseUrl',
          message:
            "baseUrl's host and port must be in DASHBOARDS_ALLOWED_HOSTS (an entry without a port admits only the scheme's default port)",
        },
      ]);
      // The problem's own words only: its random request id may hold any digits.
      const { detail, errors } = response.body;
      expect(JSON.stringify({ detail, errors })).not.toMatch(/8443|443\b|obs\.internal/);
    });

    it('refuses to use a stored baseUrl the allow-list no longer admits, before anything is sent', async () => {
      const created = await create('https://127.0.0.1:8443').expect(201);
      // As stored before entries named their ports: same host, another port (loopback, and closed).
      await prisma.credential.update({
        where: { id: created.body.id },
        data: { baseUrl: 'https://127.0.0.1:9200' },
      });
      const response = await gateway.http
        .get('/v1/dashboards/abc')
        .query({ credentialId: created.body.id })
        .set(bearer(tenant.keys.viewer))
        .expect(422);
      expect(response.body.type).toMatch(/dashboards-base-url-not-allowed$/);
      expect(response.body.detail).not.toMatch(/9200|8443/);
    });
  });

  it.each([
    [
      { kind: 'pipes', name: 'x', organizationId: 'not-a-uuid', keyId: 'k', keySecret: 's' },
      ['organizationId'],
    ],
    [{ kind: 'pipes', name: 'x', organizationId: randomUUID(), keyId: 'k', keySecret: '' }, ['keySecret']],
    [
      { kind: 'pipes', name: 'x', organizationId: randomUUID(), keyId: 'k', keySecret: 'x'.repeat(1025) },
      ['keySecret'],
    ],
    [{ kind: 'pipes', name: 'x', organizationId: randomUUID(), keyId: 'k' }, ['keySecret']],
    [
      { kind: 'pipes', name: 'x', organizationId: randomUUID(), keyId: 'k', keySecret: 's', token: 't' },
      ['token'],
    ],
    [{ kind: 'dashboards', name: 'x', token: 't', keySecret: 's' }, ['keySecret']],
    [{ kind: 'dashboards', name: 'x', token: '' }, ['token']],
    [{ kind: 'dashboards', name: 'x', token: 't', baseUrl: 'https://evil.example.com' }, ['baseUrl']],
    [{ kind: 'dashboards', name: 'x', token: 't', baseUrl: 'http://dash.internal.example.com' }, ['baseUrl']],
    [
      { kind: 'dashboards', name: 'x', token: 't', baseUrl: 'https://u:p@dash.internal.example.com' },
      ['baseUrl'],
    ],
    [{ kind: 'ftp', name: 'x' }, ['kind']],
    [{ kind: 'dashboards', name: 'x', token: 't', surprise: 1 }, ['surprise']],
  ])('rejects bad body #%# naming its fields', async (body, paths) => {
    const response = await gateway.http.post('/v1/credentials').set(admin()).send(body).expect(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(paths));
    expect(JSON.stringify(response.body)).not.toMatch(/"s"|p@/);
  });

  it('lets viewers read, only admins write', async () => {
    for (const role of ['operator', 'viewer', 'auditor'] as const) {
      await gateway.http.post('/v1/credentials').set(bearer(tenant.keys[role])).send({}).expect(403);
    }
    await gateway.http.get('/v1/credentials').set(bearer(tenant.keys.operator)).expect(200);
    await gateway.http.get('/v1/credentials').set(bearer(tenant.keys.auditor)).expect(403);
  });

  it("answers 404 for another tenant's credential on every route", async () => {
    const created = await createPipes(randomUUID()).expect(201);
    const id = created.body.id;
    await gateway.http.get(`/v1/credentials/${id}`).set(bearer(other.keys.admin)).expect(404);
    await gateway.http
      .post(`/v1/credentials/${id}/rotate`)
      .set(bearer(other.keys.admin))
      .send({ keySecret: 'x' })
      .expect(404);
    await gateway.http.delete(`/v1/credentials/${id}`).set(bearer(other.keys.admin)).expect(404);
    const list = await gateway.http.get('/v1/credentials').set(bearer(other.keys.admin)).expect(200);
    expect(list.body.items.map((c: { id: string }) => c.id)).not.toContain(id);
  });

  describe('tamper detection', () => {
    const columns = ['ciphertext', 'iv', 'auth_tag'] as const;

    it.each(columns)('fails loudly when %s is altered', async (column) => {
      const organizationId = randomUUID();
      const created = await createPipes(organizationId).expect(201);
      // Every bit of the first byte flipped: writing a fixed byte would leave a value that already
      // held it (one IV in 256) unchanged.
      await prisma.$executeRawUnsafe(
        `UPDATE credentials SET ${column} = set_byte(${column}, 0, get_byte(${column}, 0) # 255) WHERE id = $1::uuid`,
        created.body.id,
      );
      await expect(
        gateway.app.get(UpstreamCredentials).pipesCredential(tenant.id, organizationId, actor),
      ).rejects.toMatchObject({
        problem: { status: 500, type: 'credential-unreadable' },
      });
    });

    it('fails when a row is copied to another tenant or another credential id', async () => {
      const organizationId = randomUUID();
      const created = await createPipes(organizationId).expect(201);
      const copyId = randomUUID();
      await prisma.$executeRawUnsafe(
        `INSERT INTO credentials (id, tenant_id, kind, name, organization_id, hint, ciphertext, iv, auth_tag, key_version)
         SELECT $1::uuid, $2::uuid, kind, name, organization_id, hint, ciphertext, iv, auth_tag, key_version FROM credentials WHERE id = $3::uuid`,
        copyId,
        other.id,
        created.body.id,
      );
      const service = gateway.app.get(UpstreamCredentials);
      await expect(service.pipesCredential(other.id, organizationId, actor)).rejects.toMatchObject({
        problem: { type: 'credential-unreadable' },
      });
      await prisma.$executeRawUnsafe(
        'UPDATE credentials SET id = $1::uuid WHERE id = $2::uuid',
        randomUUID(),
        created.body.id,
      );
      await expect(service.pipesCredential(tenant.id, organizationId, actor)).rejects.toMatchObject({
        problem: { type: 'credential-unreadable' },
      });
    });
  });
});
