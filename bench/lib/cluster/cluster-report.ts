import type { ClusterOutcome, PhaseAnswers, ReplicaStop } from './cluster-run';

// Two pollers of one service would make twice this; a takeover after a stop may add one call.
const MOST_LIST_CALLS_PER_INTERVAL = 1.1;

/** One target of bench/README.md's cluster section, checked against a run. */
export interface ClusterCheck {
  target: string;
  measured: string;
  met: boolean;
  /** Correctness holds on any machine (the test asserts it); a figure depends on the machine. */
  kind: 'correctness' | 'figure';
}

const count = (items: Record<string, number>): number => Object.values(items).reduce((sum, n) => sum + n, 0);
const listed = (items: Record<string, number>): string =>
  Object.keys(items).length === 0
    ? 'none'
    : Object.entries(items)
        .map(([name, n]) => `${name} ×${n}`)
        .join(', ');

export function checkCluster(outcome: ClusterOutcome): ClusterCheck[] {
  const { rolling, kill, streams, upstreamChanges, chains, pollers, budgets, probe, ceilings } = outcome;
  const busiestPoller = Math.max(...pollers.map((poller) => poller.listCallsPerInterval));
  const refusedUpstream = budgets.reduce((sum, budget) => sum + budget.refusedUpstream, 0);
  const [manyThree, manyOne] = ceilings;
  const checks: ClusterCheck[] = [
    {
      target: 'rolling restart: no failed request',
      measured: `${count(rolling.answers.failed)} of ${rolling.answers.requests} (${listed(rolling.answers.failed)})`,
      met: count(rolling.answers.failed) === 0,
      kind: 'correctness',
    },
    {
      target: 'rolling restart: each replica out of the balancer before it closed',
      measured: rolling.stops.map(stopLine).join('; '),
      met: rolling.stops.every((stop) => stop.exit === 'exit 0' && stop.outOfBalancerMs !== null),
      kind: 'correctness',
    },
    {
      target: 'event streams: every reader resumed, no event missed, repeated or out of order, no reset',
      measured:
        `${streams.followers} readers, ${streams.events} events, ${streams.resumes} resumes ` +
        `(stream.end: ${listed(streams.ends)}; cut: ${streams.cuts}); missed ${streams.missed}, ` +
        `repeated ${streams.repeated}, out of order ${streams.outOfOrder}, resets ${streams.resets}` +
        (streams.samples.length > 0 ? `; first problems: ${streams.samples.join(' | ')}` : ''),
      met:
        streams.missed === 0 &&
        streams.repeated === 0 &&
        streams.outOfOrder === 0 &&
        streams.resets === 0 &&
        streams.resumes >= streams.followers,
      kind: 'correctness',
    },
    {
      target: 'every state changed upstream reported to the readers, whichever replica polled then',
      measured: `${upstreamChanges.made - upstreamChanges.missed} of ${upstreamChanges.made}`,
      met: upstreamChanges.missed === 0,
      kind: 'correctness',
    },
    {
      target: 'replica killed: no write answered 2xx whose effect is missing',
      measured: `${kill.effectMissing.length}${kill.effectMissing.length > 0 ? `: ${JSON.stringify(kill.effectMissing.slice(0, 5))}` : ''}`,
      met: kill.effectMissing.length === 0,
      kind: 'correctness',
    },
    {
      target:
        'writes left pending only by requests in flight on the killed replica, none answered 2xx, each reconciled',
      measured: pendingLine(kill.pending),
      met: kill.pending.every(
        (write) => write.phase === 'kill' && (write.status < 200 || write.status >= 300),
      ),
      kind: 'correctness',
    },
    {
      target: "every tenant's audit chain verifies (verify route and tools/verify-audit-log.mjs)",
      measured: `${chains.tenants - chains.failedApi.length} of ${chains.tenants} by the route; offline: ${chains.offline.split('\n')[0]}`,
      met: chains.failedApi.length === 0 && !chains.offline.startsWith('failed'),
      kind: 'correctness',
    },
    {
      target: `one poller per service: list calls per poll interval ≤ ${MOST_LIST_CALLS_PER_INTERVAL}`,
      measured: pollers.map((poller) => poller.listCallsPerInterval.toFixed(2)).join(', '),
      met: busiestPoller <= MOST_LIST_CALLS_PER_INTERVAL,
      kind: 'correctness',
    },
    {
      target: "upstream calls within each credential's budget: none refused by the upstream",
      measured:
        `refused ${refusedUpstream}; most in any window: ` +
        budgets.map((budget) => `${budget.credential} ${budget.mostInWindow}/${budget.limit}`).join(', '),
      met: refusedUpstream === 0,
      kind: 'correctness',
    },
    {
      target: "the budget probe's writes beyond its budget refused with 429, nothing else failing",
      measured:
        `${probe.refused} of ${probe.requests} refused, ${probe.cutByKill} cut by the kill, ` +
        `${probe.failures.length} failed otherwise`,
      met: probe.refused > 0 && probe.failures.length === 0,
      kind: 'correctness',
    },
  ];
  if (manyThree && manyOne) {
    checks.push({
      target: "writes/s: three replicas no fewer than one's (they share this machine's cores)",
      measured: `${manyThree.writesPerSecond.toFixed(0)} vs ${manyOne.writesPerSecond.toFixed(0)} (×${(manyThree.writesPerSecond / manyOne.writesPerSecond).toFixed(2)})`,
      met: manyThree.writesPerSecond >= manyOne.writesPerSecond,
      kind: 'figure',
    });
  }
  return checks;
}

