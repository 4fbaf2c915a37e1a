import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type Redis from 'ioredis';
import { closeRedis, openRedis } from '../common/redis-client';
import type { AppConfig } from '../config/app-config';
import type { Kept } from './read-cache';

/** Where a read's answer is kept in Redis: ids only, never a value. */
export interface SharedPlace {
  /** `<tenant>:<organization>:<service>`: what a write of the service drops at once. */
  scope: string;
  /** The read: `list`, or `<kind>:<pipeId>`. */
  read: string;
}

interface Stored {
  /** The vault identity the answer was scrubbed against. */
  vault: string;
  /** The service's write count when the read began. */
  generation: string;
  fetchedAt: number;
  value: unknown;
}

const PREFIX = 'pipes-gateway:reads:';
// Renewed by its holder while its upstream call runs; short, so that a lost holder delays others little.
const LOCK_MS = 1_000;
const LOCK_POLL_MS = 25;
// A Redis slower than this is treated as down for the read: the upstream is asked instead.
const COMMAND_TIMEOUT_MS = 250;
// The write count outlives every answer it guards; once it lapses nothing read under it remains.
const GENERATION_TTL_MS = 3_600_000;
const START_WAIT_MS = 1_000;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * Pipe read answers shared by the replicas through Redis (REDIS_URL), so that a deployment, not each
 * replica, makes one upstream call per read and lifetime. Answers are stored as served (scrubbed),
 * with the vault identity they were scrubbed against and the service's write count, which a write
 * raises so that nothing read before it serves again. A replica missing an answer takes a short lock
 * so that the others wait for its call instead of making their own. Redis failing never fails a
 * read: the read goes upstream as it would without Redis.
 */
