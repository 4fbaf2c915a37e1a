import { Client } from 'pg';
import type { DatabaseConnection } from '../../src/database/database-connection';
import { DATABASE_CONNECTION } from '../../src/database/database.tokens';
import { PrismaService } from '../../src/database/prisma.service';
import { bearer, createTenant, type TestTenant } from '../support/fixtures';
import { startGateway, TestGateway } from '../support/gateway';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database';
import { describeIf, NEEDS_POSTGRES, postgresConfigured, postgresUrl } from '../support/skip';
import { CuttableProxy } from '../support/tcp-proxy';

const databaseUrl = postgresUrl();
const adminUrl = process.env.TEST_ADMIN_DATABASE_URL;
// Taking the database away needs a real server (behind a proxy, or one the test may alter and
// drop); the embedded one lives in the process.
const describeWithPostgres = describeIf(postgresConfigured() && Boolean(adminUrl), NEEDS_POSTGRES);

// Short, so that a statement the database never answers fails fast in these tests.
const QUERY_TIMEOUT_MS = 1_500;

type Answer = { status: number; headers: Record<string, string>; body: { type?: string } };

function expectUnavailable(response: Answer): void {
  expect({ status: response.status, type: response.body.type }).toEqual({
    status: 503,
    type: expect.stringMatching(/database-unavailable$/),
  });
  expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

/** Runs `work` on a session of its own on the database at `url` (the server's admin one by default). */
async function session<T>(work: (client: Client) => Promise<T>, url = adminUrl): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  for (let i = 0; i < timeoutMs / 50; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeWithPostgres('database outage (e2e)', () => {
  describe('behind a proxy that is cut or frozen', () => {
    let proxy: CuttableProxy;
    let gateway: TestGateway;

    beforeAll(async () => {
      const url = new URL(databaseUrl!);
      proxy = await CuttableProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      gateway = await startGateway({
        DATABASE_URL: url.toString(),
        DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
      });
    });
    afterAll(async () => {
      await gateway.close();
      await proxy.close();
    });

    const issueKey = (tenant: TestTenant, name: string) =>
      gateway.http
        .post('/v1/keys')
        .set(bearer(tenant.keys.admin))
        .send({ name, roles: ['viewer'] });

    async function recovered(): Promise<void> {
      let ready = 0;
      for (let i = 0; i < 50 && ready !== 200; i++) {
        ready = (await gateway.http.get('/health/ready')).status;
        if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(ready).toBe(200);
    }

    it('answers 503 while the database is gone, writes nothing partial, and recovers without a restart', async () => {
      const tenant = await createTenant(gateway);
      const prisma = gateway.app.get(PrismaService);
      const keysBefore = await prisma.gatewayKey.count({ where: { tenantId: tenant.id } });
      const eventsBefore = await prisma.auditEvent.count({ where: { tenantId: tenant.id } });

      proxy.cut();
      // Cached keys still authenticate; every write needs the database and must fail cleanly.
      const writes = await Promise.all(
        Array.from({ length: 5 }, (_, i) => issueKey(tenant, `during-outage-${i}`)),
      );
      for (const response of writes) expectUnavailable(response);
      await gateway.http.get('/health/ready').expect(503);
      await gateway.http.get('/health/live').expect(200);

      proxy.restore();
      await recovered();
      await issueKey(tenant, 'after-outage').expect(201);

      // Exactly one new key and its audit event: nothing from the failed attempts.
      expect(await prisma.gatewayKey.count({ where: { tenantId: tenant.id } })).toBe(keysBefore + 1);
      expect(await prisma.auditEvent.count({ where: { tenantId: tenant.id } })).toBe(eventsBefore + 1);
      const verify = await gateway.http.get('/v1/audit/verify').set(bearer(tenant.keys.auditor)).expect(200);
      expect(verify.body.ok).toBe(true);
    });

    it('answers 503 when the connection is lost in the middle of a statement', async () => {
      const tenant = await createTenant(gateway);
      await session(async (client) => {
        // The tenant's chain row held elsewhere: the key's audit append waits on it, mid-statement.
        await client.query('BEGIN');
        await client.query('SELECT 1 FROM audit_chains WHERE tenant_id = $1 FOR UPDATE', [tenant.id]);
        const pending = issueKey(tenant, 'cut-mid-statement').then((response) => response);
        await until(() => waitingOnLock(client), 'the append to wait on the chain row');
        proxy.cut();
        expectUnavailable(await pending);
        await client.query('ROLLBACK');
      }, databaseUrl);
      proxy.restore();
      await recovered();
    });

    it('answers 503 within a bounded time when the database stops answering without closing anything', async () => {
      const tenant = await createTenant(gateway);
      proxy.freeze();
      try {
        const started = Date.now();
        const writes = await Promise.all([issueKey(tenant, 'frozen-1'), issueKey(tenant, 'frozen-2')]);
        for (const response of writes) expectUnavailable(response);
        // A pooled connection gives up after the query timeout (plus a second's grace), a new one
        // after the 5 s connect timeout.
        expect(Date.now() - started).toBeLessThan(8_000);
      } finally {
        proxy.restore();
      }
      await recovered();
      await issueKey(tenant, 'after-freeze').expect(201);
    });
  });

  describe('on a database of its own', () => {
    let scratch: ScratchDatabase;
    let gateway: TestGateway;
    let tenant: TestTenant;
    let name: string;

    beforeEach(async () => {
      scratch = await createScratchDatabase();
      name = new URL(scratch.env.DATABASE_URL).pathname.slice(1);
      gateway = await startGateway({ ...scratch.env, DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) });
      tenant = await createTenant(gateway);
    });
    afterEach(async () => {
      await session((client) => client.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`)).catch(
        () => undefined,
      );
      await gateway.close();
      await scratch.drop();
    });

    const issueKey = (label: string) =>
      gateway.http
        .post('/v1/keys')
        .set(bearer(tenant.keys.admin))
        .send({ name: label, roles: ['viewer'] });
    const terminateSessions = (client: Client) =>
      client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);

    it('answers 503 while the database refuses connections (55000), and recovers', async () => {
      await session(async (client) => {
        await client.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
        await terminateSessions(client);
      });
      for (let i = 0; i < 3; i++) expectUnavailable(await issueKey(`refused-${i}`));
      await gateway.http.get('/health/ready').expect(503);

      await session((client) => client.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`));
      await issueKey('allowed again').expect(201);
    });

    it('answers 503 once the database was dropped (3D000)', async () => {
      await session((client) => client.query(`DROP DATABASE "${name}" WITH (FORCE)`));
      const started = Date.now();
      for (let i = 0; i < 3; i++) expectUnavailable(await issueKey(`dropped-${i}`));
      await gateway.http.get('/health/ready').expect(503);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('answers 503 when an administrator ends its session mid-statement (57P01)', async () => {
      await session(async (client) => {
        await client.query('BEGIN');
        await client.query('SELECT 1 FROM audit_chains WHERE tenant_id = $1 FOR UPDATE', [tenant.id]);
        const pending = issueKey('terminated').then((response) => response);
        await until(() => waitingOnLock(client), 'the append to wait on the chain row');
        await client.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = $1 AND wait_event_type = 'Lock'`,
          [name],
        );
        expectUnavailable(await pending);
        await client.query('ROLLBACK');
      }, scratch.env.DATABASE_URL);
      await issueKey('after termination').expect(201);
    });

    it('answers 503 when a statement runs past DATABASE_QUERY_TIMEOUT_MS', async () => {
      await session(async (client) => {
        await client.query('BEGIN');
        await client.query('SELECT 1 FROM audit_chains WHERE tenant_id = $1 FOR UPDATE', [tenant.id]);
        const started = Date.now();
        expectUnavailable(await issueKey('waits too long'));
        expect(Date.now() - started).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS - 100);
        expect(Date.now() - started).toBeLessThan(QUERY_TIMEOUT_MS + 2_000);
        await client.query('ROLLBACK');
      }, scratch.env.DATABASE_URL);
      await issueKey('after the timeout').expect(201);
    });

    it("holds one connection for a tenant's writes stuck on its chain, answers 503 to those that wait too long, and serves the others", async () => {
      // Statements may wait longer than a write waits for its turn, here.
      await gateway.close();
      gateway = await startGateway({ ...scratch.env, DATABASE_QUERY_TIMEOUT_MS: '20000' });
      const other = await createTenant(gateway);
      await session(async (client) => {
        await client.query('BEGIN');
        await client.query('SELECT 1 FROM audit_chains WHERE tenant_id = $1 FOR UPDATE', [tenant.id]);
        // The first writer takes a connection and waits on the chain row; the other thirteen wait
        // for their turn in the process, holding none, and give up after 5 s.
        const started = Date.now();
        const answeredAfterMs: number[] = [];
        const writes = Array.from({ length: 14 }, (_, i) =>
          issueKey(`queued-${i}`).then((response) => {
            answeredAfterMs.push(Date.now() - started);
            return response;
          }),
        );
        await until(() => waitingOnLock(client), 'the first write to wait on the chain row');
        const pool = () => gateway.app.get<DatabaseConnection>(DATABASE_CONNECTION).poolStats()!;
        expect(pool().waiting).toBe(0);
        await gateway.http
          .post('/v1/keys')
          .set(bearer(other.keys.admin))
          .send({ name: 'meanwhile', roles: ['viewer'] })
          .expect(201);
        await until(
          () => Promise.resolve(answeredAfterMs.length >= 13),
          'thirteen writers to give up',
          8_000,
        );
        expect(answeredAfterMs.every((ms) => ms < 7_000)).toBe(true);
        await client.query('ROLLBACK');
        const responses = await Promise.all(writes);
        expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
        const refused = responses.filter((response) => response.status !== 201);
        expect(refused).toHaveLength(13);
        for (const response of refused) expectUnavailable(response);
      }, scratch.env.DATABASE_URL);
      const verify = await gateway.http.get('/v1/audit/verify').set(bearer(tenant.keys.auditor)).expect(200);
      expect(verify.body.ok).toBe(true);
    });
  });
});

/** Whether a session other than `client`'s waits on a lock. */
async function waitingOnLock(client: Client): Promise<boolean> {
  const { rows } = await client.query<{ waiting: number }>(
    `SELECT count(*)::int AS waiting FROM pg_stat_activity
     WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
  );
  return rows[0].waiting > 0;
}
