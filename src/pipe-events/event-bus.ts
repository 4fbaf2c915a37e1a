import { Logger } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { closeRedis, openRedis } from '../common/redis-client';
import { Client, type QueryResult, type QueryResultRow } from 'pg';
import type { PipeSnapshot } from './pipe-diff';
import { type PipeEvent, streamKeyOf } from './pipe-event';

/**
 * How events reach every replica, and how one replica in the deployment is chosen to poll a
 * service. Each replica hears every event published, its own included, in one order for all.
 */
export interface EventBus {
  readonly kind: 'redis' | 'postgres' | 'in-process';
  start(onEvent: (event: PipeEvent) => void): Promise<void>;
  publish(event: PipeEvent): Promise<void>;
  /**
   * The recent events of the stream `key` that the bus keeps for every replica, oldest first, so
   * that a reader resumes on a replica where its service had no reader; null when it keeps none.
   */
  recent(key: string): Promise<PipeEvent[] | null>;
  /**
   * What the poller of the stream `key` saw at its last look, kept for `ttlMs` for whoever polls
   * next (another replica taking the lease, or this one after nobody read): its first look reports
   * what changed since, not from its own first look.
   */
  keepLook(key: string, look: ReadonlyMap<string, PipeSnapshot>, ttlMs: number): Promise<void>;
  /** The last look kept, or null when the bus keeps none (or it has expired). */
  lastLook(key: string): Promise<Map<string, PipeSnapshot> | null>;
  /** Takes, or keeps, the lease of `key` for `ttlMs`: true while this replica holds it. */
  hold(key: string, ttlMs: number): Promise<boolean>;
  release(key: string): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'pipes-gateway:pipe-events';
const LEASE_PREFIX = 'pipes-gateway:pipe-poller:';
const RECENT_PREFIX = 'pipes-gateway:pipe-events-recent:';
const RECENT_BYTES_PREFIX = 'pipes-gateway:pipe-events-recent-bytes:';
const LOOK_PREFIX = 'pipes-gateway:pipe-poller-look:';

/** What the bus keeps of each service's events for resumes: the bounds of what a replica keeps. */
export interface RecentBounds {
  /** Most events (PIPE_EVENTS_REPLAY). */
  count: number;
  /** Most bytes (PIPE_EVENTS_KEPT_BYTES_PER_SERVICE); past either bound the oldest go. */
  bytes: number;
  /** How long after its newest event a service's are kept (PIPE_EVENTS_RESUME_MS). */
  ttlMs: number;
}

/**
 * The pollers' last looks, kept in this process: for the buses with no store the replicas share, a
 * poller that stops (nobody reads) and starts again here continues from its last look.
 */
class LooksKeptHere {
  private readonly looks = new Map<string, { look: ReadonlyMap<string, PipeSnapshot>; until: number }>();
  private sweepAt = 0;

  keep(key: string, look: ReadonlyMap<string, PipeSnapshot>, ttlMs: number): Promise<void> {
    const now = Date.now();
    if (now >= this.sweepAt) {
      for (const [kept, { until }] of this.looks) if (until < now) this.looks.delete(kept);
      this.sweepAt = now + ttlMs;
    }
    this.looks.set(key, { look, until: now + ttlMs });
    return Promise.resolve();
  }

  last(key: string): Promise<Map<string, PipeSnapshot> | null> {
    const kept = this.looks.get(key);
    return Promise.resolve(kept && kept.until >= Date.now() ? new Map(kept.look) : null);
  }
}

/** A single process: events go straight to its subscribers, and it polls every service itself. */
export class InProcessBus implements EventBus {
  readonly kind = 'in-process';
  private onEvent: (event: PipeEvent) => void = () => undefined;
  private readonly looks = new LooksKeptHere();

  start(onEvent: (event: PipeEvent) => void): Promise<void> {
    this.onEvent = onEvent;
    return Promise.resolve();
  }

  publish(event: PipeEvent): Promise<void> {
    // Asynchronously, as the other buses deliver.
    queueMicrotask(() => this.onEvent(event));
    return Promise.resolve();
  }

  recent(): Promise<null> {
    return Promise.resolve(null);
  }

  keepLook(key: string, look: ReadonlyMap<string, PipeSnapshot>, ttlMs: number): Promise<void> {
    return this.looks.keep(key, look, ttlMs);
  }

  lastLook(key: string): Promise<Map<string, PipeSnapshot> | null> {
    return this.looks.last(key);
  }

