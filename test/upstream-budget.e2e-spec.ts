import { randomUUID } from 'node:crypto';
import { startDashboardsSimulator, startPipesSimulator } from '../sandbox';
import type { DashboardsSimulator, PipesSimulator } from '../sandbox';
import type { RateLimit } from '../sandbox/rate-limiter';
import { validCreateBody } from './fixtures/pipe-bodies';
import { openStream, type OpenStream } from './support/event-stream';
import {
  bearer,
  createTenant,
  platformAuth,
  storePipesCredential,
  type TestTenant,
} from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';

// The pipes API's own limit, held by the simulator and by the gateway alike.
const LIMIT: RateLimit = { limit: 10, windowMs: 10_000 };

interface Budgeted {
  gateway: TestGateway;
  pipes: PipesSimulator;
  dashboards: DashboardsSimulator;
  tenant: TestTenant;
  /** An organization of its own per test: its own simulator key, so its own budget on both sides. */
  organization(): Promise<string>;
  close(): Promise<void>;
}

/** The gateway and the pipes simulator, one tenant, and simulator keys for organizations of their own. */
async function startBudgeted(): Promise<Budgeted> {
  const keys = Array.from({ length: 4 }, () => ({
    keyId: `keyid-${randomUUID().slice(0, 8)}`,
    keySecret: randomUUID(),
  }));
  const pipes = await startPipesSimulator({ keys, rateLimit: LIMIT });
  const dashboards = await startDashboardsSimulator({ tokens: [randomUUID()] });
  const gateway = await startGateway({
    PIPES_API_URL: pipes.url,
    DASHBOARDS_API_URL: dashboards.url,
    PIPES_API_RATE_LIMIT: `${LIMIT.limit}/${LIMIT.windowMs}ms`,
    PIPE_READ_CACHE_MS: '2000',
    PIPE_STREAM_MAX_MS: '120000',
  });
  const tenant = await createTenant(gateway);
  return {
    gateway,
    pipes,
    dashboards,
    tenant,
    organization: async () => {
      const organizationId = randomUUID();
      await storePipesCredential(gateway, tenant, organizationId, keys.pop()!);
      return organizationId;
    },
    close: async () => {
      await gateway.close();
      await pipes.close();
      await dashboards.close();
    },
  };
}

