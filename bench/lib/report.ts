import type { LoadResult } from './load';
import { WRITE_STAGES } from './stages';
import { isBackground } from './statements';
import { median } from './stats';

/**
 * `read` and `write` routes carry the targets of bench/README.md (a `create` is a write whose creates pile
 * up upstream); a `reported` route is measured for the record, against no target.
 */
export type RouteKind = 'read' | 'write' | 'create' | 'reported';

/** One target's measurements for one route in one round. */
export interface Measured {
  closed: LoadResult;
  fixed: LoadResult;
  /** CPU time the target's own process spent per request in the closed loop, ms. */
  cpuMsPerRequest: number;
  /** CPU time Postgres spent per request in the closed loop, ms; NaN when it runs elsewhere. */
  databaseCpuMsPerRequest: number;
  /** Main-thread GC pause per request in the closed loop, ms; NaN for targets other than gateways. */
  gcMsPerRequest: number;
  /** A gateway's round trips to Postgres per request in the closed loop, by kind (statementKind); null for the others. */
  roundTripsPerRequest: Record<string, number> | null;
}

/** Where a gateway's main-thread CPU went per write, by stage (stages.ts), from a profiled closed loop. */
export interface StageProfile {
  gateway: string;
  seconds: number;
  writes: number;
  /** Main-thread CPU per write with the profiler on, ms. */
  busyMsPerWrite: number;
  /** By stage, ms per write. */
  stages: Record<string, number>;
}

export interface RoundResult {
  /** By target name (direct, baseline proxy, gateway …). */
  targets: Record<string, Measured>;
  /** Peak RSS in MB of each gateway during this route, by target name. */
  rssPeakMb: Record<string, number>;
  /** Live JS heap (MB, after a full collection) of each gateway once the route is done. */
  heapUsedMb: Record<string, number>;
}

export interface TargetSummary {
  closed: {
    rps: number;
    p50: number;
    p99: number;
    cpuMsPerRequest: number;
    databaseCpuMsPerRequest: number;
    gcMsPerRequest: number;
    /**
     * A gateway's own round trips to Postgres per request (NaN for the other targets), its
     * background's (isBackground) apart, and both by kind.
     */
    roundTripsPerRequest: number;
    backgroundRoundTripsPerRequest: number;
    roundTripsByKind: Record<string, number>;
  };
  fixed: { rps: number; p50: number; p99: number };
  /** Failed requests summed over rounds, closed loop and fixed rate together. */
  failed: number;
  /** Of those, the ones at the fixed rate: a write there must never be refused. */
  fixedFailed: number;
  statuses: Record<string, number>;
}

export interface GatewaySummary {
  /** Closed-loop throughput of the gateway over the baseline proxy's: the median of `throughputRatios`. */
  throughputVsBaseline: number;
  /** That ratio in each round, in round order. */
  throughputRatios: number[];
  /** CPU per request of the gateway over the baseline proxy's, in the closed loop: the median of `cpuRatios`. */
  cpuVsBaseline: number;
  cpuRatios: number[];
  /** Gateway minus direct latency at the fixed rate, ms. */
  addedP50Ms: number;
  addedP99Ms: number;
  rssPeakMb: number;
  heapUsedMb: number;
}

export interface RouteSummary {
  route: string;
  kind: RouteKind;
  targets: Record<string, TargetSummary>;
  /** Baseline proxy minus direct latency at the fixed rate, ms: the floor any proxy adds on this machine. */
  baselineAdded: { p50Ms: number; p99Ms: number };
  /** The stack floor's throughput over the baseline proxy's, per round, when it was measured (--stack-floor). */
  stackFloorRatios?: number[];
  /** Each target's longest lag of the sender at the fixed rate, per round, ms (LoadResult.maxSendLagMs). */
  sendLagMs: Record<string, number[]>;
  /** With --compare: each gateway's throughput over that of the other build's at its log level, per round. */
  comparedRatios?: Record<string, number[]>;
  /** With --compare: each gateway's own round trips to Postgres per request over the other build's, per round. */
  comparedRoundTripRatios?: Record<string, number[]>;
  gateways: Record<string, GatewaySummary>;
  /** For a write route: where the gateway's CPU went, by stage. */
  stages?: StageProfile;
}

export const DIRECT = 'direct';
export const BASELINE = 'baseline proxy';
/** The gateway's framework stack alone (bench/children/stack-floor.ts): a reference, held to no target. */
export const STACK_FLOOR = 'stack floor';
const REFERENCES = new Set([DIRECT, BASELINE, STACK_FLOOR]);

