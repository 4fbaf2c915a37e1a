import { PrismaService } from '../../src/database/prisma.service';
import { bearer, createTenant } from '../support/fixtures';
import { startGateway, TestGateway } from '../support/gateway';
import { describeIf, NEEDS_POSTGRES } from '../support/skip';
import { CuttableProxy } from '../support/tcp-proxy';

const databaseUrl = process.env.DATABASE_URL;
// Taking the database away needs a real server behind a proxy; the embedded one lives in process.
const describeWithPostgres = describeIf(databaseUrl !== undefined && databaseUrl !== '', NEEDS_POSTGRES);

describeWithPostgres('database outage (e2e)', () => {
  let proxy: CuttableProxy;
  let gateway: TestGateway;

  beforeAll(async () => {
    const url = new URL(databaseUrl!);
    proxy = await CuttableProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    gateway = await startGateway({ DATABASE_URL: url.toString() });
  });
  afterAll(async () => {
    await gateway.close();
    await proxy.close();
  });

  it('answers 503 while the database is gone, writes nothing partial, and recovers without a restart', async () => {
    const tenant = await createTenant(gateway);
    const prisma = gateway.app.get(PrismaService);
    const keysBefore = await prisma.gatewayKey.count({ where: { tenantId: tenant.id } });
    const eventsBefore = await prisma.auditEvent.count({ where: { tenantId: tenant.id } });

    proxy.cut();
    // Cached keys still authenticate; every write needs the database and must fail cleanly.
    const writes = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        gateway.http
          .post('/v1/keys')
          .set(bearer(tenant.keys.admin))
          .send({ name: `during-outage-${i}`, roles: ['viewer'] }),
      ),
    );
    for (const response of writes) {
      expect(response.status).toBe(503);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(response.body.type).toMatch(/database-unavailable$/);
    }
    await gateway.http.get('/health/ready').expect(503);
    await gateway.http.get('/health/live').expect(200);

    proxy.restore();
    let ready = 0;
    for (let i = 0; i < 50 && ready !== 200; i++) {
      ready = (await gateway.http.get('/health/ready')).status;
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(ready).toBe(200);
    await gateway.http
      .post('/v1/keys')
      .set(bearer(tenant.keys.admin))
      .send({ name: 'after-outage', roles: ['viewer'] })
      .expect(201);

    // Exactly one new key and its audit event: nothing from the failed attempts.
    expect(await prisma.gatewayKey.count({ where: { tenantId: tenant.id } })).toBe(keysBefore + 1);
    expect(await prisma.auditEvent.count({ where: { tenantId: tenant.id } })).toBe(eventsBefore + 1);
    const verify = await gateway.http.get('/v1/audit/verify').set(bearer(tenant.keys.auditor));
    if (verify.status === 200) expect(verify.body.ok).toBe(true);
  });
});
