/**
 * The pipe event stream over real HTTP: the gateway's own writes at once, changes made elsewhere
 * found by the poller, resumes, limits, the credential checked while the stream is open, and a
 * slow reader dropped. One replica on Postgres (LISTEN/NOTIFY), one on the embedded database
 * (in-process), and two replicas sharing Redis.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from 'pg';
import { pollerLockOf } from '../src/pipe-events/event-bus';
import { streamKeyOf } from '../src/pipe-events/pipe-event';
import { PipeEvents } from '../src/pipe-events/pipe-events.service';
import { validCreateBody } from './fixtures/pipe-bodies';
import { startOidcIssuer, startPipesSimulator, type OidcIssuer, type PipesSimulator } from '../sandbox';
import {
  bearer,
  createTenant,
  platformAuth,
  type TestTenant,
  storePipesCredential,
} from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';
import { openStream, type OpenStream } from './support/event-stream';
import { itWithRedis, itWithRedisAndPostgres, TEST_REDIS_URL } from './support/redis';
import { itWithPostgres, postgresUrl } from './support/skip';

const POLL = { PIPE_EVENTS_POLL_MS: '500', PIPE_STREAM_MAX_MS: '3600000' };

interface Setup {
  tenant: TestTenant;
  organizationId: string;
  serviceId: string;
}

/** A tenant with a pipes credential for a new organization, on `gateway`. */
async function setUp(gateway: TestGateway, pipesKey: { keyId: string; keySecret: string }): Promise<Setup> {
  const tenant = await createTenant(gateway);
  const organizationId = randomUUID();
  await storePipesCredential(gateway, tenant, organizationId, pipesKey);
  return { tenant, organizationId, serviceId: randomUUID() };
}

const pipesPath = (setup: Setup, suffix = '') =>
  `/v1/organizations/${setup.organizationId}/services/${setup.serviceId}/pipes${suffix}`;

async function createPipe(gateway: TestGateway, setup: Setup): Promise<string> {
  const body = validCreateBody('kafka', {}) as Record<string, unknown>;
  const created = await gateway.http
    .post(pipesPath(setup))
    .set(bearer(setup.tenant.keys.operator))
    .send({ ...body, name: `live-${randomUUID().slice(0, 8)}` })
    .expect(200);
  return created.body.result.id as string;
}

/** The events `gateway` keeps for resumes, as its metrics say. */
async function eventsKept(gateway: TestGateway): Promise<number> {
  const metrics = await gateway.http.get('/metrics').expect(200);
  return Number(/^gateway_pipe_events_kept (\d+)$/m.exec(metrics.text)![1]);
}

/** The bytes of the events `gateway` keeps for resumes, as its metrics say. */
async function eventBytesKept(gateway: TestGateway): Promise<number> {
  const metrics = await gateway.http.get('/metrics').expect(200);
  return Number(/^gateway_pipe_events_kept_bytes (\d+)$/m.exec(metrics.text)![1]);
}

/** The bytes the Redis bus keeps of a service's recent events, summed from the list itself. */
async function recentBytesInRedis(streamKey: string): Promise<number> {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(TEST_REDIS_URL);
  try {
    const kept = await redis.lrange(`pipes-gateway:pipe-events-recent:${streamKey}`, 0, -1);
    return kept.reduce((sum, event) => sum + Buffer.byteLength(event), 0);
  } finally {
    redis.disconnect();
  }
}

/**
 * Two replicas on Redis, and a pipe created through `a` while a viewer followed its service there:
 * the reader's last event is that `pipe.created`, and `b` has kept nothing of the service.
 */
async function pipeCreatedOnFirstReplica(
  env: Record<string, string>,
  pipesKey: { keyId: string; keySecret: string },
) {
  const [a, b] = [await startGateway(env), await startGateway(env)];
  const setup = await setUp(a, pipesKey);
  const path = pipesPath(setup, '/events');
  const viewer = bearer(setup.tenant.keys.viewer);
  const onA = await openStream(a.url, path, viewer);
  const pipeId = await createPipe(a, setup);
  const created = await onA.next((event) => event.event === 'pipe.created');
  onA.close();
  return { a, b, setup, path, viewer, pipeId, created };
}

function newKey(): { keyId: string; keySecret: string } {
  return { keyId: `keyid-${randomUUID().slice(0, 8)}`, keySecret: `secret-${randomUUID()}` };
}

