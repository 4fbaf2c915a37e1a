/**
 * `npm run bench:cluster` as a test, shorter: HAProxy in front of three gateway processes (the
 * source compiled on load, with start:prod's Node options) on one Postgres database and Redis,
 * under a steady mixed load and 200 event streams; a rolling restart fails no request and every
 * stream resumes without a missed event; a replica killed leaves no 2xx without its effect, its
 * pending writes reconciled, every audit chain whole, one poller per service and the upstream
 * budgets kept. Needs Debian's haproxy, Postgres and Redis: skipped by name without them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCluster, formatCluster } from '../bench/lib/cluster/cluster-report';
import { type ClusterOutcome, runCluster } from '../bench/lib/cluster/cluster-run';
import { hasHaproxy, NO_HAPROXY } from '../bench/lib/cluster/haproxy';
import { redisReachable, TEST_REDIS_URL } from './support/redis';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { describeIf, NEEDS_POSTGRES, postgresConfigured } from './support/skip';

const describeCluster = !postgresConfigured()
  ? describeIf(false, NEEDS_POSTGRES)
  : !hasHaproxy
    ? describeIf(false, NO_HAPROXY)
    : describeIf(redisReachable, `Redis not reachable at ${TEST_REDIS_URL}; start it or set TEST_REDIS_URL`);

describeCluster('a cluster behind HAProxy (e2e)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  let database: ScratchDatabase;
  let folder: string;
  let outcome: ClusterOutcome;

  // About 90 s on a quiet machine; a busy one starts each replica many times slower.
  beforeAll(async () => {
    database = await createScratchDatabase();
    folder = mkdtempSync(join(tmpdir(), 'pipes-cluster-test-'));
    outcome = await runCluster(
      {
        build: 'source',
        databaseUrl: database.env.DATABASE_URL,
        redisUrl: TEST_REDIS_URL,
        folder,
        replicas: 3,
        streams: 200,
        tenants: 2,
        pace: 1,
        steadySeconds: 3,
        pauseSeconds: 0.5,
        downSeconds: 1,
        drainMs: 1_500,
        ceilingSeconds: 2,
        ceilingConnections: 16,
        ceilingTenants: 4,
        log: () => undefined,
      },
      cleanups,
    );
  }, 600_000);
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await database?.drop();
    // The processes' output stays for a failed run to be read.
    if (outcome && checkCluster(outcome).every((check) => check.kind === 'figure' || check.met))
      rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  it('restarts every replica in turn without failing a request, each out of the balancer before it closes', () => {
    expect(outcome.rolling.stops.map((stop) => [stop.replica, stop.exit])).toEqual([
      ['r1', 'exit 0'],
      ['r2', 'exit 0'],
      ['r3', 'exit 0'],
    ]);
    for (const stop of outcome.rolling.stops) expect(stop.outOfBalancerMs).toBeLessThan(stop.endedMs);
    expect(outcome.rolling.answers.requests).toBeGreaterThan(0);
    expect(outcome.rolling.answers.failed).toEqual({});
  });

  it('resumes every stream, on another replica, without a missed, repeated or reset event', () => {
    const { streams } = outcome;
    expect(streams.followers).toBe(200);
    // Each reader was on a replica that stopped at least once.
    expect(streams.resumes).toBeGreaterThanOrEqual(streams.followers);
    expect(streams.ends['shutting-down']).toBeGreaterThan(0);
    expect(streams.events).toBeGreaterThan(0);
    expect({
      missed: streams.missed,
      repeated: streams.repeated,
      outOfOrder: streams.outOfOrder,
      resets: streams.resets,
    }).toEqual({ missed: 0, repeated: 0, outOfOrder: 0, resets: 0 });
    // The states set upstream meanwhile were all reported, whichever replica polled at the time.
    expect(outcome.upstreamChanges.made).toBeGreaterThan(0);
    expect(outcome.upstreamChanges.missed).toBe(0);
  });

  it('after a replica is killed: no 2xx without its effect, pending writes reconciled, chains whole', () => {
    expect(outcome.kill.stop.signal).toBe('SIGKILL');
    expect(outcome.kill.effectMissing).toEqual([]);
    for (const write of outcome.kill.pending) {
      expect(write.phase).toBe('kill');
      expect(write.status < 200 || write.status >= 300).toBe(true);
    }
    expect(outcome.chains.failedApi).toEqual([]);
    expect(outcome.chains.offline).toMatch(/^ok/);
  });

  it('keeps one poller per service and every credential within its upstream budget', () => {
    // Two pollers make about 2; one, about 1 and a little more for each hand-over, which this
    // short run has many of beside its load (the bench holds 1.1 over a longer one).
    for (const poller of outcome.pollers) expect(poller.listCallsPerInterval).toBeLessThanOrEqual(1.5);
    for (const budget of outcome.budgets) expect(budget.refusedUpstream).toBe(0);
    expect(outcome.probe.refused).toBeGreaterThan(0);
    expect(outcome.probe.failures).toEqual([]);
  });

  it('measures the ceilings, with every write answered', () => {
    expect(outcome.ceilings.map((figure) => [figure.name, figure.replicas])).toEqual([
      ['many tenants', 3],
      ['many tenants', 1],
      ['one tenant', 3],
    ]);
    for (const figure of outcome.ceilings) {
      expect(figure.writesPerSecond).toBeGreaterThan(0);
      expect(figure.failed).toBe(0);
    }
    // The whole report, as the bench prints it, names every check it made.
    expect(formatCluster(outcome)).toContain('targets');
  });
});