function stopLine(stop: ReplicaStop): string {
  const out =
    stop.outOfBalancerMs === null
      ? 'still in the balancer when it ended'
      : `out after ${stop.outOfBalancerMs} ms`;
  return `${stop.replica} ${out}, ended after ${stop.endedMs} ms (${stop.exit}), back after ${stop.backMs} ms`;
}

function pendingLine(pending: ClusterOutcome['kill']['pending']): string {
  if (pending.length === 0) return 'none left pending';
  const kinds: Record<string, number> = {};
  for (const write of pending) kinds[write.kind] = (kinds[write.kind] ?? 0) + 1;
  const reached = pending.filter((write) => write.reachedUpstream).length;
  const creates = pending.filter((write) => write.historyOutcome !== undefined);
  const phases: Record<string, number> = {};
  for (const write of pending)
    phases[write.phase ?? 'not the load'] = (phases[write.phase ?? 'not the load'] ?? 0) + 1;
  return (
    `${pending.length} (${listed(kinds)}; sent while ${listed(phases)}): ${reached} reached the upstream, ` +
    `${pending.length - reached} never sent` +
    (creates.length > 0
      ? `; pipe creates' history records: ${creates.map((write) => write.historyOutcome).join(', ')}`
      : '')
  );
}

function answersLine(name: string, answers: PhaseAnswers): string {
  return `${name}: ${answers.requests} requests (${answers.writes} writes), failed ${count(answers.failed)}: ${listed(answers.failed)}`;
}

/** The run as `npm run bench:cluster` prints it. */
export function formatCluster(outcome: ClusterOutcome): string {
  const { plan, kill, ceilings } = outcome;
  const [manyThree, manyOne, oneThree] = ceilings;
  const lines = [
    `\n${plan.replicas} replicas behind HAProxy, ${plan.streams} event streams, ${plan.tenants} tenants' mixed load ×${plan.pace}, drain ${plan.drainMs} ms`,
    answersLine('rolling restart', outcome.rolling.answers),
    ...outcome.rolling.stops.map((stop) => `  ${stopLine(stop)}`),
    answersLine(`${kill.stop.replica} killed (down ${plan.downSeconds} s)`, kill.answers),
    `  ${stopLine(kill.stop)}`,
    '\nceilings: credential rotations (one transaction and one audit append each) in a closed loop',
    ...ceilings.map(
      (figure) =>
        `  ${figure.name} (${figure.tenants}), ${figure.replicas} replica(s), ${figure.connections} connections: ` +
        `${figure.writesPerSecond.toFixed(0)} writes/s  p50 ${figure.p50Ms.toFixed(1)} ms  p99 ${figure.p99Ms.toFixed(1)} ms` +
        (figure.failed > 0 ? `  failed ${figure.failed} ${JSON.stringify(figure.statuses)}` : ''),
    ),
  ];
  if (manyThree && manyOne && oneThree) {
    lines.push(
      `  one tenant's chain takes ${oneThree.writesPerSecond.toFixed(0)} appends/s, ` +
        `${((100 * oneThree.writesPerSecond) / manyThree.writesPerSecond).toFixed(0)}% of many tenants' ${manyThree.writesPerSecond.toFixed(0)}`,
    );
  }
  lines.push(
    '\ntargets',
    ...checkCluster(outcome).map(
      (check) => `${check.met ? 'met    ' : 'NOT MET'}  ${check.target}: ${check.measured}`,
    ),
  );
  return lines.join('\n');
}