/** The gateway of the build given to --compare, at one log level: measured as a gateway, checked against no target. */
export function comparedName(logLevel: string): string {
  return `compared (${logLevel})`;
}
/** The gateway at one log level with the pipe read cache off (PIPE_READ_CACHE_MS=off): every read its own upstream call. */
export function cacheOffName(logLevel: string): string {
  return `gateway (${logLevel}, cache off)`;
}
const isCompared = (name: string): boolean => name.startsWith('compared (');
const comparedOf = (gateway: string): string => gateway.replace(/^gateway /, 'compared ');

/** Medians over rounds; ratios and differences are taken within each round first (same-run comparisons). */
export function summarise(route: string, kind: RouteKind, rounds: RoundResult[]): RouteSummary {
  const names = Object.keys(rounds[0].targets);
  const targets: Record<string, TargetSummary> = {};
  for (const name of names) {
    const runs = rounds.map((round) => round.targets[name]);
    const statuses: Record<string, number> = {};
    for (const run of runs) {
      for (const [status, count] of [
        ...Object.entries(run.closed.statuses),
        ...Object.entries(run.fixed.statuses),
      ]) {
        statuses[status] = (statuses[status] ?? 0) + count;
      }
    }
    targets[name] = {
      closed: {
        rps: median(runs.map((run) => run.closed.rps)),
        p50: median(runs.map((run) => run.closed.p50)),
        p99: median(runs.map((run) => run.closed.p99)),
        cpuMsPerRequest: median(runs.map((run) => run.cpuMsPerRequest)),
        databaseCpuMsPerRequest: median(runs.map((run) => run.databaseCpuMsPerRequest)),
        gcMsPerRequest: median(runs.map((run) => run.gcMsPerRequest)),
        roundTripsPerRequest: median(runs.map((run) => totalOf(run.roundTripsPerRequest, false))),
        backgroundRoundTripsPerRequest: median(runs.map((run) => totalOf(run.roundTripsPerRequest, true))),
        roundTripsByKind: medianByKind(runs.map((run) => run.roundTripsPerRequest ?? {})),
      },
      fixed: {
        rps: median(runs.map((run) => run.fixed.rps)),
        p50: median(runs.map((run) => run.fixed.p50)),
        p99: median(runs.map((run) => run.fixed.p99)),
      },
      failed: runs.reduce((sum, run) => sum + run.closed.failed + run.fixed.failed, 0),
      fixedFailed: runs.reduce((sum, run) => sum + run.fixed.failed, 0),
      statuses,
    };
  }
  const added = (name: string, percentile: 'p50' | 'p99'): number =>
    median(
      rounds.map((round) => round.targets[name].fixed[percentile] - round.targets[DIRECT].fixed[percentile]),
    );
  const throughputOver = (name: string, reference: string): number[] =>
    rounds.map((round) => round.targets[name].closed.rps / round.targets[reference].closed.rps);
  const cpuOver = (name: string, reference: string): number[] =>
    rounds.map((round) => round.targets[name].cpuMsPerRequest / round.targets[reference].cpuMsPerRequest);
  const gateways: Record<string, GatewaySummary> = {};
  for (const name of names.filter((target) => !REFERENCES.has(target))) {
    const throughputRatios = throughputOver(name, BASELINE);
    const cpuRatios = cpuOver(name, BASELINE);
    gateways[name] = {
      throughputVsBaseline: median(throughputRatios),
      throughputRatios,
      cpuVsBaseline: median(cpuRatios),
      cpuRatios,
      addedP50Ms: added(name, 'p50'),
      addedP99Ms: added(name, 'p99'),
      rssPeakMb: Math.max(...rounds.map((round) => round.rssPeakMb[name] ?? NaN)),
      heapUsedMb: Math.max(...rounds.map((round) => round.heapUsedMb[name] ?? NaN)),
    };
  }
  const compared = names.filter((name) => name.startsWith('gateway ') && names.includes(comparedOf(name)));
  return {
    route,
    kind,
    targets,
    baselineAdded: { p50Ms: added(BASELINE, 'p50'), p99Ms: added(BASELINE, 'p99') },
    sendLagMs: Object.fromEntries(
      names.map((name) => [name, rounds.map((round) => round.targets[name].fixed.maxSendLagMs)]),
    ),
    ...(names.includes(STACK_FLOOR) ? { stackFloorRatios: throughputOver(STACK_FLOOR, BASELINE) } : {}),
    ...(compared.length > 0
      ? {
          comparedRatios: Object.fromEntries(
            compared.map((name) => [name, throughputOver(name, comparedOf(name))]),
          ),
          comparedRoundTripRatios: Object.fromEntries(
            compared.map((name) => [
              name,
              rounds.map(
                (round) =>
                  totalOf(round.targets[name].roundTripsPerRequest, false) /
                  totalOf(round.targets[comparedOf(name)].roundTripsPerRequest, false),
              ),
            ]),
          ),
        }
      : {}),
    gateways,
  };
}