/** The most calls of one organization (one key) the simulator received in any window of the limit. */
function busiestWindow(pipes: PipesSimulator, organizationId: string): number {
  const arrivals = pipes
    .requests()
    .filter((call) => call.path.startsWith(`/v1/organizations/${organizationId}/`))
    .map((call) => Date.parse(call.receivedAt));
  let most = 0;
  for (let first = 0, last = 0; last < arrivals.length; last++) {
    while (arrivals[last] - arrivals[first] >= LIMIT.windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** Reads of random pipe ids every `everyMs` until stopped; the answers' statuses and 429 bodies. */
function hammer(gateway: TestGateway, key: string, pipesPath: string, everyMs: number) {
  const answers: { status: number; detail?: string; retryAfter?: string }[] = [];
  const inFlight: Promise<void>[] = [];
  const timer = setInterval(() => {
    inFlight.push(
      gateway.http
        .get(`${pipesPath}/${randomUUID()}`)
        .set(bearer(key))
        .then((response) => {
          answers.push({
            status: response.status,
            detail: response.body?.detail,
            retryAfter: response.headers['retry-after'],
          });
        }),
    );
  }, everyMs);
  return {
    answers,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const READ_SHARE_SPENT =
  "Reads have spent their share of this credential's budget under the pipes API's rate limit; the rest is kept for writes";
const CALLER_SHARE_SPENT =
  "This caller has spent its share of the reads this credential's budget under the pipes API's rate limit allows; " +
  'the rest is kept for other callers';
// A read may also meet a window the writes and the other reads have filled between them.
const BUDGET_SPENT = "This credential has reached the pipes API's rate limit";

describe('the upstream budget under a low-role caller (e2e, the simulator holding the real limit)', () => {
  let world: Budgeted;
  const streams: OpenStream[] = [];
  beforeAll(async () => {
    world = await startBudgeted();
  }, 120_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await world.close();
  });

  it("keeps writes' share: an operator's 5 creates in 10 s succeed while a viewer hammers reads and streams", async () => {
    const organizationId = await world.organization();
    const service = (serviceId: string) => `/v1/organizations/${organizationId}/services/${serviceId}/pipes`;
    const viewer = bearer(world.tenant.keys.viewer);
    const services = Array.from({ length: 6 }, () => randomUUID());
    for (const serviceId of services) {
      const stream = await openStream(world.gateway.url, `${service(serviceId)}/events`, viewer);
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    // Reads of random ids at 13 a second, begun before the first write.
    const reads = hammer(world.gateway, world.tenant.keys.viewer, service(services[0]), 75);
    await sleep(1_000);
    const creates: number[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await world.gateway.http
        .post(service(services[i]))
        .set(bearer(world.tenant.keys.operator))
        .send({ ...validCreateBody('kafka'), name: `budget-${i}` });
      creates.push(created.status);
      await sleep(1_900);
    }
    await reads.stop();
    for (const stream of streams.splice(0)) stream.close();

    expect(creates).toEqual([200, 200, 200, 200, 200]);
    // The viewer was refused, saying why and when to come back, and some of its reads were made.
    expect(reads.answers.some((answer) => answer.status === 404)).toBe(true);
    const refused = reads.answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect([READ_SHARE_SPENT, CALLER_SHARE_SPENT, BUDGET_SPENT]).toContain(
        answer.detail?.replace(/; retry after \d+ s\.$/, ''),
      );
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Counted where the limit is: the simulator never received more than 10 calls in any 10 s.
    expect(world.pipes.requests().filter((call) => call.method === 'POST')).toHaveLength(5);
    expect(busiestWindow(world.pipes, organizationId)).toBeLessThanOrEqual(LIMIT.limit);
  }, 90_000);

  it("shares reads between two viewers: one hammering cannot take the other's share", async () => {
    const organizationId = await world.organization();
    const pipesPath = `/v1/organizations/${organizationId}/services/${randomUUID()}/pipes`;
    const second = await world.gateway.http
      .post(`/v1/admin/tenants/${world.tenant.id}/keys`)
      .set(platformAuth)
      .send({ name: 'second-viewer', roles: ['viewer'] })
      .expect(201);
    const first = hammer(world.gateway, world.tenant.keys.viewer, pipesPath, 60);
    const quiet: number[] = [];
    try {
      await sleep(1_000);
      // Once a window, the other viewer finds its share kept for it.
      for (let i = 0; i < 2; i++) {
        const read = await world.gateway.http
          .get(`${pipesPath}/${randomUUID()}`)
          .set(bearer(second.body.key));
        quiet.push(read.status);
        if (i === 0) await sleep(LIMIT.windowMs + 1_000);
      }
    } finally {
      await first.stop();
    }
    expect(quiet).toEqual([404, 404]);
    // The hammering viewer had reads made, and was refused past its own share.
    expect(first.answers.filter((answer) => answer.status === 404).length).toBeGreaterThanOrEqual(4);
    const refused = first.answers.filter((answer) => answer.status === 429);
    expect(refused.some((answer) => answer.detail?.startsWith(CALLER_SHARE_SPENT))).toBe(true);
    expect(busiestWindow(world.pipes, organizationId)).toBeLessThanOrEqual(LIMIT.limit);
  }, 90_000);

  it('answers a pipe id the upstream did not know from the cache, until a write to its service', async () => {
    const organizationId = await world.organization();
    const pipesPath = `/v1/organizations/${organizationId}/services/${randomUUID()}/pipes`;
    const pipeId = randomUUID();
    const viewer = bearer(world.tenant.keys.viewer);
    const calls = () => world.pipes.requests().filter((call) => call.path.endsWith(`/${pipeId}`));
    const first = await world.gateway.http.get(`${pipesPath}/${pipeId}`).set(viewer).expect(404);
    const again = await world.gateway.http.get(`${pipesPath}/${pipeId}`).set(viewer).expect(404);
    expect(again.body.type).toBe(first.body.type);
    expect(again.body.upstream).toEqual(first.body.upstream);
    expect(calls()).toHaveLength(1);

    await world.gateway.http
      .post(pipesPath)
      .set(bearer(world.tenant.keys.operator))
      .send({ ...validCreateBody('kafka'), name: 'drops-the-cache' })
      .expect(200);
    await world.gateway.http.get(`${pipesPath}/${pipeId}`).set(viewer).expect(404);
    expect(calls()).toHaveLength(2);
  }, 60_000);
});