  hold(): Promise<boolean> {
    return Promise.resolve(true);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

// Renews only a lease this replica still holds, and releases only its own.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
// Keeps the event in its service's list, within the count and byte bounds (oldest dropped first),
// and publishes it, in one step: the list holds the events in the order every replica hears them.
const PUBLISH_AND_KEEP = `
local count = redis.call('rpush', KEYS[1], ARGV[1])
local bytes = redis.call('incrby', KEYS[2], #ARGV[1])
while count > 0 and (count > tonumber(ARGV[2]) or bytes > tonumber(ARGV[3])) do
  bytes = redis.call('incrby', KEYS[2], -#redis.call('lpop', KEYS[1]))
  count = count - 1
end
redis.call('pexpire', KEYS[1], ARGV[4])
redis.call('pexpire', KEYS[2], ARGV[4])
return redis.call('publish', ARGV[5], ARGV[1])`;

/**
 * Redis pub/sub on one channel; each service's recent events kept in a list beside it; leases are
 * keys set with NX and a lifetime, renewed by their holder.
 */
export class RedisBus implements EventBus {
  readonly kind = 'redis';
  private readonly logger = new Logger('PipeEvents');
  private readonly holder = randomUUID();
  private commands: Redis | null = null;
  private subscriber: Redis | null = null;

  constructor(
    private readonly url: string,
    private readonly bounds: RecentBounds,
  ) {}

  async start(onEvent: (event: PipeEvent) => void): Promise<void> {
    // Errors show as failed publishes and lost leases; the clients reconnect (and resubscribe) by themselves.
    this.commands = await openRedis(this.url);
    this.subscriber = await openRedis(this.url);
    this.subscriber.on('message', (_channel: string, message: string) => {
      const event = parse(message);
      if (event) onEvent(event);
    });
    await this.subscriber.subscribe(CHANNEL).catch(() => {
      this.logger.warn('Redis is not reachable yet: pipe events from other replicas arrive once it is');
    });
  }

  async publish(event: PipeEvent): Promise<void> {
    const key = streamKeyOf(event.tenantId, event.at);
    const { count, bytes, ttlMs } = this.bounds;
    await this.commands?.eval(
      PUBLISH_AND_KEEP,
      2,
      RECENT_PREFIX + key,
      RECENT_BYTES_PREFIX + key,
      JSON.stringify(event),
      count,
      bytes,
      ttlMs,
      CHANNEL,
    );
  }

  async recent(key: string): Promise<PipeEvent[] | null> {
    if (!this.commands) return null;
    const kept = await this.commands.lrange(RECENT_PREFIX + key, 0, -1);
    return kept.map(parse).filter((event) => event !== null);
  }

  async keepLook(key: string, look: ReadonlyMap<string, PipeSnapshot>, ttlMs: number): Promise<void> {
    const rows = [...look].map(([id, { state, scaling, rest }]) => [id, state, scaling, rest]);
    await this.commands?.set(LOOK_PREFIX + key, JSON.stringify(rows), 'PX', ttlMs);
  }

  async lastLook(key: string): Promise<Map<string, PipeSnapshot> | null> {
    const kept = await this.commands?.get(LOOK_PREFIX + key);
    if (!kept) return null;
    const rows = JSON.parse(kept) as [string, string, string, string][];
    return new Map(rows.map(([id, state, scaling, rest]) => [id, { state, scaling, rest }]));
  }

  async hold(key: string, ttlMs: number): Promise<boolean> {
    if (!this.commands) return false;
    const lease = LEASE_PREFIX + key;
    try {
      if ((await this.commands.set(lease, this.holder, 'PX', ttlMs, 'NX')) === 'OK') return true;
      return (await this.commands.eval(RENEW, 1, lease, this.holder, ttlMs)) === 1;
    } catch {
      return false;
    }
  }

  async release(key: string): Promise<void> {
    await this.commands?.eval(RELEASE, 1, LEASE_PREFIX + key, this.holder).catch(() => undefined);
  }

  async close(): Promise<void> {
    await closeRedis(this.subscriber);
    await closeRedis(this.commands);
  }
}

const PG_CHANNEL = 'pipes_gateway_pipe_events';
// NOTIFY payloads end at 8000 bytes: an event larger than this leaves its pipe out.
const PG_MAX_PAYLOAD = 7_900;
// The payloads go as one JSON array: escaped by JSON.stringify in one pass, not element by element.
const NOTIFY_EACH = 'SELECT pg_notify($1, payload) FROM json_array_elements_text($2::json) AS payload';
const RECONNECT_MS = 1_000;

/**
 * Postgres LISTEN/NOTIFY on a connection of its own; the poller lease is a session advisory lock on
 * that connection, so it ends with the process (or the connection) that held it.
 */
export class PostgresBus implements EventBus {
  readonly kind = 'postgres';
  private readonly logger = new Logger('PipeEvents');
  private client: Client | null = null;
  private readonly held = new Set<string>();
  private onEvent: (event: PipeEvent) => void = () => undefined;
  private closed = false;
  // A pg client runs one query at a time: notifies and lease queries wait their turn here.
  private turn: Promise<unknown> = Promise.resolve();
  /**
   * The events published while the notify before them waits its turn or runs: they go together, in
   * one statement, rather than a round trip each. Null once that statement is sent.
   */
  private unsent: { payloads: string[]; sent: Promise<unknown> } | null = null;
  // This replica's own: a look another replica took since is not seen, and what it reported may be again.
  private readonly looks = new LooksKeptHere();

  constructor(private readonly url: string) {}

  async start(onEvent: (event: PipeEvent) => void): Promise<void> {
    this.onEvent = onEvent;
    await this.connect();
  }

  async publish(event: PipeEvent): Promise<void> {
    let payload = JSON.stringify(event);
    if (Buffer.byteLength(payload) > PG_MAX_PAYLOAD) {
      payload = JSON.stringify({ ...event, data: { pipeId: event.data.pipeId, source: event.data.source } });
    }
    if (this.unsent === null) {
      const payloads: string[] = [];
      // Notified in the order published: a transaction's notifications are delivered in order.
      const sent = this.query(NOTIFY_EACH, () => {
        this.unsent = null;
        return [PG_CHANNEL, JSON.stringify(payloads)];
      });
      this.unsent = { payloads, sent };
    }
    this.unsent.payloads.push(payload);
    await this.unsent.sent;
  }

  recent(): Promise<null> {
    return Promise.resolve(null);
  }

  keepLook(key: string, look: ReadonlyMap<string, PipeSnapshot>, ttlMs: number): Promise<void> {
    return this.looks.keep(key, look, ttlMs);
  }

  lastLook(key: string): Promise<Map<string, PipeSnapshot> | null> {
    return this.looks.last(key);
  }

  async hold(key: string): Promise<boolean> {
    if (this.held.has(key)) return true;
    if (!this.client) return false;
    try {
      const result = await this.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1::bigint) AS locked',
        [pollerLockOf(key)],
      );
      if (result?.rows[0]?.locked) this.held.add(key);
      return this.held.has(key);
    } catch {
      return false;
    }
  }

