import { randomUUID } from 'node:crypto';
import { validDashboardBody } from './fixtures/dashboard-bodies';
import { validCreateBody } from './fixtures/pipe-bodies';
import { LARGE_BODY_FRAME } from '../sandbox';
import { bearer } from './support/fixtures';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';

const MiB = 1024 * 1024;

/** Upstream answers the gateway cannot use: too large to read, or a success with a useless body. */
describe('upstream answers that cannot be used (e2e)', () => {
  let world: UpstreamWorld;
  let dashboardId: string;
  const timeoutMs = 10_000;

  const settingsPath = () =>
    `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes/${randomUUID()}/settings`;
  const createPath = () => `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`;
  const as = (role: 'operator' | 'viewer' | 'auditor') => bearer(world.tenant.keys[role]);

  beforeAll(async () => {
    world = await startUpstreamWorld({ UPSTREAM_TIMEOUT_MS: String(timeoutMs) });
    dashboardId = world.dashboards.seedDashboard({ name: 'ops', tiles: [], tags: [] }).id;
  });
  afterAll(async () => {
    await world.close();
  });
  beforeEach(() => {
    world.pipes.faults.clear();
    world.dashboards.faults.clear();
  });

  describe('over UPSTREAM_MAX_ANSWER_BYTES (4 MiB by default)', () => {
    /** The largest resident set seen while `work` runs, above the one before it. */
    async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number; ms: number }> {
      const before = process.memoryUsage.rss();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
      const started = Date.now();
      try {
        const result = await work();
        return {
          result,
          growth: Math.max(peak, process.memoryUsage.rss()) - before,
          ms: Date.now() - started,
        };
      } finally {
        clearInterval(sampler);
      }
    }

    it.each([
      ['streamed without a length', false],
      ['announced by its Content-Length', true],
    ])(
      'answers a 600 MB answer %s with a prompt 502 that names the limit, memory flat',
      async (_how, announce) => {
        world.pipes.faults.add({ kind: 'largeBody', bytes: 600_000_000, announce, times: 1 });
        const {
          result: response,
          growth,
          ms,
        } = await peakGrowth(() =>
          world.gateway.http
            .get(settingsPath())
            .set(as('viewer'))
            .set('X-Request-Id', `huge-${String(announce)}`),
        );
        expect([response.status, response.body.type]).toEqual([
          502,
          expect.stringMatching(/upstream-answer-too-large$/),
        ]);
        expect(response.body.detail).toMatch(/more than 4194304 bytes \(UPSTREAM_MAX_ANSWER_BYTES\)/);
        // Long before the deadline, and without the answer ever being held.
        expect(ms).toBeLessThan(timeoutMs / 2);
        expect(growth).toBeLessThan(64 * MiB);
        // Not retried: the same answer would come again.
        expect(
          world.pipes
            .requests()
            .filter((request) => request.headers['x-request-id'] === `huge-${String(announce)}`),
        ).toHaveLength(1);
      },
    );

    it('stays flat over repeated huge answers and keeps serving', async () => {
      world.dashboards.faults.add({ kind: 'largeBody', bytes: 200_000_000, times: 5 });
      const { growth } = await peakGrowth(async () => {
        for (let i = 0; i < 5; i++) {
          await world.gateway.http.get(`/v1/dashboards/${dashboardId}`).set(as('viewer')).expect(502);
        }
      });
      expect(growth).toBeLessThan(64 * MiB);
      await world.gateway.http.get(`/v1/dashboards/${dashboardId}`).set(as('viewer')).expect(200);
    });

    it('takes an answer just under the cap', async () => {
      world.pipes.faults.add({ kind: 'largeBody', bytes: 4 * MiB, times: 1 });
      const response = await world.gateway.http.get(settingsPath()).set(as('viewer')).expect(200);
      expect(response.body.pad).toHaveLength(4 * MiB - LARGE_BODY_FRAME.length);
    });
  });

  describe('a success whose body is unusable', () => {
    const auditEvent = async (action: string, requestId: string) => {
      const page = await world.gateway.http
        .get('/v1/audit')
        .query({ action, outcome: 'failed', limit: '200' })
        .set(as('auditor'))
        .expect(200);
      return (page.body.items as { requestId: string }[]).find((item) => item.requestId === requestId);
    };

    it('records a pipe create answered 200 null as failed upstream-invalid-answer, in history and audit', async () => {
      world.pipes.faults.add({ kind: 'status', status: 200, body: null, method: 'POST', times: 1 });
      const response = await world.gateway.http
        .post(createPath())
        .set(as('operator'))
        .set('X-Request-Id', 'invalid-create-1')
        .send(validCreateBody('kafka'))
        .expect(502);
      expect(response.body).toMatchObject({
        type: expect.stringMatching(/upstream-invalid-answer$/),
        status: 502,
        upstream: { status: 200, body: null },
        detail: expect.stringMatching(
          /answered 200 without a JSON object; check upstream whether the change was made/,
        ),
      });

      const history = await world.gateway.http
        .get('/v1/history/pipe-specs')
        .query({ outcome: 'failed', limit: '200' })
        .set(as('auditor'))
        .expect(200);
      const entry = (history.body.items as { requestId: string }[]).find(
        (item) => item.requestId === 'invalid-create-1',
      );
      expect(entry).toMatchObject({
        outcome: 'failed',
        upstreamStatus: 200,
        error: { status: 502, type: expect.stringMatching(/upstream-invalid-answer$/) },
      });
      expect(await auditEvent('pipe.create', 'invalid-create-1')).toMatchObject({
        outcome: 'failed',
        httpStatus: 502,
        details: { problem: 'upstream-invalid-answer', upstreamStatus: 200 },
      });
    });

    /** A dashboard read the dashboards API answers 200 with `body`: a 502 whose detail says what was missing. */
    const expectInvalidDashboardRead = async (body: unknown, missing: string) => {
      world.dashboards.faults.add({ kind: 'status', status: 200, body, method: 'GET', times: 1 });
      const response = await world.gateway.http
        .get(`/v1/dashboards/${dashboardId}`)
        .set(as('viewer'))
        .expect(502);
      expect(response.body).toMatchObject({
        type: expect.stringMatching(/upstream-invalid-answer$/),
        upstream: { status: 200 },
        detail: expect.stringContaining(missing),
      });
    };

    it('answers a read whose JSON nests 20,000 levels deep with 502 upstream-invalid-answer, and keeps serving', async () => {
      const levels = 20_000;
      const deep = `{"data":${'{"a":'.repeat(levels)}1${'}'.repeat(levels + 1)}`;
      await expectInvalidDashboardRead(deep, 'without a JSON body nested at most 1000 levels deep');

      // An error answer as deep keeps its own problem type; its body is described, not quoted.
      world.pipes.faults.add({ kind: 'status', status: 500, body: deep, times: 3 });
      const failed = await world.gateway.http.get(settingsPath()).set(as('viewer')).expect(502);
      expect(failed.body).toMatchObject({
        type: expect.stringMatching(/upstream-error$/),
        upstream: { status: 500, body: '(JSON nested more than 1000 levels deep: not shown)' },
      });
      await world.gateway.http.get(`/v1/dashboards/${dashboardId}`).set(as('viewer')).expect(200);
    });

    it('answers a dashboard read answered 200 {} with 502 upstream-invalid-answer', async () => {
      await expectInvalidDashboardRead({}, 'an object in "data"');
    });

    it('records a dashboard replace answered 200 {} as failed, keeping no version', async () => {
      const versions = async () =>
        (await world.gateway.http.get(`/v1/dashboards/${dashboardId}/versions`).set(as('viewer')).expect(200))
          .body.items.length as number;
      const before = await versions();
      world.dashboards.faults.add({ kind: 'status', status: 200, body: {}, method: 'PUT', times: 1 });
      await world.gateway.http
        .put(`/v1/dashboards/${dashboardId}`)
        .set(as('operator'))
        .set('X-Request-Id', 'invalid-replace-1')
        .send(validDashboardBody())
        .expect(502);
      expect(await auditEvent('dashboard.replace', 'invalid-replace-1')).toMatchObject({
        httpStatus: 502,
        details: { problem: 'upstream-invalid-answer', upstreamStatus: 200 },
      });
      expect(await versions()).toBe(before);
    });
  });
});