export interface TargetCheck {
  target: string;
  gateway: string;
  measured: string;
  met: boolean;
}

/**
 * The targets of bench/README.md. Those on throughput and CPU are ratios to the baseline proxy on
 * the same route in the same round, so that the machine's pace cancels out.
 */
export const TARGETS = {
  /** Reads: closed-loop throughput over the baseline's, at least; cached routes with their cache off. */
  readThroughput: 0.6,
  readAddedP50Ms: 1,
  readAddedP99Ms: 5,
  /** Writes: closed-loop throughput over the baseline's, at least. */
  writeThroughput: 0.27,
  /** Writes: gateway CPU per write over the baseline's CPU per request, at most. */
  writeCpu: 4,
  writeAddedP99Ms: 60,
  /**
   * Writes, with --compare: the write's own round trips to Postgres over the other build's, at
   * most. Compared with `9d70d62` (the build before they were cut), it must be down by a third.
   */
  writeRoundTripsVsCompared: 2 / 3,
  rssMb: 200,
};

/** The targets of bench/README.md, checked against the medians. */
export function checkTargets(routes: RouteSummary[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const gatewayNames = [...new Set(routes.flatMap((route) => Object.keys(route.gateways)))].filter(
    (name) => !isCompared(name),
  );
  for (const gateway of gatewayNames) {
    const measured = routes.filter((route) => route.gateways[gateway] !== undefined);
    for (const route of measured) {
      const summary = route.gateways[gateway];
      if (route.kind === 'read') {
        checks.push(
          {
            target: `${route.route}: throughput ≥ ${TARGETS.readThroughput} of the baseline proxy's`,
            gateway,
            measured: ratios(summary.throughputRatios),
            met: summary.throughputVsBaseline >= TARGETS.readThroughput,
          },
          {
            target: `${route.route}: added p50 ≤ ${TARGETS.readAddedP50Ms} ms at 500 req/s`,
            gateway,
            measured: `${signed(summary.addedP50Ms)} ms`,
            met: summary.addedP50Ms <= TARGETS.readAddedP50Ms,
          },
          {
            target: `${route.route}: added p99 ≤ ${TARGETS.readAddedP99Ms} ms at 500 req/s`,
            gateway,
            measured: `${signed(summary.addedP99Ms)} ms; the baseline proxy adds ${signed(route.baselineAdded.p99Ms)} ms`,
            met: summary.addedP99Ms <= TARGETS.readAddedP99Ms,
          },
        );
      }
      if (route.kind === 'write' || route.kind === 'create') {
        const { closed, fixedFailed } = route.targets[gateway];
        const roundTripRatios = route.comparedRoundTripRatios?.[gateway];
        if (roundTripRatios) {
          checks.push({
            target: `${route.route}: the write's own database round trips ≤ ${TARGETS.writeRoundTripsVsCompared.toFixed(2)} of the compared build's`,
            gateway,
            measured: `${ratios(roundTripRatios)}; ${closed.roundTripsPerRequest.toFixed(2)} per write`,
            met: median(roundTripRatios) <= TARGETS.writeRoundTripsVsCompared,
          });
        }
        checks.push(
          {
            target: `${route.route}: closed-loop throughput ≥ ${TARGETS.writeThroughput} of the baseline proxy's`,
            gateway,
            measured: ratios(summary.throughputRatios),
            met: summary.throughputVsBaseline >= TARGETS.writeThroughput,
          },
          {
            target: `${route.route}: gateway CPU per write ≤ ${TARGETS.writeCpu}× the baseline proxy's per request`,
            gateway,
            measured: `${ratios(summary.cpuRatios)}×; ${closed.cpuMsPerRequest.toFixed(3)} ms`,
            met: summary.cpuVsBaseline <= TARGETS.writeCpu,
          },
          {
            target: `${route.route}: added p99 ≤ ${TARGETS.writeAddedP99Ms} ms at a fixed 500 req/s`,
            gateway,
            measured: `${signed(summary.addedP99Ms)} ms`,
            met: summary.addedP99Ms <= TARGETS.writeAddedP99Ms,
          },
          {
            target: `${route.route}: no refusal at a fixed 500 req/s`,
            gateway,
            measured: fixedFailed === 0 ? 'none' : `${fixedFailed} refused or failed`,
            met: fixedFailed === 0,
          },
        );
      }
    }
    const peak = Math.max(...measured.map((route) => route.gateways[gateway].rssPeakMb));
    checks.push({
      target: `RSS ≤ ${TARGETS.rssMb} MB under load`,
      gateway,
      measured: `${Math.round(peak)} MB`,
      met: peak <= TARGETS.rssMb,
    });
  }
  return checks;
}

/** Round trips per request of the background's kinds, or of the others; NaN for a target that counts none. */
function totalOf(byKind: Record<string, number> | null, background: boolean): number {
  if (byKind === null) return NaN;
  return Object.entries(byKind)
    .filter(([kind]) => isBackground(kind) === background)
    .reduce((sum, [, count]) => sum + count, 0);
}

/** The median of each kind over rounds, a round without the kind counting 0. */
function medianByKind(rounds: Record<string, number>[]): Record<string, number> {
  const kinds = new Set(rounds.flatMap((round) => Object.keys(round)));
  return Object.fromEntries(
    [...kinds].map((kind) => [kind, median(rounds.map((round) => round[kind] ?? 0))]),
  );
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
}

// A lag the 1 ms timer and a scavenge of the runner's own explain; past it, a round's latency and
// refusals at the fixed rate may come from the burst the sender then sent, not from the target.
const NOTABLE_SEND_LAG_MS = 10;

/** The targets whose sender fell notably behind at the fixed rate, in any round; none, no line. */
function senderLagLine(summary: RouteSummary, rate: number): string[] {
  const behind = Object.entries(summary.sendLagMs).filter(([, perRound]) =>
    perRound.some((lag) => lag >= NOTABLE_SEND_LAG_MS),
  );
  if (behind.length === 0) return [];
  const rounds = behind.map(
    ([name, perRound]) => `${name} ${perRound.map((lag) => Math.round(lag)).join(', ')} ms`,
  );
  return [`sender behind schedule @${rate}/s (longest, per round): ${rounds.join('; ')}`];
}

/** The median, then each round's ratio when there was more than one round: `0.42 (0.41, 0.44, 0.34)`. */
function ratios(perRound: number[]): string {
  const middle = median(perRound).toFixed(2);
  if (perRound.length < 2) return middle;
  return `${middle} (${perRound.map((ratio) => ratio.toFixed(2)).join(', ')})`;
}

function cell(value: number, digits: number): string {
  return Number.isNaN(value) ? '-' : value.toFixed(digits);
}

export function formatRoute(summary: RouteSummary, settings: { connections: number; rate: number }): string {
  const header = [
    'target',
    `req/s (${settings.connections} conn)`,
    'p50 ms',
    'p99 ms',
    'CPU ms/req',
    'DB CPU ms/req',
    'GC ms/req',
    'DB trips/req',
    `ok/s @${settings.rate}/s`,
    `p50 ms @${settings.rate}/s`,
    `p99 ms @${settings.rate}/s`,
    'failed',
  ];
  const rows = Object.entries(summary.targets).map(([name, target]) => [
    name,
    cell(target.closed.rps, 0),
    cell(target.closed.p50, 2),
    cell(target.closed.p99, 2),
    cell(target.closed.cpuMsPerRequest, 3),
    cell(target.closed.databaseCpuMsPerRequest, 3),
    cell(target.closed.gcMsPerRequest, 3),
    cell(target.closed.roundTripsPerRequest, 2),
    cell(target.fixed.rps, 0),
    cell(target.fixed.p50, 2),
    cell(target.fixed.p99, 2),
    target.failed === 0 ? '0' : `${target.failed} ${JSON.stringify(target.statuses)}`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column].length)),
  );
  const line = (row: string[]): string =>
    row
      .map((value, column) => (column === 0 ? value.padEnd(widths[column]) : value.padStart(widths[column])))
      .join('  ');
  const gateways = Object.entries(summary.gateways);
  return [
    `\n${summary.route}`,
    line(header),
    ...rows.map(line),
    `gateway/baseline throughput: ${gateways.map(([name, g]) => `${name} ${ratios(g.throughputRatios)}`).join('; ')}`,
    `gateway/baseline CPU per request: ${gateways.map(([name, g]) => `${name} ${ratios(g.cpuRatios)}`).join('; ')}`,
    ...(summary.stackFloorRatios
      ? [`stack floor/baseline throughput: ${ratios(summary.stackFloorRatios)}`]
      : []),
    ...(summary.comparedRatios
      ? [
          `this build/compared build throughput: ${Object.entries(summary.comparedRatios)
            .map(([name, perRound]) => `${name} ${ratios(perRound)}`)
            .join('; ')}`,
        ]
      : []),
    ...(summary.comparedRoundTripRatios && summary.kind !== 'read'
      ? [
          `this build/compared build own database round trips: ${Object.entries(
            summary.comparedRoundTripRatios,
          )
            .map(([name, perRound]) => `${name} ${ratios(perRound)}`)
            .join('; ')}`,
        ]
      : []),
    `added latency vs direct @${settings.rate}/s: ${[
      [BASELINE, summary.baselineAdded.p50Ms, summary.baselineAdded.p99Ms] as const,
      ...gateways.map(([name, g]) => [name, g.addedP50Ms, g.addedP99Ms] as const),
    ]
      .map(([name, p50, p99]) => `${name} p50 ${signed(p50)} ms, p99 ${signed(p99)} ms`)
      .join('; ')}`,
    ...senderLagLine(summary, settings.rate),
    `gateway RSS peak (live JS heap after the route): ${gateways
      .map(([name, g]) => `${name} ${Math.round(g.rssPeakMb)} MB (${Math.round(g.heapUsedMb)} MB)`)
      .join('; ')}`,
    ...(summary.kind === 'read' ? [] : roundTripLines(summary)),
    ...(summary.stages ? stageLines(summary.stages) : []),
  ].join('\n');
}

