import type { LoadResult } from './load';
import {
  BASELINE,
  cacheOffName,
  checkTargets,
  comparedName,
  DIRECT,
  formatRoute,
  type Measured,
  type RoundResult,
  STACK_FLOOR,
  summarise,
} from './report';

function load(rps: number, p50: number, p99: number): LoadResult {
  return { rps, p50, p99, ok: Math.round(rps), failed: 0, statuses: {}, maxSendLagMs: 2 };
}

function measured(closedRps: number, fixedP50: number, fixedP99: number): Measured {
  return {
    closed: load(closedRps, 5, 20),
    fixed: load(500, fixedP50, fixedP99),
    cpuMsPerRequest: 0.1,
    databaseCpuMsPerRequest: 0,
    gcMsPerRequest: NaN,
    roundTripsPerRequest: null,
  };
}

const GATEWAY = 'gateway (info)';

/** Three rounds of one read route: ratios and differences are per round, then the median. */
const ROUNDS: RoundResult[] = [
  { direct: [10_000, 0.4, 4], baseline: [6_000, 0.8, 6], gateway: [3_600, 1.0, 8] },
  { direct: [12_000, 0.5, 9], baseline: [7_000, 0.9, 20], gateway: [2_800, 1.5, 30] },
  { direct: [11_000, 0.4, 5], baseline: [5_000, 0.7, 7], gateway: [2_600, 1.1, 9] },
].map((round) => ({
  targets: {
    [DIRECT]: measured(...(round.direct as [number, number, number])),
    [BASELINE]: measured(...(round.baseline as [number, number, number])),
    [GATEWAY]: measured(...(round.gateway as [number, number, number])),
  },
  rssPeakMb: { [GATEWAY]: 150 },
  heapUsedMb: { [GATEWAY]: 40 },
}));

