/**
 * The platform finds its tenants again: a keyset-paged list with an exact-name filter, and a
 * duplicate name answered with the id of the tenant that has it, however the duplicate arises.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { startOidcIssuer, type OidcIssuer } from '../sandbox';
import { PrismaService } from '../src/database/prisma.service';
import { createTenant, platformAuth, type TestTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';
import { itIf, NEEDS_POSTGRES } from './support/skip';

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

  const create = (name: string) => gateway.http.post('/v1/admin/tenants').set(platformAuth).send({ name });

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

    itIf(Boolean(process.env.DATABASE_URL), NEEDS_POSTGRES)(
      'taken between the check and the insert is answered 409 with the id of the tenant that has it',
      async () => {
        const name = `late-${run}`;
        const id = randomUUID();
        // A create of the same name by another replica: inserted, not yet committed, so the
        // gateway's check does not see it and its own insert waits on the unique index.
        const other = new Client({ connectionString: process.env.DATABASE_URL });
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