  async release(key: string): Promise<void> {
    if (!this.held.delete(key)) return;
    await this.query('SELECT pg_advisory_unlock($1::bigint)', [pollerLockOf(key)]).catch(() => undefined);
  }

  /** `values` may be given when the turn comes, to take what was added meanwhile. */
  private query<Row extends QueryResultRow>(
    text: string,
    values: unknown[] | (() => unknown[]),
  ): Promise<QueryResult<Row> | undefined> {
    const run = this.turn.then(() => {
      const given = typeof values === 'function' ? values() : values;
      return this.client?.query<Row>(text, given);
    });
    this.turn = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url });
    const lost = (): void => {
      if (this.client !== client) return;
      // The session's locks went with it.
      this.client = null;
      this.held.clear();
      if (!this.closed) setTimeout(() => void this.connect(), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      const event = message.payload === undefined ? null : parse(message.payload);
      if (event) this.onEvent(event);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
      this.client = client;
    } catch {
      this.logger.warn('The database is not reachable for pipe events: retrying');
      await client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.connect(), RECONNECT_MS).unref();
    }
  }
}

/**
 * The advisory lock (one bigint, as a decimal string) that is a service's poller lease on Postgres:
 * 63 bits of the stream key's SHA-256, so no tenant can find ids whose lease is another's. Always
 * negative: the gateway's other advisory locks (migrations, legacy audit ends) are positive.
 */
export function pollerLockOf(key: string): string {
  const bits = createHash('sha256').update(key).digest().readBigUInt64BE(0);
  return BigInt.asIntN(64, bits | (1n << 63n)).toString();
}

function parse(message: string): PipeEvent | null {
  try {
    const event = JSON.parse(message) as PipeEvent;
    return typeof event?.id === 'string' && typeof event.tenantId === 'string' ? event : null;
  } catch {
    return null;
  }
}
