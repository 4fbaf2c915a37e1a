/**
 * The platform finds its tenants again: a keyset-paged list with an exact-name filter, and a
 * duplicate name answered with the id of the tenant that has it, however the duplicate arises.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { startOidcIssuer, type OidcIssuer } from '../sandbox';
import { PrismaService } from '../src/database/prisma.service';
import { bearer, createTenant, platformAuth, type TestTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';
import { itWithPostgres, postgresUrl } from './support/skip';

interface TenantItem {
  id: string;
  name: string;
  createdAt: string;
}

describe('tenants (e2e)', () => {
  let issuer: OidcIssuer;
  let gateway: TestGateway;
  let tenant: TestTenant;
  const run = randomUUID().slice(0, 8);

  beforeAll(async () => {
    issuer = await startOidcIssuer({ audience: 'pipes-gateway-test' });
    gateway = await startGateway({ OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: issuer.audience });
    tenant = await createTenant(gateway, `tenants-${run}`);
  });
  afterAll(async () => {
    await gateway?.close();
    await issuer?.close();
  });

  const list = (query: Record<string, string | number>) =>
    gateway.http.get('/v1/admin/tenants').query(query).set(platformAuth);

  const create = (name: string) => gateway.http.post('/v1/admin/tenants').set(platformAuth).send({ name });

  describe('the list', () => {
    it('pages through every tenant oldest first, each once, as {id, name, createdAt}', async () => {
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await create(`paged-${run}-${i}`).expect(201)).body.id);

      const seen: TenantItem[] = [];
      let cursor: string | null = null;
      do {
        const page = await list({ limit: 2, ...(cursor ? { cursor } : {}) }).expect(200);
        expect(Object.keys(page.body).sort()).toEqual(['items', 'nextCursor']);
        expect(page.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...(page.body.items as TenantItem[]));
        cursor = page.body.nextCursor as string | null;
      } while (cursor !== null);

      for (const item of seen) expect(Object.keys(item).sort()).toEqual(['createdAt', 'id', 'name']);
      expect(new Set(seen.map((item) => item.id)).size).toBe(seen.length);
      const positions = seen.map((item) => [Date.parse(item.createdAt), item.id] as const);
      for (let i = 1; i < positions.length; i++) {
        const [before, after] = [positions[i - 1], positions[i]];
        expect(before[0] < after[0] || (before[0] === after[0] && before[1] < after[1])).toBe(true);
      }
      expect(seen.map((item) => item.id).filter((id) => made.includes(id))).toEqual(made);
      expect(seen.map((item) => item.id)).toContain(tenant.id);
    });

    it('takes 50 by default and at most 200 at once', async () => {
      for (let i = 0; i < 3; i++) await create(`default-${run}-${i}`).expect(201);
      const all = await list({ limit: 200 }).expect(200);
      const first = await list({}).expect(200);
      expect(first.body.items).toEqual(all.body.items.slice(0, 50));
      expect(first.body.nextCursor === null).toBe(all.body.items.length <= 50);
    });

    it('finds a tenant by its exact name, and nothing by a part of it or another case', async () => {
      const found = await list({ name: tenant.name }).expect(200);
      expect(found.body).toEqual({
        items: [{ id: tenant.id, name: tenant.name, createdAt: expect.any(String) }],
        nextCursor: null,
      });
      for (const name of [tenant.name.slice(0, -1), tenant.name.toUpperCase(), `${tenant.name}x`]) {
        expect((await list({ name }).expect(200)).body).toEqual({ items: [], nextCursor: null });
      }
    });

    it('answers a bad query with a 400 naming each parameter, as the other lists do', async () => {
      const bad = { limit: '0', cursor: 'not-a-cursor' };
      const tenants = await list(bad).expect(400);
      expect(tenants.headers['content-type']).toMatch(/application\/problem\+json/);
      const mappings = await gateway.http
        .get(`/v1/admin/tenants/${tenant.id}/group-mappings`)
        .query(bad)
        .set(platformAuth)
        .expect(400);
      expect(tenants.body.errors).toEqual(mappings.body.errors);

      const cases: [Record<string, string>, string, string][] = [
        [{ limit: '201' }, 'limit', 'must be a whole number from 1 to 200'],
        [{ limit: 'ten' }, 'limit', 'must be a whole number from 1 to 200'],
        [{ cursor: 'not-a-cursor' }, 'cursor', 'is not one this gateway issued'],
        [{ name: '' }, 'name', 'must not be empty'],
        [{ name: 'n'.repeat(65) }, 'name', 'must be at most 64 characters long'],
        [{ sort: 'name' }, 'sort', 'is not a known field'],
      ];
      for (const [query, path, message] of cases) {
        const response = await list(query).expect(400);
        expect(response.body).toMatchObject({
          type: expect.stringMatching(/validation-failed$/),
          errors: [{ path, message }],
        });
      }
    });

    it("refuses a tenant's key and a user's token, saying the route needs the platform token", async () => {
      const group = `tenant-admins-${run}`;
      await gateway.http
        .post(`/v1/admin/tenants/${tenant.id}/group-mappings`)
        .set(platformAuth)
        .send({ group, roles: ['admin'] })
        .expect(201);
      const userToken = await issuer.mint({ email: `admin-${run}@example.com`, groups: [group] });
      // The same token is a valid caller of the tenant's own routes.
      await gateway.http.get('/v1/keys').set(bearer(userToken)).expect(200);

      const notIt =
        'This route needs the platform token (GATEWAY_ADMIN_TOKEN); the credential sent is not it ' +
        '(gateway keys and user tokens are not taken here).';
      for (const [headers, detail] of [
        [bearer(tenant.keys.admin), notIt],
        [bearer(userToken), notIt],
        [{}, 'This route needs the platform token (GATEWAY_ADMIN_TOKEN) as "Authorization: Bearer <token>".'],
      ] as const) {
        const response = await gateway.http.get('/v1/admin/tenants').set(headers).expect(401);
        expect(response.body.detail).toBe(detail);
        expect(JSON.stringify(response.body)).not.toContain(tenant.id);
      }
    });
  });

  describe('a duplicate name', () => {
    it('is answered 409 with the id of the tenant that has it', async () => {
      const response = await create(tenant.name).expect(409);
      expect(response.body).toMatchObject({
        type: expect.stringMatching(/conflict$/),
        status: 409,
        tenantId: tenant.id,
      });
      expect(response.body.detail).toContain(tenant.id);
    });

    it('answers every loser of parallel creates 409 with the id of the one that won', async () => {
      const name = `raced-${run}`;
      const answers = await Promise.all(Array.from({ length: 6 }, () => create(name)));
      const winners = answers.filter((answer) => answer.status === 201);
      expect(winners).toHaveLength(1);
      const losers = answers.filter((answer) => answer.status !== 201);
      expect(losers.map((answer) => answer.status)).toEqual(losers.map(() => 409));
      for (const loser of losers) expect(loser.body.tenantId).toBe(winners[0].body.id);
    });

    itWithPostgres(
      'taken between the check and the insert is answered 409 with the id of the tenant that has it',
      async () => {
        const name = `late-${run}`;
        const id = randomUUID();
        // A create of the same name by another replica: inserted, not yet committed, so the
        // gateway's check does not see it and its own insert waits on the unique index.
        const other = new Client({ connectionString: postgresUrl() });
        await other.connect();
        try {
          await other.query('BEGIN');
          await other.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [id, name]);
          const answer = create(name).then((response) => response);
          await waitForInsertBlockedOn(gateway.app.get(PrismaService), name);
          await other.query('COMMIT');
          const response = await answer;
          expect(response.status).toBe(409);
          expect(response.body).toMatchObject({ type: expect.stringMatching(/conflict$/), tenantId: id });
        } finally {
          await other.end();
        }
      },
    );
  });
});

/** Until a session waits on the lock of an uncommitted insert of the tenant `name`. */
async function waitForInsertBlockedOn(prisma: PrismaService, name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [row] = await prisma.$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO "public"."tenants"%'
        AND datname = current_database()`;
    if (row.waiting > 0) return;
    if (Date.now() > deadline) throw new Error(`no insert of the tenant "${name}" waited on the lock`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
