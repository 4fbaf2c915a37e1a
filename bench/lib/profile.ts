import { readFileSync } from 'node:fs';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
}

export interface Frame {
  name: string;
  /** Share of all samples, percent. */
  selfPercent: number;
}

export interface ProfileSummary {
  durationMs: number;
  /** For an allocation profile: sampled bytes allocated per request. */
  bytesPerRequest?: number;
  frames: Frame[];
  /** Self time grouped by where the code lives: a package, node internals, the gateway's own code. */
  byOrigin: Frame[];
}

/** Where a frame's code lives, for grouping: `undici`, `@nestjs/core`, `node internals`, `src`, … */
function originOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : 'native';
  if (url.startsWith('node:')) return 'node internals';
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1];
  const own = /\/dist\/(src|sandbox|bench)\//.exec(url);
  return own ? own[1] : url;
}

function frameName(functionName: string, url: string, lineNumber: number): string {
  const file = url.replace(/^.*\/(node_modules|dist)\//, '');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

function top(totals: Map<string, number>, all: number, count: number): Frame[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => ({ name, selfPercent: (hits / all) * 100 }));
}

/** Self time per function (samples where it was on top of the stack) from a V8 .cpuprofile. */
export function summariseProfile(path: string, count = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byFrame = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  let all = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = frameName(functionName, url, lineNumber);
    byFrame.set(name, (byFrame.get(name) ?? 0) + hits);
    const origin = originOf(url, functionName);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + hits);
    all += hits;
  }
  return {
    durationMs: (profile.endTime - profile.startTime) / 1000,
    frames: top(byFrame, all, count),
    byOrigin: top(byOrigin, all, count),
  };
}

interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/** Bytes allocated per function (where the allocation happened) from a V8 .heapprofile. */
export function summariseAllocations(path: string, requests: number, count = 20): ProfileSummary {
  const { head } = JSON.parse(readFileSync(path, 'utf8')) as { head: AllocationNode };
  const byFrame = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  let all = 0;
  for (const pending = [head]; pending.length > 0;) {
    const node = pending.pop()!;
    pending.push(...node.children);
    if (node.selfSize === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = frameName(functionName, url, lineNumber);
    byFrame.set(name, (byFrame.get(name) ?? 0) + node.selfSize);
    const origin = originOf(url, functionName);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + node.selfSize);
    all += node.selfSize;
  }
  return {
    durationMs: NaN,
    bytesPerRequest: all / requests,
    frames: top(byFrame, all, count),
    byOrigin: top(byOrigin, all, count),
  };
}

export function formatProfile(summary: ProfileSummary): string {
  const list = (frames: Frame[]): string[] =>
    frames.map((frame) => `${frame.selfPercent.toFixed(1).padStart(5)}%  ${frame.name}`);
  return [
    summary.bytesPerRequest === undefined
      ? `\nCPU profile of the gateway (${(summary.durationMs / 1000).toFixed(1)} s), self time`
      : `\nAllocations of the gateway: ${Math.round(summary.bytesPerRequest / 1024)} KB per request (sampled), by where they happen`,
    'by origin:',
    ...list(summary.byOrigin),
    'top frames:',
    ...list(summary.frames),
  ].join('\n');
}
