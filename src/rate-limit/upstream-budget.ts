import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { RateLimit } from '../config/app-config';

/** What an upstream call is for: changing something, or reading (a caller's read or a stream's poll). */
export type BudgetUse = 'read' | 'write';

/** Why a call was refused: every call of the window is spent, or reads' share, or this caller's. */
export type BudgetRefusalReason = 'budget' | 'read-share' | 'caller-share';

export interface BudgetRefusal {
  reason: BudgetRefusalReason;
  /** When the call could be tried again: the oldest call that stands in its way leaves the window. */
  retryAfterMs: number;
}

/** One credential's budget as split between writes, reads and the callers that read. */
export interface BudgetRule {
  /** Calls allowed in any window. */
  limit: number;
  /** The upstream's window, lengthened so that calls late on the wire still count in it. */
  windowMs: number;
  /** Calls of a window reads may take; the rest is kept for writes. */
  readShare: number;
  /** Reads of a window each caller is guaranteed; beyond it a caller takes only what others may not need. */
  callerShare: number;
}

/** A call counted in a credential's window. */
export interface BudgetEntry {
  at: number;
  use: BudgetUse;
  /** Who asked for it (a tag, never a name); only reads are told apart by caller. */
  caller: string;
}

/**
 * The split of an upstream limit: `writeReserve` (a fraction) of each window only writes may take,
 * at least one call is left to reads; each caller is guaranteed `callerReadShare` (a fraction) of
 * reads' share, at least one call. The window is longer than the upstream's by a twentieth (0.1 to
 * 1 s): counted from when the gateway sends, a call answered late would otherwise fall into the
 * upstream's next window together with calls the gateway counts in its own next one.
 */
export function budgetRule(limit: RateLimit, writeReserve: number, callerReadShare: number): BudgetRule {
  const reserved = Math.min(limit.limit - 1, Math.floor(limit.limit * writeReserve));
  const readShare = limit.limit - reserved;
  return {
    limit: limit.limit,
    windowMs: limit.windowMs + Math.min(1_000, Math.max(100, Math.round(limit.windowMs / 20))),
    readShare,
    callerShare: Math.max(1, Math.floor(readShare * callerReadShare)),
  };
}

/**
 * Whether one more call fits the window holding `entries` (all younger than the rule's window),
 * and if not, why. Writes may take every call of the window. Reads may take `readShare` of them;
 * a caller within its `callerShare` takes any of those still free; beyond it, only while enough
 * stay free for every other caller of the window to reach its share, and for one caller more, in
 * the way a tenant's write slots are shared (WriteSlots).
 */
export function decide(
  entries: readonly BudgetEntry[],
  rule: BudgetRule,
  use: BudgetUse,
  caller: string,
  now: number,
): BudgetRefusal | null {
  const expiry = (kept: readonly BudgetEntry[]) => ({
    retryAfterMs: Math.max(1, Math.min(...kept.map((entry) => entry.at)) + rule.windowMs - now),
  });
  if (entries.length >= rule.limit) return { reason: 'budget', ...expiry(entries) };
  if (use === 'write') return null;
  const reads = entries.filter((entry) => entry.use === 'read');
  if (reads.length >= rule.readShare) return { reason: 'read-share', ...expiry(reads) };
  const byCaller = new Map<string, number>();
  for (const read of reads) byCaller.set(read.caller, (byCaller.get(read.caller) ?? 0) + 1);
  const own = byCaller.get(caller) ?? 0;
  if (own < rule.callerShare) return null;
  let unusedByOthers = 0;
  for (const [other, count] of byCaller) {
    if (other !== caller) unusedByOthers += Math.max(0, rule.callerShare - count);
  }
  const free = rule.readShare - reads.length;
  if (free - 1 >= unusedByOthers + rule.callerShare) return null;
  return { reason: 'caller-share', ...expiry(reads.filter((read) => read.caller === caller)) };
}

// Past this many credentials counted, those with no call left in their window are forgotten.
const PRUNE_ABOVE_KEYS = 10_000;

/** The windows of one process: exact within it, and what replicas fall back on without Redis. */
export class MemoryBudgetLog {
  private readonly windows = new Map<string, { windowMs: number; entries: BudgetEntry[] }>();

  constructor(private readonly now: () => number = Date.now) {}

  take(key: string, rule: BudgetRule, use: BudgetUse, caller: string): BudgetRefusal | null {
    const now = this.now();
    if (this.windows.size >= PRUNE_ABOVE_KEYS) {
      for (const [other, window] of this.windows) {
        if (window.entries.every((entry) => entry.at <= now - window.windowMs)) this.windows.delete(other);
      }
    }
    const entries = (this.windows.get(key)?.entries ?? []).filter((entry) => entry.at > now - rule.windowMs);
    const refusal = decide(entries, rule, use, caller, now);
    if (refusal === null) entries.push({ at: now, use, caller });
    this.windows.set(key, { windowMs: rule.windowMs, entries });
    return refusal;
  }
}

// Forgets what left the window and answers Redis's clock, the window's version and what remains.
const READ_WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
return {now, redis.call('GET', KEYS[2]) or '0', redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')}`;

// Counts the call only if nobody counted one since the window was read.
const ADD_IF_UNCHANGED = `
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[1] then return 0 end
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), ARGV[2])
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

// Takes that lose this many races in a row are counted as refused for a moment, not spun on.
const MAX_RACES = 8;

/**
 * The windows shared by the replicas in Redis: a sorted set of calls by Redis's own clock, and a
 * version that each counted call raises. The decision is `decide`'s, made here on what was read
 * and kept only if the version has not moved meanwhile; a take that lost the race reads again.
 */
export class RedisBudgetLog {
  constructor(private readonly redis: Redis) {}

  async take(key: string, rule: BudgetRule, use: BudgetUse, caller: string): Promise<BudgetRefusal | null> {
    const keys = [key, `${key}:version`];
    for (let race = 0; race < MAX_RACES; race++) {
      const [now, version, flat] = (await this.redis.eval(READ_WINDOW, 2, ...keys, rule.windowMs)) as [
        number,
        string,
        string[],
      ];
      const entries: BudgetEntry[] = [];
      for (let i = 0; i < flat.length; i += 2) {
        const [, kind, tag] = flat[i].split(':');
        entries.push({ at: Number(flat[i + 1]), use: kind === 'w' ? 'write' : 'read', caller: tag });
      }
      const refusal = decide(entries, rule, use, caller, now);
      if (refusal !== null) return refusal;
      const member = `${randomUUID()}:${use === 'write' ? 'w' : 'r'}:${caller}`;
      const added = await this.redis.eval(ADD_IF_UNCHANGED, 2, ...keys, version, member, rule.windowMs);
      if (added === 1) return null;
    }
    return { reason: 'budget', retryAfterMs: 50 };
  }
}
