import { PrismaService } from '../src/database/prisma.service';
import { bearer, createTenant, platformAuth, TestTenant } from './support/fixtures';
import { startGateway, TestGateway } from './support/gateway';

describe('tenants and gateway keys (e2e)', () => {
  let gateway: TestGateway;
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    gateway = await startGateway();
    tenant = await createTenant(gateway);
    other = await createTenant(gateway);
  });
  afterAll(async () => {
    await gateway.close();
  });

  describe('platform bootstrap', () => {
    it('creates a tenant and answers {id, name, createdAt}', async () => {
      const response = await gateway.http
        .post('/v1/admin/tenants')
        .set(platformAuth)
        .send({ name: 'billing' })
        .expect(201);
      expect(Object.keys(response.body).sort()).toEqual(['createdAt', 'id', 'name']);
      expect(response.body.name).toBe('billing');
    });

    it('refuses a duplicate tenant name with 409', async () => {
      await gateway.http.post('/v1/admin/tenants').set(platformAuth).send({ name: tenant.name }).expect(409);
    });

    it('refuses callers without the platform token', async () => {
      await gateway.http.post('/v1/admin/tenants').send({ name: 'x' }).expect(401);
      await gateway.http.post('/v1/admin/tenants').set(bearer('wrong-token')).send({ name: 'x' }).expect(401);
      await gateway.http
        .post('/v1/admin/tenants')
        .set(bearer(tenant.keys.admin))
        .send({ name: 'x' })
        .expect(401);
    });

    it('answers 404 when issuing a key for a tenant that does not exist', async () => {
      await gateway.http
        .post('/v1/admin/tenants/3f1e2d4c-0000-4000-8000-000000000000/keys')
        .set(platformAuth)
        .send({ name: 'k', roles: ['admin'] })
        .expect(404);
    });

    it('rejects bad bodies naming each problem', async () => {
      const response = await gateway.http
        .post(`/v1/admin/tenants/${tenant.id}/keys`)
        .set(platformAuth)
        .send({ name: '', roles: ['root'], extra: true })
        .expect(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect([...new Set(response.body.errors.map((e: { path: string }) => e.path))].sort()).toEqual([
        'extra',
        'name',
        'roles',
      ]);
    });

    it('rejects malformed JSON, a wrong media type and an oversized body', async () => {
      const bad = await gateway.http
        .post('/v1/admin/tenants')
        .set(platformAuth)
        .set('Content-Type', 'application/json')
        .send('{"name": ')
        .expect(400);
      expect(bad.body.detail).toMatch(/not valid JSON/);
      await gateway.http
        .post('/v1/admin/tenants')
        .set(platformAuth)
        .set('Content-Type', 'text/plain')
        .send('name=x')
        .expect(415);
      await gateway.http
        .post('/v1/admin/tenants')
        .set(platformAuth)
        .send({ name: 'x'.repeat(1024 * 1024 + 10) })
        .expect(413);
    });
  });

  describe('keys', () => {
    it('shows a key once and stores only its hash', async () => {
      const created = await gateway.http
        .post('/v1/keys')
        .set(bearer(tenant.keys.admin))
        .send({ name: 'ci', roles: ['viewer'] })
        .expect(201);
      expect(created.body.key).toMatch(/^pgw_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
      expect(created.body.keyPrefix).toBe(created.body.key.slice(0, 16));

      const listed = await gateway.http.get('/v1/keys').set(bearer(tenant.keys.admin)).expect(200);
      expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
      expect(listed.body.items.find((k: { id: string }) => k.id === created.body.id)).toMatchObject({
        name: 'ci',
        roles: ['viewer'],
      });

      const prisma = gateway.app.get(PrismaService);
      const rows = await prisma.$queryRawUnsafe<Record<string, unknown>[]>('SELECT * FROM gateway_keys');
      const secretPart = created.body.key.split('_').slice(2).join('_');
      expect(JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
        secretPart,
      );
    });

    it('refuses a revoked key at once', async () => {
      const created = await gateway.http
        .post('/v1/keys')
        .set(bearer(tenant.keys.admin))
        .send({ name: 'temp', roles: ['viewer'] })
        .expect(201);
      await gateway.http
        .get('/v1/credentials')
        .set(bearer(created.body.key))
        .expect((r) => expect(r.status).not.toBe(401));
      const revoked = await gateway.http
        .delete(`/v1/keys/${created.body.id}`)
        .set(bearer(tenant.keys.admin))
        .expect(200);
      expect(revoked.body.revokedAt).not.toBeNull();
      await gateway.http.get('/v1/keys').set(bearer(created.body.key)).expect(401);
    });

    it('paginates the key list with a cursor', async () => {
      for (let i = 0; i < 3; i++) {
        await gateway.http
          .post('/v1/keys')
          .set(bearer(tenant.keys.admin))
          .send({ name: `page-${i}`, roles: ['viewer'] })
          .expect(201);
      }
      const first = await gateway.http.get('/v1/keys?limit=2').set(bearer(tenant.keys.admin)).expect(200);
      expect(first.body.items).toHaveLength(2);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await gateway.http
        .get(`/v1/keys?limit=2&cursor=${first.body.nextCursor}`)
        .set(bearer(tenant.keys.admin))
        .expect(200);
      expect(second.body.items[0].id).not.toBe(first.body.items[1].id);
      await gateway.http.get('/v1/keys?limit=500').set(bearer(tenant.keys.admin)).expect(400);
      await gateway.http.get('/v1/keys?cursor=garbage').set(bearer(tenant.keys.admin)).expect(400);
    });

    it('lets only admins manage keys', async () => {
      for (const role of ['operator', 'viewer', 'auditor'] as const) {
        await gateway.http.get('/v1/keys').set(bearer(tenant.keys[role])).expect(403);
        await gateway.http
          .post('/v1/keys')
          .set(bearer(tenant.keys[role]))
          .send({ name: 'x', roles: ['admin'] })
          .expect(403);
      }
    });

    it("hides another tenant's keys: revoking one answers 404", async () => {
      await gateway.http.delete(`/v1/keys/${other.keyIds.viewer}`).set(bearer(tenant.keys.admin)).expect(404);
      const listed = await gateway.http.get('/v1/keys?limit=200').set(bearer(tenant.keys.admin)).expect(200);
      expect(listed.body.items.every((k: { tenantId: string }) => k.tenantId === tenant.id)).toBe(true);
    });

    it('rejects malformed keys, ids and on-behalf-of headers', async () => {
      await gateway.http.get('/v1/keys').set('Authorization', 'Basic abc').expect(401);
      await gateway.http.get('/v1/keys').set(bearer('pgw_short')).expect(401);
      await gateway.http.delete('/v1/keys/not-a-uuid').set(bearer(tenant.keys.admin)).expect(400);
      await gateway.http
        .get('/v1/keys')
        .set(bearer(tenant.keys.admin))
        .set('X-On-Behalf-Of', 'x'.repeat(200))
        .expect(400);
    });
  });
});