describe('pipe event stream, one replica on Postgres (e2e)', () => {
  let pipes: PipesSimulator;
  let gateway: TestGateway;
  let setup: Setup;
  const streams: OpenStream[] = [];
  const pipesKey = newKey();
  const open = async (headers: Record<string, string>, suffix = '/events') => {
    const stream = await openStream(gateway.url, pipesPath(setup, suffix), headers);
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    pipes = await startPipesSimulator({
      keys: [pipesKey],
      stateDelaysMs: { provisioning: 300, stopping: 300 },
    });
    gateway = await startGateway({
      PIPES_API_URL: pipes.url,
      ...POLL,
      PIPE_STREAMS_PER_KEY: '3',
      PIPE_STREAMS_PER_TENANT: '5',
      PIPE_STREAM_RECHECK_MS: '1000',
      PIPE_STREAM_HEARTBEAT_MS: '1000',
      PIPE_STREAM_MAX_BUFFER_BYTES: '65536',
    });
    setup = await setUp(gateway, pipesKey);
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });
  afterAll(async () => {
    await gateway.close();
    await pipes.close();
  });

  itWithPostgres('fans out through Postgres LISTEN/NOTIFY when no Redis is configured', () => {
    expect(gateway.app.get(PipeEvents).busKind).toBe('postgres');
    return Promise.resolve();
  });

  it("pushes the gateway's own writes at once and the states the pipe then passes through", async () => {
    const stream = await open(bearer(setup.tenant.keys.viewer));
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const pipeId = await createPipe(gateway, setup);
    const created = await stream.next((event) => event.event === 'pipe.created');
    expect(created.data).toMatchObject({ pipeId, source: 'gateway', pipe: { id: pipeId } });
    expect(created.id).toMatch(/^[0-9a-z-]+$/);
    const running = await stream.next(
      (event) => event.event === 'pipe.state' && event.data.pipe.state === 'Running',
    );
    expect(running.data).toMatchObject({ pipeId, source: 'upstream' });

    await gateway.http
      .patch(pipesPath(setup, `/${pipeId}/state`))
      .set(bearer(setup.tenant.keys.operator))
      .send({ command: 'stop' })
      .expect(200);
    const stopping = await stream.next((event) => event.event === 'pipe.state');
    expect(stopping.data).toMatchObject({ source: 'gateway', pipe: { state: 'Stopping' } });
    const stopped = await stream.next((event) => event.event === 'pipe.state');
    expect(stopped.data).toMatchObject({ source: 'upstream', pipe: { state: 'Stopped' } });

    // Made elsewhere (the provider's console): found by polling.
    pipes.setPipeState(pipeId, 'Failed');
    const failed = await stream.next((event) => event.event === 'pipe.state');
    expect(failed.data).toMatchObject({ source: 'upstream', pipe: { state: 'Failed' } });

    await gateway.http
      .patch(pipesPath(setup, `/${pipeId}/scaling`))
      .set(bearer(setup.tenant.keys.operator))
      .send({ replicas: 2 })
      .expect(200);
    expect((await stream.next((event) => event.event === 'pipe.scaling')).data.source).toBe('gateway');
    await gateway.http
      .delete(pipesPath(setup, `/${pipeId}`))
      .set(bearer(setup.tenant.keys.operator))
      .expect(200);
    expect((await stream.next((event) => event.event === 'pipe.deleted')).data).toEqual({
      pipeId,
      source: 'gateway',
    });
    // Each change once: the poller does not report the gateway's writes again.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const types = stream.events.filter((event) => event.data.pipeId === pipeId).map((event) => event.event);
    expect(types.filter((type) => type === 'pipe.deleted')).toHaveLength(1);
    expect(types.filter((type) => type === 'pipe.scaling')).toHaveLength(1);
    expect(stream.comments).toBeGreaterThan(0);
  });

  itWithPostgres(
    'reports a change made after a write the poller heard of before its first look',
    async () => {
      // Another session holds the service's poller lease, so this replica's first look comes only
      // after the pipe has moved on from what its create answered.
      const holder = new Client({ connectionString: gateway.config.database.url! });
      await holder.connect();
      try {
        const lock = pollerLockOf(
          streamKeyOf(setup.tenant.id, { organizationId: setup.organizationId, serviceId: setup.serviceId }),
        );
        await holder.query('SELECT pg_advisory_lock($1::bigint)', [lock]);
        const stream = await open(bearer(setup.tenant.keys.viewer));
        const pipeId = await createPipe(gateway, setup);
        await stream.next((event) => event.event === 'pipe.created');
        const stored = pipes.storedPipe(pipeId)!;
        while (pipes.stateOf(stored) !== 'Running') await new Promise((resolve) => setTimeout(resolve, 50));
        await holder.query('SELECT pg_advisory_unlock($1::bigint)', [lock]);
        const running = await stream.next(
          (event) => event.event === 'pipe.state' && event.data.pipeId === pipeId,
        );
        expect(running.data).toMatchObject({ source: 'upstream', pipe: { state: 'Running' } });
      } finally {
        await holder.end();
      }
    },
  );

  it('keeps events only of services someone reads', async () => {
    const unread = { ...setup, serviceId: randomUUID() };
    const before = await eventsKept(gateway);
    await createPipe(gateway, unread);
    await createPipe(gateway, unread);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsKept(gateway)).toBe(before);

    const read = { ...setup, serviceId: randomUUID() };
    const stream = await openStream(
      gateway.url,
      pipesPath(read, '/events'),
      bearer(setup.tenant.keys.viewer),
    );
    streams.push(stream);
    await createPipe(gateway, read);
    await stream.next((event) => event.event === 'pipe.created');
    expect(await eventsKept(gateway)).toBeGreaterThan(before);
  });

  it('filters by pipeId', async () => {
    const first = await createPipe(gateway, setup);
    const stream = await open(bearer(setup.tenant.keys.viewer), `/events?pipeId=${first}`);
    await createPipe(gateway, setup);
    await gateway.http
      .patch(pipesPath(setup, `/${first}`))
      .set(bearer(setup.tenant.keys.operator))
      .send({ name: 'renamed-live' })
      .expect(200);
    const updated = await stream.next((event) => event.event === 'pipe.updated');
    expect(updated.data.pipeId).toBe(first);
    expect(stream.events.every((event) => event.data.pipeId === first)).toBe(true);
    const bad = await open(bearer(setup.tenant.keys.viewer), '/events?pipeId=not-a-uuid');
    expect(bad.status).toBe(400);
  });

  it('resumes after Last-Event-ID, and says so when that event is no longer kept', async () => {
    const stream = await open(bearer(setup.tenant.keys.viewer));
    const pipeId = await createPipe(gateway, setup);
    const created = await stream.next(
      (event) => event.event === 'pipe.created' && event.data.pipeId === pipeId,
    );
    stream.close();
    await gateway.http
      .patch(pipesPath(setup, `/${pipeId}`))
      .set(bearer(setup.tenant.keys.operator))
      .send({ name: 'while-away' })
      .expect(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const resumed = await open({ ...bearer(setup.tenant.keys.viewer), 'Last-Event-ID': created.id! });
    const missed = await resumed.next((event) => event.data.pipeId === pipeId);
    expect(missed.event).not.toBe('pipe.created');
    expect(
      resumed.events.some((event) => event.event === 'pipe.updated' && event.data.pipe.name === 'while-away'),
    ).toBe(true);
    const unknown = await open({ ...bearer(setup.tenant.keys.viewer), 'Last-Event-ID': 'zzzz-0-0' });
    expect((await unknown.next()).event).toBe('stream.reset');
    const bad = await open({ ...bearer(setup.tenant.keys.viewer), 'Last-Event-ID': 'Bad Id!' });
    expect(bad.status).toBe(400);
  });

  it('reports a change made upstream while nobody read to a reader resuming after its poller stopped', async () => {
    const stream = await open(bearer(setup.tenant.keys.viewer));
    const pipeId = await createPipe(gateway, setup);
    const running = await stream.next(
      (event) =>
        event.event === 'pipe.state' && event.data.pipeId === pipeId && event.data.pipe.state === 'Running',
    );
    stream.close();
    // Nobody reads: two turns later the poller stops, and lists the service no more.
    const listCalls = () =>
      pipes
        .requests()
        .filter((sent) => sent.method === 'GET' && sent.path.endsWith(`/services/${setup.serviceId}/pipes`))
        .length;
    let calls = listCalls();
    for (let quietSince = Date.now(); Date.now() - quietSince < 1_500;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (listCalls() !== calls) [calls, quietSince] = [listCalls(), Date.now()];
    }

    pipes.setPipeState(pipeId, 'Failed');
    const resumed = await open({ ...bearer(setup.tenant.keys.viewer), 'Last-Event-ID': running.id! });
    const failed = await resumed.next(
      (event) => event.event === 'pipe.state' && event.data.pipeId === pipeId,
    );
    expect(failed.data).toMatchObject({ source: 'upstream', pipe: { state: 'Failed' } });
  });

  it('refuses a caller without the viewer role, and one without a credential', async () => {
    const auditor = await open(bearer(setup.tenant.keys.auditor));
    expect(auditor.status).toBe(403);
    expect(auditor.headers['content-type']).toContain('application/problem+json');
    expect((await open({})).status).toBe(401);
  });

  it('opens at most PIPE_STREAMS_PER_KEY per key and PIPE_STREAMS_PER_TENANT per tenant: 429 beyond', async () => {
    for (let index = 0; index < 3; index++)
      expect((await open(bearer(setup.tenant.keys.viewer))).status).toBe(200);
    const refused = await open(bearer(setup.tenant.keys.viewer));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(JSON.parse(refused.text())).toMatchObject({
      status: 429,
      detail: expect.stringContaining('3 event streams'),
    });
    for (let index = 0; index < 2; index++)
      expect((await open(bearer(setup.tenant.keys.operator))).status).toBe(200);
    const tenantFull = await open(bearer(setup.tenant.keys.admin));
    expect(tenantFull.status).toBe(429);
    expect(JSON.parse(tenantFull.text()).detail).toContain('This tenant has 5 event streams open');
    // A closed stream gives its place back.
    streams[0].close();
    await streams[0].ended;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await open(bearer(setup.tenant.keys.admin))).status).toBe(200);
  });

  it('ends a stream at PIPE_STREAM_MAX_MS, for the reader to reconnect', async () => {
    const short = await startGateway({ PIPES_API_URL: pipes.url, PIPE_STREAM_MAX_MS: '300' });
    try {
      const other = await setUp(short, pipesKey);
      const stream = await openStream(
        short.url,
        pipesPath(other, '/events'),
        bearer(other.tenant.keys.viewer),
      );
      expect((await stream.next()).data).toEqual({ reason: 'lifetime' });
      await stream.ended;
    } finally {
      await short.close();
    }
  });

  it('ends the stream of a key revoked while it is open', async () => {
    const issued = await gateway.http
      .post(`/v1/admin/tenants/${setup.tenant.id}/keys`)
      .set(platformAuth)
      .send({ name: 'short-lived', roles: ['viewer'] })
      .expect(201);
    const stream = await open(bearer(issued.body.key));
    expect(stream.status).toBe(200);
    await gateway.http.delete(`/v1/keys/${issued.body.id}`).set(bearer(setup.tenant.keys.admin)).expect(200);
    const end = await stream.next((event) => event.event === 'stream.end', 6_000);
    expect(end.data).toEqual({ reason: 'credential-revoked' });
    await stream.ended;
  });

  it("keeps two tenants' streams on one organization and service apart, each with ids of its own", async () => {
    const other = await createTenant(gateway);
    await storePipesCredential(gateway, other, setup.organizationId, pipesKey);
    const shared = { ...setup, serviceId: randomUUID() };
    const theirs = { ...shared, tenant: other };
    const onOurs = await openStream(
      gateway.url,
      pipesPath(shared, '/events'),
      bearer(setup.tenant.keys.viewer),
    );
    const onTheirs = await openStream(gateway.url, pipesPath(theirs, '/events'), bearer(other.keys.viewer));
    streams.push(onOurs, onTheirs);

    const firstOfTheirs = await createPipe(gateway, theirs);
    const ourPipes = [await createPipe(gateway, shared), await createPipe(gateway, shared)];
    const secondOfTheirs = await createPipe(gateway, theirs);
    for (const pipeId of [firstOfTheirs, secondOfTheirs])
      await onTheirs.next((event) => event.event === 'pipe.created' && event.data.pipeId === pipeId);
    for (const pipeId of ourPipes)
      await onOurs.next((event) => event.event === 'pipe.created' && event.data.pipeId === pipeId);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    // The upstream service is one, so each tenant's poller may find the other's pipes; the
    // gateway's own writes of one tenant never reach the other's readers.
    const written = (stream: OpenStream, pipeIds: string[]) =>
      stream.events.filter(
        (event) => event.data?.source === 'gateway' && pipeIds.includes(event.data.pipeId),
      );
    expect(written(onOurs, [firstOfTheirs, secondOfTheirs])).toEqual([]);
    expect(written(onTheirs, ourPipes)).toEqual([]);
    // An id counts only its own stream's events of its millisecond: the other tenant's writes in
    // between do not show in it.
    for (const stream of [onOurs, onTheirs]) {
      const perMs = new Map<string, number>();
      for (const { id } of stream.events.filter((event) => event.id !== undefined)) {
        const [ms, , count] = id!.split('-');
        expect(Number.parseInt(count, 36)).toBe(perMs.get(ms) ?? 0);
        perMs.set(ms, (perMs.get(ms) ?? 0) + 1);
      }
    }
  });

  it('polls a service where nothing changes less often, and at PIPE_EVENTS_POLL_MS again after a write', async () => {
    const quiet = { ...setup, serviceId: randomUUID() };
    const listCalls = () =>
      pipes
        .requests()
        .filter((sent) => sent.method === 'GET' && sent.path.endsWith(`/services/${quiet.serviceId}/pipes`))
        .length;
    const stream = await openStream(
      gateway.url,
      pipesPath(quiet, '/events'),
      bearer(setup.tenant.keys.viewer),
    );
    streams.push(stream);
    // At one poll per 500 ms, 6 s would take 12 calls; doubling up to 4 s (8 times the interval), 5.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const idle = listCalls();
    expect(idle).toBeGreaterThanOrEqual(3);
    expect(idle).toBeLessThanOrEqual(6);

    const pipeId = await createPipe(gateway, quiet);
    await stream.next((event) => event.event === 'pipe.created' && event.data.pipeId === pipeId);
    // The write and the changes it led to bring polls back to every 500 ms: backed off, one at most.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(listCalls() - idle).toBeGreaterThanOrEqual(2);
  });

  itWithPostgres(
    'drops a reader too slow to take its events, rather than buffering them',
    async () => {
      const key = bearer(setup.tenant.keys.viewer).Authorization;
      const socket = connect(Number(new URL(gateway.url).port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(`GET ${pipesPath(setup, '/events')} HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\n\r\n`);
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      const closed = new Promise((resolve) => socket.once('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.pause();
      const other = await open(bearer(setup.tenant.keys.viewer));
      expect(other.status).toBe(200);
      // Events through the bus as any replica's would come: 1,000 of some 7 KB each, a few at a time.
      const db = new Client({ connectionString: postgresUrl() });
      await db.connect();
      const event = (i: string) =>
        `json_build_object('id', 'flood-' || ${i}, 'type', 'pipe.updated', 'tenantId', '${setup.tenant.id}', ` +
        `'at', json_build_object('organizationId', '${setup.organizationId}', 'serviceId', '${setup.serviceId}'), ` +
        `'data', json_build_object('pipeId', '${randomUUID()}', 'source', 'upstream', 'pipe', ` +
        `json_build_object('id', 'p', 'name', repeat('x', 7000))))::text`;
      for (let round = 0; round < 200; round++) {
        await db.query(
          `SELECT pg_notify('pipes_gateway_pipe_events', ${event('i')}) FROM generate_series(${round * 5 + 1}, ${round * 5 + 5}) AS i`,
        );
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await db.end();
      await other.next((received) => received.id === 'flood-1000', 15_000);
      expect(gateway.logs.text()).toContain("A slow reader's pipe event stream was dropped");
      socket.resume();
      await closed;
      expect(received).toBeLessThan(1000 * 7000);
      // The reader that kept up got every one.
      expect(other.events.filter((received) => received.id?.startsWith('flood-'))).toHaveLength(1000);
    },
    30_000,
  );
});

describe('pipe event stream on the embedded database (e2e)', () => {
  it('fans out in process, the one process being the only replica, and forgets services left unread', async () => {
    const pipesKey = newKey();
    const pipes = await startPipesSimulator({ keys: [pipesKey] });
    const gateway = await startGateway({
      PIPES_API_URL: pipes.url,
      DATABASE_URL: '',
      ...POLL,
      PIPE_EVENTS_RESUME_MS: '1000',
    });
    try {
      expect(gateway.app.get(PipeEvents).busKind).toBe('in-process');
      const setup = await setUp(gateway, pipesKey);
      const path = pipesPath(setup, '/events');
      const viewer = bearer(setup.tenant.keys.viewer);
      const stream = await openStream(gateway.url, path, viewer);
      const pipeId = await createPipe(gateway, setup);
      const created = await stream.next();
      expect(created.data).toMatchObject({ pipeId, source: 'gateway' });
      stream.close();

      // Within PIPE_EVENTS_RESUME_MS of its last reader leaving, a reader resumes.
      const second = await createPipe(gateway, setup);
      const resumed = await openStream(gateway.url, path, { ...viewer, 'Last-Event-ID': created.id! });
      expect((await resumed.next()).data).toMatchObject({ pipeId: second });
      resumed.close();

      // Past it (and the poller's idle turns), the service's events are forgotten.
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      expect(await eventsKept(gateway)).toBe(0);
      const late = await openStream(gateway.url, path, { ...viewer, 'Last-Event-ID': created.id! });
      expect((await late.next()).event).toBe('stream.reset');
      late.close();
    } finally {
      await gateway.close();
      await pipes.close();
    }
  }, 60_000);
});

describe('pipe event stream, two replicas sharing Redis (e2e)', () => {
  let pipes: PipesSimulator;
  let replicas: TestGateway[] = [];
  const pipesKey = newKey();

  beforeAll(async () => {
    pipes = await startPipesSimulator({
      keys: [pipesKey],
      stateDelaysMs: { provisioning: 300, stopping: 300 },
    });
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await pipes.close();
  });

  itWithRedisAndPostgres(
    'delivers every event to both replicas, with one poller between them',
    async () => {
      const env = { PIPES_API_URL: pipes.url, REDIS_URL: TEST_REDIS_URL, ...POLL };
      replicas = [await startGateway(env), await startGateway(env)];
      const [a, b] = replicas;
      expect(a.app.get(PipeEvents).busKind).toBe('redis');
      const setup = await setUp(a, pipesKey);
      const path = pipesPath(setup, '/events');
      const onA = await openStream(a.url, path, bearer(setup.tenant.keys.viewer));
      const onB = await openStream(b.url, path, bearer(setup.tenant.keys.viewer));

      // A write through A reaches B's subscriber at once.
      const pipeId = await createPipe(a, setup);
      const createdOnB = await onB.next((event) => event.event === 'pipe.created');
      expect(createdOnB.data).toMatchObject({ pipeId, source: 'gateway' });
      expect((await onA.next((event) => event.event === 'pipe.created')).id).toBe(createdOnB.id);

      // A change found by polling is reported once to each, by the one poller.
      await onA.next((event) => event.event === 'pipe.state' && event.data.pipe.state === 'Running');
      await onB.next((event) => event.event === 'pipe.state' && event.data.pipe.state === 'Running');
      pipes.clearRequests();
      pipes.setPipeState(pipeId, 'Failed');
      const failed = await onB.next((event) => event.event === 'pipe.state');
      expect(failed.data.pipe.state).toBe('Failed');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      for (const stream of [onA, onB]) {
        expect(
          stream.events.filter((event) => event.event === 'pipe.state' && event.data.pipe.state === 'Failed'),
        ).toHaveLength(1);
      }
      const listCalls = pipes
        .requests()
        .filter((sent) => sent.method === 'GET' && sent.path.endsWith('/pipes'));
      // About 2.5 s at one poll per 500 ms: two pollers would make twice as many.
      expect(listCalls.length).toBeGreaterThanOrEqual(3);
      expect(listCalls.length).toBeLessThanOrEqual(7);

      // A reader of A resumes on B.
      onA.close();
      await a.http
        .patch(pipesPath(setup, `/${pipeId}`))
        .set(bearer(setup.tenant.keys.operator))
        .send({ name: 'renamed-on-a' })
        .expect(200);
      const resumed = await openStream(b.url, path, {
        ...bearer(setup.tenant.keys.viewer),
        'Last-Event-ID': failed.id!,
      });
      expect((await resumed.next()).data.pipe.name).toBe('renamed-on-a');
      resumed.close();
      onB.close();
    },
    30_000,
  );

  itWithRedisAndPostgres(
    'resumes a reader on a replica where its service had no reader, from the events kept in Redis',
    async () => {
      const env = { PIPES_API_URL: pipes.url, REDIS_URL: TEST_REDIS_URL, ...POLL };
      const { a, b, setup, path, viewer, pipeId, created } = await pipeCreatedOnFirstReplica(env, pipesKey);
      replicas.push(a, b);
      for (const name of ['first-rename', 'second-rename']) {
        await a.http
          .patch(pipesPath(setup, `/${pipeId}`))
          .set(bearer(setup.tenant.keys.operator))
          .send({ name })
          .expect(200);
      }

      // B heard those events with no reader of the service, so kept none of them.
      expect(await eventsKept(b)).toBe(0);
      const resumed = await openStream(b.url, path, { ...viewer, 'Last-Event-ID': created.id! });
      const replayed = [await resumed.next(), await resumed.next()];
      expect(replayed.map((event) => [event.event, event.data.pipe.name])).toEqual([
        ['pipe.updated', 'first-rename'],
        ['pipe.updated', 'second-rename'],
      ]);
      // What is written after the replay arrives once, after it.
      await a.http
        .patch(pipesPath(setup, `/${pipeId}`))
        .set(bearer(setup.tenant.keys.operator))
        .send({ name: 'third-rename' })
        .expect(200);
      const third = await resumed.next((event) => event.event === 'pipe.updated');
      expect(third.data.pipe.name).toBe('third-rename');
      expect(new Set(resumed.events.map((event) => event.id)).size).toBe(resumed.events.length);
      resumed.close();

      const unknown = await openStream(b.url, path, { ...viewer, 'Last-Event-ID': 'unknown-0-0' });
      expect((await unknown.next()).event).toBe('stream.reset');
      unknown.close();
    },
    30_000,
  );

  itWithRedisAndPostgres(
    "reports a change made upstream while the poller changes hands, from the last poller's look",
    async () => {
      const env = { PIPES_API_URL: pipes.url, REDIS_URL: TEST_REDIS_URL, ...POLL };
      const [a, b] = [await startGateway(env), await startGateway(env)];
      replicas.push(b);
      const setup = await setUp(a, pipesKey);
      const path = pipesPath(setup, '/events');
      const viewer = bearer(setup.tenant.keys.viewer);
      const onA = await openStream(a.url, path, viewer);
      const pipeId = await createPipe(a, setup);
      // A's poller has looked at the pipe once it is running.
      const running = await onA.next(
        (event) => event.event === 'pipe.state' && event.data.pipe.state === 'Running',
        10_000,
      );
      onA.close();
      await a.close();

      // Changed while no replica polls; B, taking the lease, compares with A's last look.
      pipes.setPipeState(pipeId, 'Failed');
      const onB = await openStream(b.url, path, { ...viewer, 'Last-Event-ID': running.id! });
      const failed = await onB.next((event) => event.event === 'pipe.state', 10_000);
      expect(failed.data).toMatchObject({ pipeId, source: 'upstream', pipe: { state: 'Failed' } });
      onB.close();
    },
    30_000,
  );

  itWithRedisAndPostgres(
    "sends an event found in the bus's copy once, when the replica hears it after the resume",
    async () => {
      const env = { PIPES_API_URL: pipes.url, REDIS_URL: TEST_REDIS_URL, ...POLL };
      const { a, b, setup, path, viewer, pipeId, created } = await pipeCreatedOnFirstReplica(env, pipesKey);
      replicas.push(a, b);
      const { default: Redis } = await import('ioredis');
      const redis = new Redis(TEST_REDIS_URL);
      try {
        // Another replica's event: in the copy (written with the publish), its message not heard yet.
        const at = { organizationId: setup.organizationId, serviceId: setup.serviceId };
        const ahead = {
          id: `${(Date.now() + 1).toString(36)}-remote00-0`,
          type: 'pipe.updated',
          tenantId: setup.tenant.id,
          at,
          data: { pipeId, source: 'gateway' },
          replica: 'remote00',
        };
        await redis.rpush(
          `pipes-gateway:pipe-events-recent:${streamKeyOf(setup.tenant.id, at)}`,
          JSON.stringify(ahead),
        );
        // B keeps nothing of this service: the resume is made from the copy.
        const onB = await openStream(b.url, path, { ...viewer, 'Last-Event-ID': created.id! });
        await onB.next((event) => event.id === ahead.id);
        await redis.publish('pipes-gateway:pipe-events', JSON.stringify(ahead));
        await b.http
          .patch(pipesPath(setup, `/${pipeId}`))
          .set(bearer(setup.tenant.keys.operator))
          .send({ name: 'after-the-resume' })
          .expect(200);
        await onB.next(
          (event) => event.event === 'pipe.updated' && event.data.pipe?.name === 'after-the-resume',
        );
        expect(onB.events.filter((event) => event.id === ahead.id)).toHaveLength(1);
        onB.close();
      } finally {
        redis.disconnect();
      }
    },
  );
});

describe.each<{ bus: string; env: Record<string, string>; itOnBus: typeof itWithRedis; rssMiB: number }>([
  { bus: 'in-process', env: {}, itOnBus: it, rssMiB: 64 },
  // Each large event also passes through the Redis clients' buffers, published and received.
  { bus: 'Redis', env: { REDIS_URL: TEST_REDIS_URL }, itOnBus: itWithRedis, rssMiB: 128 },
])('kept pipe events on the $bus bus, bounded by bytes (e2e)', ({ bus, env, itOnBus, rssMiB }) => {
  itOnBus(
    'keeps at most PIPE_EVENTS_KEPT_BYTES_PER_SERVICE of each service and PIPE_EVENTS_KEPT_BYTES in all, however large the pipes',
    async () => {
      const KiB = 1024;
      const pipesKey = newKey();
      const pipes = await startPipesSimulator({ keys: [pipesKey] });
      const gateway = await startGateway({
        PIPES_API_URL: pipes.url,
        DATABASE_URL: '',
        ...env,
        ...POLL,
        PIPE_EVENTS_KEPT_BYTES_PER_SERVICE: String(1_600 * KiB),
        PIPE_EVENTS_KEPT_BYTES: String(3_000 * KiB),
      });
      const collect = garbageCollector();
      const readers: { close(): void; received(): number }[] = [];
      try {
        const setup = await setUp(gateway, pipesKey);
        const viewer = bearer(setup.tenant.keys.viewer);
        const services = [randomUUID(), randomUUID(), randomUUID()].map((serviceId) => {
          // Settings take any field: a pipe of some 500 KB, as pipes with large mappings are.
          const body = validCreateBody('kafka', {}) as Record<string, unknown>;
          const pipe = pipes.seedPipe(setup.organizationId, serviceId, {
            ...body,
            settings: { notes: 'x'.repeat(500 * KiB) },
          });
          return { at: { ...setup, serviceId }, pipeId: pipe.id };
        });
        const last = services[2];
        const first = await openStream(gateway.url, pipesPath(last.at, '/events'), viewer);
        // After the poller's first look, which sets what later ones compare with.
        await new Promise((resolve) => setTimeout(resolve, 700));
        pipes.setPipeState(last.pipeId, 'Stopped');
        const firstId = (await first.next((event) => event.event === 'pipe.state', 10_000)).id!;
        first.close();
        for (const { at } of services)
          readers.push(await countingReader(gateway.url, pipesPath(at, '/events'), viewer));
        collect();
        const before = process.memoryUsage();

        // Changes found by polling, each event carrying the whole pipe: tens of MB in all. A loaded
        // machine's polls coalesce states, so the rounds go on until the readers got well past the
        // total bound.
        const received = () => readers.reduce((sum, reader) => sum + reader.received(), 0);
        for (let round = 0; round < 30 || (round < 90 && received() <= 2 * 3_000 * KiB); round++) {
          for (const { pipeId } of services)
            pipes.setPipeState(pipeId, round % 2 === 0 ? 'Running' : 'Stopped');
          await new Promise((resolve) => setTimeout(resolve, 600));
        }
        const sent = received();
        expect(sent).toBeGreaterThan(2 * 3_000 * KiB);
        const bytes = await eventBytesKept(gateway);
        expect(bytes).toBeGreaterThan(1_000 * KiB);
        expect(bytes).toBeLessThanOrEqual(3_000 * KiB);
        // Three of a service fit its bound; the last service's are the newest of all.
        expect(await eventsKept(gateway)).toBeLessThanOrEqual(6);
        if (bus === 'Redis') {
          // What Redis keeps of each service for other replicas' resumes is bounded alike.
          for (const { at } of services) {
            const kept = await recentBytesInRedis(streamKeyOf(setup.tenant.id, at));
            expect(kept).toBeGreaterThan(0);
            expect(kept).toBeLessThanOrEqual(1_600 * KiB);
          }
        }
        collect();
        const after = process.memoryUsage();
        // Kept whole, what was sent would have stayed in this process's heap.
        expect(after.heapUsed - before.heapUsed).toBeLessThan(Math.min(10 * 1024 * KiB, sent - 1_000 * KiB));
        // This process also holds the embedded database and the simulator: its RSS moves by more
        // than the heap does, so the bound on it is looser.
        expect(after.rss - before.rss).toBeLessThan(rssMiB * 1024 * KiB);

        // A reader that missed nothing resumes from the newest event; one whose event was dropped
        // is told to read the list again.
        const live = await openStream(gateway.url, pipesPath(last.at, '/events'), viewer);
        readers.push({ close: () => live.close(), received: () => 0 });
        pipes.setPipeState(last.pipeId, 'Paused');
        const newest = await live.next(
          (event) => event.event === 'pipe.state' && event.data.pipe.state === 'Paused',
          10_000,
        );
        const fromNewest = await openStream(gateway.url, pipesPath(last.at, '/events'), {
          ...viewer,
          'Last-Event-ID': newest.id!,
        });
        readers.push({ close: () => fromNewest.close(), received: () => 0 });
        pipes.setPipeState(last.pipeId, 'Running');
        expect((await fromNewest.next(undefined, 10_000)).data.pipe.state).toBe('Running');
        const dropped = await openStream(gateway.url, pipesPath(last.at, '/events'), {
          ...viewer,
          'Last-Event-ID': firstId,
        });
        readers.push({ close: () => dropped.close(), received: () => 0 });
        expect((await dropped.next()).event).toBe('stream.reset');
      } finally {
        for (const reader of readers) reader.close();
        await gateway.close();
        await pipes.close();
      }
    },
    120_000,
  );
});

describe("a signed-in person's stream, checked again while open (e2e)", () => {
  let issuer: OidcIssuer;
  let pipes: PipesSimulator;
  let gateway: TestGateway;
  let setup: Setup;
  const pipesKey = newKey();
  const streams: OpenStream[] = [];

  beforeAll(async () => {
    issuer = await startOidcIssuer({ audience: 'pipes-gateway-test' });
    pipes = await startPipesSimulator({ keys: [pipesKey] });
    gateway = await startGateway({
      PIPES_API_URL: pipes.url,
      OIDC_ISSUER: issuer.url,
      OIDC_AUDIENCE: issuer.audience,
      PIPE_STREAM_RECHECK_MS: '1000',
      PIPE_STREAM_MAX_MS: '3600000',
    });
    setup = await setUp(gateway, pipesKey);
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await gateway?.close();
    await pipes?.close();
    await issuer?.close();
  });

  /** A group of this run mapped to viewer in the tenant, by the platform; its mapping's id. */
  async function viewerGroup(): Promise<{ group: string; mappingId: string }> {
    const group = `stream-viewers-${randomUUID().slice(0, 8)}`;
    const mapped = await gateway.http
      .post(`/v1/admin/tenants/${setup.tenant.id}/group-mappings`)
      .set(platformAuth)
      .send({ group, roles: ['viewer'] })
      .expect(201);
    return { group, mappingId: mapped.body.id as string };
  }

  it('ends with role-withdrawn once the group mapping that gave the role is deleted', async () => {
    const { group, mappingId } = await viewerGroup();
    const token = await issuer.mint({ email: `reader-${randomUUID()}@example.com`, groups: [group] });
    const stream = await openStream(gateway.url, pipesPath(setup, '/events'), bearer(token));
    streams.push(stream);
    expect(stream.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(stream.events.filter((event) => event.event === 'stream.end')).toEqual([]);
    await gateway.http
      .delete(`/v1/admin/tenants/${setup.tenant.id}/group-mappings/${mappingId}`)
      .set(platformAuth)
      .expect((answer) => expect(answer.status).toBeLessThan(300));
    const end = await stream.next((event) => event.event === 'stream.end', 6_000);
    expect(end.data).toEqual({ reason: 'role-withdrawn' });
    await stream.ended;
  });

  it('ends with credential-expired once the token expires', async () => {
    const { group } = await viewerGroup();
    // Expired 27 s ago: accepted for some 3 s more, within the 30 s of clock skew tokens are allowed.
    const token = await issuer.mint(
      { email: `reader-${randomUUID()}@example.com`, groups: [group] },
      { expiresInSeconds: -27 },
    );
    const stream = await openStream(gateway.url, pipesPath(setup, '/events'), bearer(token));
    streams.push(stream);
    expect(stream.status).toBe(200);
    const end = await stream.next((event) => event.event === 'stream.end', 8_000);
    expect(end.data).toEqual({ reason: 'credential-expired' });
    await stream.ended;
  });
});

describe('two tenants following one service on two replicas (e2e)', () => {
  itWithPostgres(
    "each gets the changes found by polling, and each replica's lease is released when its streams close",
    async () => {
      const pipesKey = newKey();
      const pipes = await startPipesSimulator({ keys: [pipesKey] });
      const env = { PIPES_API_URL: pipes.url, ...POLL };
      const replicas = [await startGateway(env), await startGateway(env)];
      const db = new Client({ connectionString: postgresUrl() });
      await db.connect();
      try {
        const [a, b] = replicas;
        expect(a.app.get(PipeEvents).busKind).toBe('postgres');
        const first = await setUp(a, pipesKey);
        const second = { ...first, tenant: await createTenant(a) };
        await storePipesCredential(a, second.tenant, first.organizationId, pipesKey);
        const pipe = pipes.seedPipe(first.organizationId, first.serviceId, validCreateBody('kafka', {}));
        const onA = await openStream(a.url, pipesPath(first, '/events'), bearer(first.tenant.keys.viewer));
        const onB = await openStream(b.url, pipesPath(second, '/events'), bearer(second.tenant.keys.viewer));
        // After both pollers' first look.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        pipes.setPipeState(pipe.id, 'Failed');
        for (const stream of [onA, onB]) {
          const failed = await stream.next(
            (event) => event.event === 'pipe.state' && event.data.pipe.state === 'Failed',
            10_000,
          );
          expect(failed.data).toMatchObject({ pipeId: pipe.id, source: 'upstream' });
        }

        const leaseFree = async (tenantId: string): Promise<boolean> => {
          const lock = pollerLockOf(streamKeyOf(tenantId, first));
          const taken = await db.query<{ locked: boolean }>(
            'SELECT pg_try_advisory_lock($1::bigint) AS locked',
            [lock],
          );
          if (taken.rows[0].locked) await db.query('SELECT pg_advisory_unlock($1::bigint)', [lock]);
          return taken.rows[0].locked;
        };
        expect(await leaseFree(first.tenant.id)).toBe(false);
        expect(await leaseFree(second.tenant.id)).toBe(false);
        onA.close();
        onB.close();
        // Two poller turns without a reader, then the lease goes.
        for (const tenantId of [first.tenant.id, second.tenant.id]) {
          let free = false;
          for (let waited = 0; !free && waited < 8_000; waited += 250) {
            free = await leaseFree(tenantId);
            if (!free) await new Promise((resolve) => setTimeout(resolve, 250));
          }
          expect(free).toBe(true);
        }
      } finally {
        await db.end();
        await Promise.all(replicas.map((replica) => replica.close()));
        await pipes.close();
      }
    },
    60_000,
  );
});

/** A stream read only to count the bytes it brings, so that this process keeps none of them. */
function countingReader(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ close(): void; received(): number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${baseUrl}${path}`, { headers });
    request.on('error', reject);
    request.on('response', (response) => {
      let received = 0;
      response.on('data', (chunk: Buffer) => (received += chunk.length));
      response.on('error', () => undefined);
      resolve({ close: () => request.destroy(), received: () => received });
    });
    request.end();
  });
}

/** A full garbage collection, so that memory in use can be measured (jest runs without --expose-gc). */
function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