/** Each gateway's round trips to Postgres per request, its own then its background's, by kind, most first. */
function roundTripLines(summary: RouteSummary): string[] {
  return Object.keys(summary.gateways).map((name) => {
    const { roundTripsPerRequest, backgroundRoundTripsPerRequest, roundTripsByKind } =
      summary.targets[name].closed;
    const kinds = (background: boolean): string =>
      Object.entries(roundTripsByKind)
        .filter(([kind, count]) => isBackground(kind) === background && count >= 0.005)
        .sort((a, b) => b[1] - a[1])
        .map(([kind, count]) => `${kind} ${count.toFixed(2)}`)
        .join(', ');
    return (
      `database round trips per request, ${name}: ${cell(roundTripsPerRequest, 2)} (${kinds(false)}); ` +
      `background ${cell(backgroundRoundTripsPerRequest, 2)} (${kinds(true)})`
    );
  });
}

/** The stage table: the write's own stages in order, then the rest, most first. */
function stageLines(profile: StageProfile): string[] {
  const own = WRITE_STAGES.map((stage) => [stage, profile.stages[stage] ?? 0] as const);
  const rest = Object.entries(profile.stages)
    .filter(([stage]) => !(WRITE_STAGES as readonly string[]).includes(stage))
    .sort((a, b) => b[1] - a[1]);
  const width = Math.max(...[...own, ...rest].map(([stage]) => stage.length));
  const line = ([stage, ms]: readonly [string, number]): string =>
    `  ${stage.padEnd(width)}  ${ms.toFixed(3).padStart(6)} ms  ${((ms / profile.busyMsPerWrite) * 100).toFixed(1).padStart(5)}%`;
  return [
    `where ${profile.gateway}'s main-thread CPU goes per write (profiled closed loop, ${profile.seconds} s, ${profile.writes} writes):`,
    ...own.map(line),
    ...rest.map(line),
    `  ${'all'.padEnd(width)}  ${profile.busyMsPerWrite.toFixed(3).padStart(6)} ms  (with the profiler on)`,
  ];
}

export function formatChecks(checks: TargetCheck[]): string {
  return [
    '\nTargets',
    ...checks.map(
      (check) =>
        `${check.met ? 'met    ' : 'NOT MET'}  ${check.gateway}: ${check.target} (${check.measured})`,
    ),
  ].join('\n');
}
