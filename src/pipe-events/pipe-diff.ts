import { createHash } from 'node:crypto';
import type { PipeEventType } from './pipe-event';

export type Pipe = Record<string, unknown> & { id: string };

/**
 * A pipe as the poller compares it: its state, its scaling, and a digest of everything else, small
 * enough to keep for every pipe of every service followed, and to hand to the next poller.
 */
export interface PipeSnapshot {
  state: string;
  scaling: string;
  rest: string;
}

// Moves with every change, so it would make each state change an update too.
const IGNORED = new Set(['state', 'scaling', 'updatedAt']);

export function snapshotOf(pipe: Pipe): PipeSnapshot {
  const rest = Object.fromEntries(Object.entries(pipe).filter(([key]) => !IGNORED.has(key)));
  return {
    state: typeof pipe.state === 'string' ? pipe.state : JSON.stringify(pipe.state ?? null),
    scaling: JSON.stringify(pipe.scaling ?? null),
    rest: createHash('sha256').update(JSON.stringify(rest)).digest('base64'),
  };
}

export interface PipeDifference {
  type: PipeEventType;
  pipeId: string;
  pipe?: Pipe;
}

/**
 * The events that take `before` to `after`: a new pipe is created, a missing one deleted, and of
 * one that changed, its state, its scaling and the rest each make an event of their own.
 */
export function differences(
  before: ReadonlyMap<string, PipeSnapshot>,
  after: readonly Pipe[],
): PipeDifference[] {
  const found: PipeDifference[] = [];
  const seen = new Set<string>();
  for (const pipe of after) {
    seen.add(pipe.id);
    const now = snapshotOf(pipe);
    const then = before.get(pipe.id);
    if (then === undefined) {
      found.push({ type: 'pipe.created', pipeId: pipe.id, pipe });
      continue;
    }
    if (now.state !== then.state) found.push({ type: 'pipe.state', pipeId: pipe.id, pipe });
    if (now.scaling !== then.scaling) found.push({ type: 'pipe.scaling', pipeId: pipe.id, pipe });
    if (now.rest !== then.rest) found.push({ type: 'pipe.updated', pipeId: pipe.id, pipe });
  }
  for (const pipeId of before.keys()) {
    if (!seen.has(pipeId)) found.push({ type: 'pipe.deleted', pipeId });
  }
  return found;
}

/** The pipes of a list answer's `result` that have an id. */
export function pipesOf(result: unknown): Pipe[] {
  if (!Array.isArray(result)) return [];
  return result.filter(
    (item): item is Pipe =>
      typeof item === 'object' && item !== null && typeof (item as Pipe).id === 'string',
  );
}