describe('benchmark report', () => {
  const summary = summarise('GET settings', 'read', ROUNDS);

  it('takes the gateway/baseline ratio within each round, then the median', () => {
    // Rounds: 0.6, 0.4, 0.52; the ratio of the medians would be 2,800 / 6,000.
    expect(summary.gateways[GATEWAY].throughputVsBaseline).toBeCloseTo(0.52);
    expect(formatRoute(summary, { connections: 50, rate: 500 })).toContain(
      'gateway/baseline throughput: gateway (info) 0.52 (0.60, 0.40, 0.52)',
    );
  });

  it('names a target whose sender fell behind at the fixed rate in a round, and only then', () => {
    expect(formatRoute(summary, { connections: 50, rate: 500 })).not.toContain('sender behind');
    const stalled = ROUNDS.map((round, index) =>
      index === 1
        ? {
            ...round,
            targets: {
              ...round.targets,
              [GATEWAY]: {
                ...round.targets[GATEWAY],
                fixed: { ...round.targets[GATEWAY].fixed, maxSendLagMs: 512.4 },
              },
            },
          }
        : round,
    );
    expect(
      formatRoute(summarise('PUT dashboard', 'write', stalled), { connections: 50, rate: 500 }),
    ).toContain('\nsender behind schedule @500/s (longest, per round): gateway (info) 2, 512, 2 ms\n');
  });

  it('prints the median ratio alone after a single round', () => {
    const single = summarise('GET settings', 'read', ROUNDS.slice(0, 1));
    expect(formatRoute(single, { connections: 50, rate: 500 })).toContain(
      'gateway/baseline throughput: gateway (info) 0.60\n',
    );
  });

  it('reports what the baseline proxy adds over direct beside what the gateway adds', () => {
    expect(summary.baselineAdded.p50Ms).toBeCloseTo(0.4);
    expect(summary.baselineAdded.p99Ms).toBeCloseTo(2);
    expect(summary.gateways[GATEWAY].addedP50Ms).toBeCloseTo(0.7);
    expect(summary.gateways[GATEWAY].addedP99Ms).toBeCloseTo(4);
    expect(formatRoute(summary, { connections: 50, rate: 500 })).toContain(
      'added latency vs direct @500/s: baseline proxy p50 +0.40 ms, p99 +2.00 ms; gateway (info) p50 +0.70 ms, p99 +4.00 ms',
    );
  });

  it('checks the read targets, naming the baseline floor for p99', () => {
    expect(checkTargets([summary])).toEqual([
      {
        target: "GET settings: throughput ≥ 0.6 of the baseline proxy's",
        gateway: GATEWAY,
        measured: '0.52 (0.60, 0.40, 0.52)',
        met: false,
      },
      expect.objectContaining({ target: 'GET settings: added p50 ≤ 1 ms at 500 req/s', met: true }),
      {
        target: 'GET settings: added p99 ≤ 5 ms at 500 req/s',
        gateway: GATEWAY,
        measured: '+4.00 ms; the baseline proxy adds +2.00 ms',
        met: true,
      },
      expect.objectContaining({ target: 'RSS ≤ 200 MB under load', measured: '150 MB', met: true }),
    ]);
  });

  it('checks the write targets as ratios to the baseline proxy in the same round, with round trips and refusals', () => {
    const rounds = ROUNDS.map((round, index) => ({
      ...round,
      targets: {
        ...round.targets,
        [BASELINE]: { ...round.targets[BASELINE], cpuMsPerRequest: 0.2 },
        [GATEWAY]: {
          ...round.targets[GATEWAY],
          closed: load([1_800, 1_400, 1_500][index], 5, 20),
          fixed: { ...load(497, 2, 9), failed: 3, statuses: { '503': 3 } },
          cpuMsPerRequest: [0.7, 0.9, 0.8][index],
          roundTripsPerRequest: {
            'audit append': 1.5,
            'SELECT idempotent_requests': [0, 1, 0][index],
            'audit sinks (background)': 0.25,
          },
        },
      },
    }));
    const summary = summarise('PUT dashboard', 'write', rounds);
    expect(summary.targets[GATEWAY].closed.roundTripsByKind).toEqual({
      'audit append': 1.5,
      'SELECT idempotent_requests': 0,
      'audit sinks (background)': 0.25,
    });
    const checks = checkTargets([summary]);
    expect(checks.map(({ target, measured, met }) => [target, measured, met])).toEqual([
      // Throughput rounds: 1,800 / 6,000, 1,400 / 7,000, 1,500 / 5,000.
      [
        "PUT dashboard: closed-loop throughput ≥ 0.27 of the baseline proxy's",
        '0.30 (0.30, 0.20, 0.30)',
        true,
      ],
      [
        "PUT dashboard: gateway CPU per write ≤ 4× the baseline proxy's per request",
        '4.00 (3.50, 4.50, 4.00)×; 0.800 ms',
        true,
      ],
      ['PUT dashboard: added p99 ≤ 60 ms at a fixed 500 req/s', '+4.00 ms', true],
      ['PUT dashboard: no refusal at a fixed 500 req/s', '9 refused or failed', false],
      ['RSS ≤ 200 MB under load', '150 MB', true],
    ]);
    expect(formatRoute(summary, { connections: 50, rate: 500 })).toContain(
      'database round trips per request, gateway (info): 1.50 (audit append 1.50); background 0.25 (audit sinks (background) 0.25)',
    );
  });

  it('holds a gateway measured on some routes only (the cache off) to the targets of those', () => {
    const cacheOff = cacheOffName('info');
    const withCacheOff = ROUNDS.map((round) => ({
      ...round,
      targets: { ...round.targets, [cacheOff]: measured(4_000, 1.0, 8) },
      rssPeakMb: { ...round.rssPeakMb, [cacheOff]: 140 },
    }));
    const checks = checkTargets([
      summarise('GET settings', 'read', withCacheOff),
      summarise('GET dashboard', 'read', ROUNDS),
    ]);
    expect(checks.filter((check) => check.gateway === cacheOff).map((check) => check.target)).toEqual([
      "GET settings: throughput ≥ 0.6 of the baseline proxy's",
      'GET settings: added p50 ≤ 1 ms at 500 req/s',
      'GET settings: added p99 ≤ 5 ms at 500 req/s',
      'RSS ≤ 200 MB under load',
    ]);
  });

  it('prints where the CPU of a write goes, its own stages first and in order', () => {
    const summary = summarise('POST pipe', 'create', ROUNDS);
    summary.stages = {
      gateway: GATEWAY,
      seconds: 6,
      writes: 3_000,
      busyMsPerWrite: 1,
      stages: { 'audit append': 0.2, 'checking the body': 0.1, 'garbage collection': 0.3, logging: 0.4 },
    };
    const printed = formatRoute(summary, { connections: 50, rate: 500 });
    const table = printed.slice(printed.indexOf("where gateway (info)'s main-thread CPU goes"));
    expect(table.split('\n').map((line) => line.trim().replace(/ +/g, ' '))).toEqual([
      "where gateway (info)'s main-thread CPU goes per write (profiled closed loop, 6 s, 3000 writes):",
      'parsing the body 0.000 ms 0.0%',
      'checking the body 0.100 ms 10.0%',
      'resolving references 0.000 ms 0.0%',
      'history 0.000 ms 0.0%',
      'idempotency 0.000 ms 0.0%',
      'write slot 0.000 ms 0.0%',
      'audit append 0.200 ms 20.0%',
      'event notify 0.000 ms 0.0%',
      'upstream call 0.000 ms 0.0%',
      'scrubbing the answer 0.000 ms 0.0%',
      'logging 0.400 ms 40.0%',
      'garbage collection 0.300 ms 30.0%',
      'all 1.000 ms (with the profiler on)',
    ]);
  });

  it('reports the stack floor against the baseline and holds it to no target', () => {
    const withFloor = ROUNDS.map((round, index) => ({
      ...round,
      targets: { ...round.targets, [STACK_FLOOR]: measured([4_800, 5_600, 4_000][index], 0.6, 5) },
    }));
    const floorSummary = summarise('GET settings', 'read', withFloor);
    expect(Object.keys(floorSummary.gateways)).toEqual([GATEWAY]);
    expect(formatRoute(floorSummary, { connections: 50, rate: 500 })).toContain(
      'stack floor/baseline throughput: 0.80 (0.80, 0.80, 0.80)',
    );
    expect(checkTargets([floorSummary]).map((check) => check.gateway)).not.toContain(STACK_FLOOR);
    expect(formatRoute(summary, { connections: 50, rate: 500 })).not.toContain('stack floor');
  });

  it("compares each gateway with the other build's at its log level, and holds that one to no target", () => {
    const compared = comparedName('info');
    const withCompared = ROUNDS.map((round, index) => ({
      ...round,
      targets: { ...round.targets, [compared]: measured([3_000, 2_000, 2_600][index], 1.2, 9) },
      rssPeakMb: { ...round.rssPeakMb, [compared]: 160 },
      heapUsedMb: { ...round.heapUsedMb, [compared]: 41 },
    }));
    const comparedSummary = summarise('GET settings', 'read', withCompared);
    // Rounds: 3,600 / 3,000, 2,800 / 2,000, 2,600 / 2,600.
    expect(comparedSummary.comparedRatios).toEqual({ [GATEWAY]: [1.2, 1.4, 1] });
    const printed = formatRoute(comparedSummary, { connections: 50, rate: 500 });
    expect(printed).toContain('this build/compared build throughput: gateway (info) 1.20 (1.20, 1.40, 1.00)');
    expect(printed).toContain('compared (info) 0.50 (0.50, 0.29, 0.52)');
    const checked = new Set(checkTargets([comparedSummary]).map((check) => check.gateway));
    expect([...checked]).toEqual([GATEWAY]);
    expect(formatRoute(summary, { connections: 50, rate: 500 })).not.toContain('compared');
  });

  it("holds a write's own round trips, with --compare, to two thirds of the other build's", () => {
    const compared = comparedName('info');
    const trips = (own: number) => ({ 'audit append': own, 'audit sinks (background)': 5 });
    const rounds = ROUNDS.map((round, index) => ({
      ...round,
      targets: {
        ...round.targets,
        [GATEWAY]: { ...round.targets[GATEWAY], roundTripsPerRequest: trips([1.2, 1.4, 1.8][index]) },
        [compared]: { ...measured(3_000, 1.2, 9), roundTripsPerRequest: trips(2) },
      },
      rssPeakMb: { ...round.rssPeakMb, [compared]: 160 },
      heapUsedMb: { ...round.heapUsedMb, [compared]: 41 },
    }));
    const summary = summarise('POST pipe', 'create', rounds);
    expect(summary.comparedRoundTripRatios).toEqual({ [GATEWAY]: [0.6, 0.7, 0.9] });
    expect(formatRoute(summary, { connections: 50, rate: 500 })).toContain(
      'this build/compared build own database round trips: gateway (info) 0.70 (0.60, 0.70, 0.90)',
    );
    expect(checkTargets([summary]).find((check) => check.target.includes('round trips'))).toEqual({
      target: "POST pipe: the write's own database round trips ≤ 0.67 of the compared build's",
      gateway: GATEWAY,
      measured: '0.70 (0.60, 0.70, 0.90); 1.40 per write',
      met: false,
    });
  });

  it('measures a reported route against no target', () => {
    expect(checkTargets([summarise('GET pipes', 'reported', ROUNDS)]).map((check) => check.target)).toEqual([
      'RSS ≤ 200 MB under load',
    ]);
  });
});
