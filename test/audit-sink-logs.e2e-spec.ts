/**
 * The audit sinks' log lines: retries with their pauses, the lag warning and its rate limit, and
 * no secret in any line. One gateway, the file's first: log lines outside a request reach only it.
 */
import { randomUUID } from 'node:crypto';
import { Collector, QUICK, waitFor, WEBHOOK_SECRET } from './support/audit-sink-receivers';
import { bearer, createTenant } from './support/fixtures';
import { startGateway, TestGateway } from './support/gateway';

describe('audit sink log lines', () => {
  const collector = new Collector();
  const token = `query-token-${randomUUID()}`;
  let url: string;
  let gateway: TestGateway;

  beforeAll(async () => {
    url = await collector.listen();
    // Refused long enough to fall behind AUDIT_SINK_LAG_WARN_SECONDS, then taken.
    collector.answers.push(503, 500, 429);
    gateway = await startGateway({
      ...QUICK,
      AUDIT_SINK_RETRY_MIN_MS: '300',
      AUDIT_SINK_RETRY_MAX_MS: '1200',
      AUDIT_SINK_LAG_WARN_SECONDS: '1',
      AUDIT_WEBHOOK_URL: `http://ingest:pass-${token}@127.0.0.1:${new URL(url).port}/ingest?token=${token}`,
      AUDIT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await collector.close();
  });

  it('say why each delivery failed and when it is retried, warn once when behind, and name no secret', async () => {
    const canary = `canary-secret-${randomUUID()}`;
    const tenant = await createTenant(gateway);
    await gateway.http
      .post('/v1/credentials')
      .set(bearer(tenant.keys.admin))
      .send({ kind: 'secret', name: 'canary', value: canary })
      .expect(201);
    await waitFor('a delivery after the refusals', () =>
      gateway.logs.entries().some((entry) => entry.msg === 'audit sink delivering again'),
    );

    const address = `http://127.0.0.1:${new URL(url).port}/ingest`;
    const entries = gateway.logs.entries();
    const retries = entries.filter((entry) => entry.msg === 'audit sink delivery failed; retrying');
    expect(retries.map((entry) => [entry.sink, entry.address, entry.retryInMs, entry.error])).toEqual([
      ['webhook', address, 300, 'the webhook receiver answered HTTP 503'],
      ['webhook', address, 600, 'the webhook receiver answered HTTP 500'],
      ['webhook', address, 1200, 'the webhook receiver answered HTTP 429'],
    ]);
    const warnings = entries.filter((entry) => entry.msg === 'audit sink is falling behind');
    // At most once a minute, however often the lag is checked meanwhile.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      sink: 'webhook',
      address,
      lastError: expect.stringMatching(/^the webhook receiver answered HTTP (503|500|429)$/),
    });
    expect(warnings[0].eventsBehind).toBeGreaterThan(0);
    expect(warnings[0].secondsBehind).toBeGreaterThanOrEqual(1);
    expect(entries.filter((entry) => entry.msg === 'audit sink delivering again')).toHaveLength(1);

    for (const secret of [WEBHOOK_SECRET, token, canary]) expect(gateway.logs.text()).not.toContain(secret);
  });
});
