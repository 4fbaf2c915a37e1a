import type { LoadResult } from './load';
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
  gateways: Record<string, GatewaySummary>;
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
  const gateways: Record<string, GatewaySummary> = {};
  for (const name of names.filter((target) => !REFERENCES.has(target))) {
    const throughputRatios = throughputOver(name, BASELINE);
    gateways[name] = {
      throughputVsBaseline: median(throughputRatios),
      throughputRatios,
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

/** The targets of bench/README.md, checked against the medians. */
export function checkTargets(routes: RouteSummary[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const gatewayNames = Object.keys(routes[0]?.gateways ?? {}).filter((name) => !isCompared(name));
  for (const gateway of gatewayNames) {
    for (const route of routes) {
      const summary = route.gateways[gateway];
      if (route.kind === 'read') {
        checks.push(
          {
            target: `${route.route}: throughput ≥ 50% of the baseline proxy`,
            gateway,
            measured: `${Math.round(summary.throughputVsBaseline * 100)}%`,
            met: summary.throughputVsBaseline >= 0.5,
          },
          {
            target: `${route.route}: added p50 ≤ 1 ms at 500 req/s`,
            gateway,
            measured: `${signed(summary.addedP50Ms)} ms`,
            met: summary.addedP50Ms <= 1,
          },
          {
            target: `${route.route}: added p99 ≤ 5 ms at 500 req/s`,
            gateway,
            measured: `${signed(summary.addedP99Ms)} ms; the baseline proxy adds ${signed(route.baselineAdded.p99Ms)} ms`,
            met: summary.addedP99Ms <= 5,
          },
        );
      }
      if (route.kind === 'write' || route.kind === 'create') {
        const { closed, fixedFailed } = route.targets[gateway];
        checks.push(
          {
            target: `${route.route}: ≥ 500 req/s in the closed loop`,
            gateway,
            measured: `${Math.round(closed.rps)} req/s`,
            met: closed.rps >= 500,
          },
          {
            target: `${route.route}: no refusal at a fixed 500 req/s`,
            gateway,
            measured: fixedFailed === 0 ? 'none' : `${fixedFailed} refused or failed`,
            met: fixedFailed === 0,
          },
          {
            target: `${route.route}: gateway CPU ≤ 1 ms per write`,
            gateway,
            measured: `${closed.cpuMsPerRequest.toFixed(3)} ms`,
            met: closed.cpuMsPerRequest <= 1,
          },
          {
            target: `${route.route}: database CPU ≤ 1 ms per write`,
            gateway,
            measured: Number.isNaN(closed.databaseCpuMsPerRequest)
              ? 'not measured (the database is on another host)'
              : `${closed.databaseCpuMsPerRequest.toFixed(3)} ms`,
            met: closed.databaseCpuMsPerRequest <= 1,
          },
        );
      }
    }
    const peak = Math.max(...routes.map((route) => route.gateways[gateway].rssPeakMb));
    checks.push({
      target: 'RSS ≤ 200 MB under load',
      gateway,
      measured: `${Math.round(peak)} MB`,
      met: peak <= 200,
    });
  }
  return checks;
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
  ].join('\n');
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
