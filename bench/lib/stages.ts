import { readFileSync } from 'node:fs';

/**
 * Where a write's CPU goes, by stage, from a V8 CPU profile of the gateway taken under the same
 * closed loop the bench measures: every sample is put in the stage of the innermost function on
 * its stack that belongs to one (a stage is the gateway's code for one step of a write, by file
 * and, where a file serves several steps, by function). A sample with none on its stack, such as a
 * database or HTTP client's callback reading an answer, goes by the innermost package it is in.
 * Work of the background services (the audit sinks, the checkpoint signer) is theirs, whatever
 * it calls. The profiler only samples the main thread, and the stages are its CPU time.
 */

/** The stages of a write, in the order a write goes through them. */
export const WRITE_STAGES = [
  'parsing the body',
  'checking the body',
  'resolving references',
  'history',
  'idempotency',
  'write slot',
  'audit append',
  'event notify',
  'upstream call',
  'scrubbing the answer',
] as const;

interface Rule {
  stage: string;
  /** The file, as its path under dist/ ends. */
  file: RegExp;
  /** Only these functions of the file; all of them when left out. */
  functions?: ReadonlySet<string>;
  /** A background service: everything it calls is its own, whatever stage the callee belongs to. */
  background?: true;
}

const src = (path: string): RegExp => new RegExp(`/dist/src/${path}\\.js$`);
const only = (...names: string[]): ReadonlySet<string> => new Set(names);

const STAGE_RULES: readonly Rule[] = [
  { stage: 'audit sinks (background)', file: src('audit-sinks/[^/]+'), background: true },
  {
    stage: 'audit checkpoints (background)',
    file: src('audit/audit-checkpoint(\\.service)?'),
    background: true,
  },
  { stage: 'parsing the body', file: src('common/json-body'), functions: only('parseJsonBody') },
  {
    stage: 'checking the body',
    file: src('(common/validation/(json-schema|checked-body)|pipes/schema/[^/]+|dashboards/schema/[^/]+)'),
  },
  { stage: 'resolving references', file: src('vault/references/secret-references') },
  { stage: 'history', file: src('(pipes/history/[^/]+|dashboards/dashboard-versions\\.repository)') },
  { stage: 'idempotency', file: src('idempotency/[^/]+') },
  // A dashboard's writes also take its claim (dashboard-writes.ts): a slot of the dashboard's own.
  {
    stage: 'write slot',
    file: src(
      '(rate-limit/write-admission|dashboards/dashboard-writes|dashboards/dashboard-write-heads\\.repository)',
    ),
  },
  {
    stage: 'audit append',
    file: src(
      '(audit/(audit\\.service|audit-events\\.repository|audit-chain|audited-upstream-writes)|common/batcher|crypto/audit-chain-keys)',
    ),
  },
  { stage: 'event notify', file: src('(pipe-events/[^/]+|pipe-reads/(pipe-reads\\.service|shared-reads))') },
  {
    stage: 'scrubbing the answer',
    file: src('redaction/redact'),
    functions: only('redactParsedJson', 'redactText'),
  },
  {
    stage: 'scrubbing the answer',
    file: src('(redaction/(secret-value-matcher|value-echo)|upstream/value-echoes)'),
  },
  {
    stage: 'upstream call',
    file: src('(upstream/[^/]+|credentials/upstream-credentials|rate-limit/upstream-budgets?)'),
  },
  { stage: 'authentication', file: src('(auth/[^/]+|crypto/hashing)') },
];

/** Where code with no stage on its stack lives, by the innermost frame that says. */
const PACKAGE_RULES: readonly { stage: string; url: RegExp }[] = [
  {
    stage: 'database client (Prisma, pg)',
    url: /\/node_modules\/(pg|pg-[a-z]+|@prisma\/[^/]+|postgres-[a-z]+)\/|\/dist\/src\/(database|generated)\//,
  },
  { stage: 'upstream call', url: /\/node_modules\/(undici|axios|cockatiel)\// },
  {
    stage: 'logging',
    url: /\/node_modules\/(pino|pino-[a-z]+|sonic-boom|thread-stream)\/|\/dist\/src\/logging\//,
  },
  { stage: 'metrics', url: /\/node_modules\/prom-client\/|\/dist\/src\/metrics\// },
  {
    stage: 'framework (Fastify, Nest)',
    url: /\/node_modules\/(fastify|@fastify\/[^/]+|@nestjs\/[^/]+|find-my-way|avvio|light-my-request|rxjs|reflect-metadata|fast-json-stringify|secure-json-parse)\//,
  },
  { stage: 'other gateway code', url: /\/dist\/src\// },
  { stage: 'Node (sockets, streams, HTTP parsing)', url: /^node:/ },
];

const GC = 'garbage collection';
const OUTSIDE_JAVASCRIPT = 'outside JavaScript (native, I/O)';
const OTHER = 'other';

interface CallFrame {
  functionName: string;
  url: string;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

function stageRule(frame: CallFrame): Rule | undefined {
  return STAGE_RULES.find(
    (rule) => rule.file.test(frame.url) && (!rule.functions || rule.functions.has(frame.functionName)),
  );
}

/** The stage of a sample whose stack is `stack`, leaf first. */
export function stageOf(stack: readonly CallFrame[]): string | null {
  const leaf = stack[0]?.functionName;
  if (leaf === '(idle)') return null;
  if (leaf === '(garbage collector)') return GC;
  if (leaf === '(program)') return OUTSIDE_JAVASCRIPT;
  const rules = stack.map(stageRule);
  const background = rules.find((rule) => rule?.background);
  if (background) return background.stage;
  const innermost = rules.find((rule) => rule !== undefined);
  if (innermost) return innermost.stage;
  for (const frame of stack) {
    const origin = PACKAGE_RULES.find((rule) => rule.url.test(frame.url));
    if (origin) return origin.stage;
  }
  return OTHER;
}

export interface StageTimes {
  /** Main-thread CPU time of the profile, ms (idle left out). */
  busyMs: number;
  /** By stage, ms. */
  stages: Record<string, number>;
}

/** CPU time per stage in a V8 .cpuprofile. */
export function stageTimes(path: string): StageTimes {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const parents = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const totalHits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const msPerHit = totalHits === 0 ? 0 : (profile.endTime - profile.startTime) / 1000 / totalHits;
  const stages: Record<string, number> = {};
  let busyMs = 0;
  for (const node of profile.nodes) {
    if (!node.hitCount) continue;
    const stack: CallFrame[] = [];
    for (let at: ProfileNode | undefined = node; at; at = parents.get(at.id)) stack.push(at.callFrame);
    const stage = stageOf(stack);
    if (stage === null) continue;
    const ms = node.hitCount * msPerHit;
    stages[stage] = (stages[stage] ?? 0) + ms;
    busyMs += ms;
  }
  return { busyMs, stages };
}