@Injectable()
export class SharedReads implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SharedReads.name);
  private redis: Redis | null = null;
  private readonly ttlMs: number;
  /** How long a replica waits for another's call: the longest an upstream call may take. */
  private readonly waitMs: number;
  private failing = false;

  constructor(private readonly config: ConfigService<AppConfig, true>) {
    // Off (null): PipeReads shares nothing, here or through Redis.
    this.ttlMs = config.get('pipeReads', { infer: true }).cacheMs ?? 0;
    this.waitMs = config.get('upstream', { infer: true }).timeoutMs + LOCK_MS;
  }

  async onModuleInit(): Promise<void> {
    const url = this.config.get('redisUrl', { infer: true });
    if (!url || this.ttlMs === 0) return;
    // Commands fail at once while Redis is away (no offline queue) and after a short timeout when it
    // stops answering.
    const redis = await openRedis(url, { enableOfflineQueue: false, commandTimeout: COMMAND_TIMEOUT_MS });
    this.redis = redis;
    // Without an offline queue, reads made before the connection is up go upstream: wait briefly.
    await Promise.race([
      once(redis, 'ready').catch(() => undefined),
      sleep(START_WAIT_MS, undefined, { ref: false }),
    ]);
  }

  async onModuleDestroy(): Promise<void> {
    await closeRedis(this.redis);
  }

  get enabled(): boolean {
    return this.redis !== null;
  }

  /**
   * The answer another replica (or this one) stored, if its vault and write count are current and it
   * is younger than `maxAgeMs`; else `fetch`'s, stored for the others. While another replica's call
   * is under way, waits for its answer, up to the lock's lifetime.
   */
  async read<V>(
    place: SharedPlace,
    vault: string,
    fetch: () => Promise<V>,
    maxAgeMs: number,
  ): Promise<Kept<V>> {
    const redis = this.redis;
    if (!redis) return own(fetch);
    const key = entryKey(place);
    const lockKey = `${key}:lock`;
    const token = randomUUID();
    let generation: string;
    let held = false;
    try {
      const found = await this.lookup<V>(redis, place, vault, maxAgeMs);
      if (found.kept) return found.kept;
      // Another replica may have stored its answer and let go of the lock since the look: look again.
      held = (await redis.set(lockKey, token, 'PX', LOCK_MS, 'NX')) === 'OK';
      const after = held
        ? await this.lookup<V>(redis, place, vault, maxAgeMs)
        : await this.waitForHolder<V>(redis, place, vault, maxAgeMs, lockKey);
      if (after.kept) {
        if (held) await redis.eval(RELEASE, 1, lockKey, token);
        return after.kept;
      }
      generation = after.generation;
      this.recovered();
    } catch {
      this.failed();
      return own(fetch);
    }
    const renewing = held
      ? setInterval(
          () => void redis.eval(RENEW, 1, lockKey, token, LOCK_MS).catch(() => undefined),
          LOCK_MS / 2,
        )
      : undefined;
    renewing?.unref();
    const fetchedAt = Date.now();
    try {
      const value = await fetch();
      const stored: Stored = { vault, generation, fetchedAt, value };
      const lifetime = this.ttlMs - (Date.now() - fetchedAt);
      if (lifetime > 0) {
        await redis.set(key, JSON.stringify(stored), 'PX', lifetime).catch(() => this.failed());
      }
      return { value, fetchedAt };
    } finally {
      clearInterval(renewing);
      if (held) await redis.eval(RELEASE, 1, lockKey, token).catch(() => undefined);
    }
  }

  /**
   * The service's write count as the replicas share it; null without Redis, or while it fails (then
   * each replica's own copies serve, dropped when it hears of a write).
   */
  async writeCount(scope: string): Promise<string | null> {
    const redis = this.redis;
    if (!redis) return null;
    try {
      return (await redis.get(generationKey(scope))) ?? '0';
    } catch {
      this.failed();
      return null;
    }
  }

  /** A write to the service: what was stored of it before no longer serves, on any replica. */
  async drop(scope: string): Promise<void> {
    const redis = this.redis;
    if (!redis) return;
    try {
      const key = generationKey(scope);
      await redis.multi().incr(key).pexpire(key, GENERATION_TTL_MS).exec();
    } catch {
      this.failed();
    }
  }

  /**
   * Waits for the lock holder's answer while it holds the lock (renewed while its call runs), up to
   * the longest an upstream call may take; once the lock is gone without one, the caller reads itself.
   */
  private async waitForHolder<V>(
    redis: Redis,
    place: SharedPlace,
    vault: string,
    maxAgeMs: number,
    lockKey: string,
  ): Promise<{ kept: Kept<V> | null; generation: string }> {
    const until = Date.now() + this.waitMs;
    for (;;) {
      await sleep(LOCK_POLL_MS);
      const found = await this.lookup<V>(redis, place, vault, maxAgeMs);
      if (found.kept || Date.now() >= until) return found;
      // The holder stores its answer before letting go: a lock gone since the look may have left one.
      if ((await redis.exists(lockKey)) === 0) return this.lookup<V>(redis, place, vault, maxAgeMs);
    }
  }

  private async lookup<V>(
    redis: Redis,
    place: SharedPlace,
    vault: string,
    maxAgeMs: number,
  ): Promise<{ kept: Kept<V> | null; generation: string }> {
    const [generation, text] = await redis.mget(generationKey(place.scope), entryKey(place));
    const current = generation ?? '0';
    const stored = text ? parse(text) : null;
    const usable =
      stored !== null &&
      stored.vault === vault &&
      stored.generation === current &&
      Date.now() - stored.fetchedAt < Math.min(this.ttlMs, maxAgeMs);
    return {
      kept: usable ? { value: stored.value as V, fetchedAt: stored.fetchedAt } : null,
      generation: current,
    };
  }

  private failed(): void {
    if (this.failing) return;
    this.failing = true;
    this.logger.warn('Redis is not reachable: pipe reads are not shared between replicas until it is');
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.log('Redis is reachable again: pipe reads are shared between replicas');
  }
}

async function own<V>(fetch: () => Promise<V>): Promise<Kept<V>> {
  const fetchedAt = Date.now();
  return { value: await fetch(), fetchedAt };
}

function entryKey(place: SharedPlace): string {
  return `${PREFIX}${place.scope}:${place.read}`;
}

function generationKey(scope: string): string {
  return `${PREFIX}${scope}:generation`;
}

function parse(text: string): Stored | null {
  try {
    const stored = JSON.parse(text) as Stored;
    return typeof stored?.vault === 'string' && typeof stored.fetchedAt === 'number' ? stored : null;
  } catch {
    return null;
  }
}
