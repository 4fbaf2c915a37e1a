/**
 * GET /v1/audit/sinks: a tenant's auditor sees whether the audit log reaches its sinks (failing,
 * how late, when it last delivered), never where a sink is or what failed there.
 */
import { randomUUID } from 'node:crypto';
import { Collector, QUICK, waitFor, WEBHOOK_SECRET } from './support/audit-sink-receivers';
import { bearer, createTenant, platformAuth } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';

describe("audit sinks as a tenant's auditor sees them (e2e)", () => {
  let collector: Collector;
  let gateway: TestGateway;
  const token = `query-token-${randomUUID()}`;

  beforeAll(async () => {
    collector = new Collector();
    const url = new URL(await collector.listen());
    // Refused until the test lets it through: the sink fails first.
    collector.answers.push(...Array<number>(1_000).fill(503));
    gateway = await startGateway({
      ...QUICK,
      AUDIT_WEBHOOK_URL: `http://ingest:pass-${token}@127.0.0.1:${url.port}/ingest?token=${token}`,
      AUDIT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await collector?.close();
  });

  it('says a failing sink fails, then that it delivers, without its address or errors', async () => {
    const tenant = await createTenant(gateway);
    const auditor = bearer(tenant.keys.auditor);
    const read = async () => (await gateway.http.get('/v1/audit/sinks').set(auditor).expect(200)).body;

    const failing = await waitFor('the sink to fail', async () => {
      const body = await read();
      return body.sinks[0]?.failing === true && body;
    });
    expect(failing.sinks).toEqual([
      {
        kind: 'webhook',
        secondsBehind: expect.any(Number),
        lastDeliveryAt: null,
        lastErrorAt: expect.any(String),
        failing: true,
      },
    ]);
    const text = JSON.stringify(failing);
    for (const hidden of ['127.0.0.1', 'ingest', token, '503']) expect(text).not.toContain(hidden);
    // The platform's view keeps the address and the error.
    const platform = await gateway.http.get('/v1/admin/audit-sinks').set(platformAuth).expect(200);
    expect(platform.body.sinks[0].lastError).toBe('the webhook receiver answered HTTP 503');

    collector.answers.length = 0;
    const delivering = await waitFor('the sink to deliver', async () => {
      const body = await read();
      return body.sinks[0]?.failing === false && body.sinks[0].lastDeliveryAt !== null && body;
    });
    expect(Date.parse(delivering.sinks[0].lastDeliveryAt)).toBeGreaterThan(
      Date.parse(delivering.sinks[0].lastErrorAt),
    );
  }, 60_000);

  it("is the auditors' only: other roles are refused", async () => {
    const tenant = await createTenant(gateway);
    for (const role of ['viewer', 'operator', 'admin'] as const) {
      await gateway.http.get('/v1/audit/sinks').set(bearer(tenant.keys[role])).expect(403);
    }
  });

  it('answers an empty list where no sink is configured', async () => {
    const plain = await startGateway({});
    try {
      const tenant = await createTenant(plain);
      const answer = await plain.http.get('/v1/audit/sinks').set(bearer(tenant.keys.auditor)).expect(200);
      expect(answer.body).toEqual({ sinks: [] });
    } finally {
      await plain.close();
    }
  });
});
