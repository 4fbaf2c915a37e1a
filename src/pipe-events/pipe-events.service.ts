import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Actor, TenantPrincipal } from '../auth/principal';
import type { AppConfig } from '../config/app-config';
import { countDown, countUp } from '../common/counts';
import { ProblemException } from '../common/problem/problem';
import { PipeChange, PipeReads } from '../pipe-reads/pipe-reads.service';
import { PipesService } from '../pipes/pipes.service';
import type { PipeLocation } from '../upstream/pipes-api.client';
import { EventBus, InProcessBus, PostgresBus, RedisBus } from './event-bus';
import { EventStream, eventText } from './event-stream';
import { differences, type Pipe, pipesOf, type PipeSnapshot, snapshotOf } from './pipe-diff';
import { type PipeEvent, type PipeEventType, streamKeyOf } from './pipe-event';
import { StreamAccess } from './stream-access';
import { MetricsService } from '../metrics/metrics.service';

/** A service's stream on this replica: its subscribers, its recent events, and its poller. */
interface Stream {
  tenantId: string;
  at: PipeLocation;
  subscribers: Set<Subscriber>;
  log: PipeEvent[];
  /** The pipes as last seen, while this replica is the service's poller. */
  seen: Map<string, PipeSnapshot> | null;
  /** Whether this replica holds the service's poller lease. */
  leased: boolean;
  /** Writes heard of: a poll that began before one does not compare its list. */
  writes: number;
  /**
   * Pipes written before the poller's first look (null: deleted): that look compares them, so a
   * change made right after a write is not taken into the first look unreported.
   */
  writtenBeforeFirstLook: Map<string, PipeSnapshot | null>;
  /** When the last subscriber here left (null while one is open): the events are kept for resumes a while. */
  idleSince: number | null;
  /** Poller turns in a row taken without a subscriber here. */
  idleTurns: number;
  timer: NodeJS.Timeout | null;
}

interface Subscriber {
  pipeId: string | null;
  stream: EventStream;
}

export interface StreamRequest {
  principal: TenantPrincipal;
  /** The bearer credential, kept in memory only to check it again while the stream is open. */
  token: string;
  at: PipeLocation;
  pipeId: string | null;
  lastEventId: string | null;
}

const WRITE_EVENTS: Record<PipeChange['action'], PipeEventType> = {
  create: 'pipe.created',
  update: 'pipe.updated',
  settings: 'pipe.updated',
  delete: 'pipe.deleted',
  state: 'pipe.state',
  scale: 'pipe.scaling',
};
// Services whose recent events are kept (for Last-Event-ID) past it: those without subscribers are forgotten.
const MAX_STREAMS = 10_000;
// How often services left without readers past the resume window are forgotten, at most.
const FORGET_EVERY_MS = 60_000;
// A poll reads the list no older than this, so events lag changes by at most the poll interval and this.
const POLL_MAX_AGE_MS = 250;

/**
 * Pipe events as Server-Sent Events. The gateway's own writes are published at once; changes made
 * elsewhere are found by one poller per (tenant, service) in the whole deployment, chosen by a
 * lease on the bus, which also carries every event to every replica's subscribers.
 */
@Injectable()
export class PipeEvents implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PipeEvents.name);
  private readonly settings: AppConfig['pipeEvents'];
  private readonly bus: EventBus;
  private readonly streams = new Map<string, Stream>();
  private readonly openByKey = new Map<string, number>();
  private readonly openByTenant = new Map<string, number>();
  private readonly replica = randomUUID().slice(0, 8);
  private sequence = 0;
  private stopped = false;
  private forgetting: NodeJS.Timeout | undefined;

  constructor(
    private readonly pipes: PipesService,
    private readonly reads: PipeReads,
    private readonly access: StreamAccess,
    config: ConfigService<AppConfig, true>,
    metrics: MetricsService,
  ) {
    this.settings = config.get('pipeEvents', { infer: true });
    metrics.countPipeEventsKept(() => {
      let kept = 0;
      for (const stream of this.streams.values()) kept += stream.log.length;
      return kept;
    });
    const redisUrl = config.get('redisUrl', { infer: true });
    const databaseUrl = config.get('database', { infer: true }).url;
    // The embedded database is one process's alone: its subscribers are all in this process.
    this.bus = redisUrl
      ? new RedisBus(redisUrl)
      : databaseUrl
        ? new PostgresBus(databaseUrl)
        : new InProcessBus();
  }

  get busKind(): EventBus['kind'] {
    return this.bus.kind;
  }

  async onModuleInit(): Promise<void> {
    await this.bus.start((event) => this.received(event));
    this.reads.onWrite((change) => this.written(change));
    const { resumeWindowMs } = this.settings;
    this.forgetting = setInterval(() => this.forgetIdle(), Math.min(resumeWindowMs, FORGET_EVERY_MS));
    this.forgetting.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.forgetting);
    this.endAll();
    await Promise.all([...this.streams.values()].map((stream) => this.stopPolling(stream)));
    await this.bus.close();
  }

  /** Ends every open stream (the server is closing, and would otherwise wait for them). */
  endAll(): void {
    this.stopped = true;
    for (const stream of this.streams.values()) {
      for (const subscriber of stream.subscribers) subscriber.stream.end('shutting-down');
    }
  }

  /** Opens a stream on `reply`, or refuses with 429 when the caller or its tenant has too many open. */
  open(request: StreamRequest, reply: FastifyReply): void {
    const { principal, at } = request;
    const caller = principal.keyId ?? `${principal.issuer ?? ''} ${principal.actor}`;
    const byKey = this.openByKey.get(caller) ?? 0;
    const byTenant = this.openByTenant.get(principal.tenantId) ?? 0;
    if (byKey >= this.settings.perKey)
      throw tooMany(`This ${principal.kind === 'key' ? 'key' : 'person'} has ${byKey} event streams open`);
    if (byTenant >= this.settings.perTenant) throw tooMany(`This tenant has ${byTenant} event streams open`);
    countUp(this.openByKey, caller);
    countUp(this.openByTenant, principal.tenantId);

    const key = streamKeyOf(principal.tenantId, at);
    const stream = this.streamOf(key, principal.tenantId, at);
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    let recheck: NodeJS.Timeout | undefined = undefined;
    // While the stream is open its poller lists the service: reads of one pipe are answered from that list.
    const unfollow = this.reads.follow(principal.tenantId, at);
    const subscriber: Subscriber = {
      pipeId: request.pipeId,
      stream: new EventStream(
        response,
        this.settings.maxBufferBytes,
        this.settings.heartbeatMs,
        this.settings.maxLifetimeMs,
        (dropped) => {
          clearInterval(recheck);
          unfollow();
          stream.subscribers.delete(subscriber);
          if (stream.subscribers.size === 0) stream.idleSince = Date.now();
          countDown(this.openByKey, caller);
          countDown(this.openByTenant, principal.tenantId);
          if (dropped) this.logger.warn(`A slow reader's pipe event stream was dropped (${principal.actor})`);
        },
      ),
    };
    subscriber.stream.write(`retry: 2000\n\n`);
    this.replay(stream, subscriber, request.lastEventId);
    if (!subscriber.stream.open) return;
    stream.subscribers.add(subscriber);
    stream.idleSince = null;
    recheck = setInterval(() => {
      void this.access.lapse(request.token, principal).then((lapse) => {
        if (lapse) subscriber.stream.end(lapse);
      });
    }, this.settings.recheckMs);
    recheck.unref();
    if (stream.timer === null) this.schedule(stream, 0);
  }

  /** The events after `lastEventId`, or `stream.reset` when it is no longer (or never was) kept. */
  private replay(stream: Stream, subscriber: Subscriber, lastEventId: string | null): void {
    if (lastEventId === null) return;
    const index = stream.log.findIndex((event) => event.id === lastEventId);
    if (index < 0) {
      subscriber.stream.write(`event: stream.reset\ndata: {"reason":"last-event-unknown"}\n\n`);
      return;
    }
    for (const event of stream.log.slice(index + 1)) {
      if (subscriber.pipeId === null || subscriber.pipeId === event.data.pipeId)
        subscriber.stream.write(eventText(event));
    }
  }

  private streamOf(key: string, tenantId: string, at: PipeLocation): Stream {
    let stream = this.streams.get(key);
    if (stream === undefined) {
      if (this.streams.size >= MAX_STREAMS) {
        for (const [other, kept] of this.streams) {
          if (kept.subscribers.size === 0 && kept.timer === null) this.streams.delete(other);
        }
      }
      stream = {
        tenantId,
        at,
        subscribers: new Set(),
        log: [],
        seen: null,
        leased: false,
        writes: 0,
        writtenBeforeFirstLook: new Map(),
        idleSince: Date.now(),
        idleTurns: 0,
        timer: null,
      };
      this.streams.set(key, stream);
    }
    return stream;
  }

  /** Forgets the events of services nobody here has read for the resume window. */
  private forgetIdle(): void {
    const before = Date.now() - this.settings.resumeWindowMs;
    for (const [key, stream] of this.streams) {
      if (stream.idleSince !== null && stream.idleSince <= before && stream.timer === null)
        this.streams.delete(key);
    }
  }

  /** An event from the bus (this replica's own included): kept for resumes and sent to subscribers. */
  private received(event: PipeEvent): void {
    // Another replica's write: what this one keeps of the service is out of date.
    if (event.data.source === 'gateway') this.reads.forget(event.tenantId, event.at);
    // Events are kept only for services someone here reads (or read, and may resume): every
    // write of every service would otherwise be held in memory for nobody.
    const stream = this.streams.get(streamKeyOf(event.tenantId, event.at));
    if (stream === undefined) return;
    stream.log.push(event);
    if (stream.log.length > this.settings.replay)
      stream.log.splice(0, stream.log.length - this.settings.replay);
    // The poller records it, so that its next poll does not report it again.
    if (event.data.source === 'gateway')
      this.heardOfWrite(stream, event.type, event.data.pipeId, event.data.pipe as Pipe | undefined);
    if (stream.subscribers.size === 0) return;
    const text = eventText(event);
    for (const subscriber of stream.subscribers) {
      if (subscriber.pipeId === null || subscriber.pipeId === event.data.pipeId)
        subscriber.stream.write(text);
    }
  }

  /** A write through this replica: published at once. */
  private written(change: PipeChange): void {
    if (change.pipeId === null) return;
    const result = (change.answer as { result?: unknown } | null)?.result;
    const pipe =
      change.action !== 'delete' && change.action !== 'settings' && isPipe(result) ? result : undefined;
    const type = WRITE_EVENTS[change.action];
    // This replica's poller learns of it now, not when the bus brings it back: a poll answered
    // in between would otherwise report it as a change made elsewhere.
    const stream = this.streams.get(streamKeyOf(change.tenantId, change.at));
    if (stream) this.heardOfWrite(stream, type, change.pipeId, pipe);
    this.publish(change.tenantId, change.at, type, change.pipeId, pipe, 'gateway');
  }

  private heardOfWrite(stream: Stream, type: PipeEventType, pipeId: string, pipe: Pipe | undefined): void {
    stream.writes++;
    if (stream.seen === null) {
      if (type === 'pipe.deleted') stream.writtenBeforeFirstLook.set(pipeId, null);
      else if (pipe) stream.writtenBeforeFirstLook.set(pipeId, snapshotOf(pipe));
      return;
    }
    if (type === 'pipe.deleted') stream.seen.delete(pipeId);
    else if (pipe) stream.seen.set(pipeId, snapshotOf(pipe));
  }

  private publish(
    tenantId: string,
    at: PipeLocation,
    type: PipeEventType,
    pipeId: string,
    pipe: Pipe | undefined,
    source: 'gateway' | 'upstream',
  ): void {
    const id = `${Date.now().toString(36)}-${this.replica}-${(this.sequence++).toString(36)}`;
    const event: PipeEvent = { id, type, tenantId, at, data: { pipeId, ...(pipe ? { pipe } : {}), source } };
    this.bus.publish(event).catch(() => this.logger.warn('A pipe event could not be published'));
  }

  private schedule(stream: Stream, delayMs: number): void {
    stream.timer = setTimeout(() => void this.poll(stream), delayMs);
    stream.timer.unref();
  }

  /**
   * One poller turn: while this replica has subscribers it asks for the service's lease; the
   * holder lists the pipes (no older than POLL_MAX_AGE_MS, through the read cache, so readers
   * share the call) and publishes what changed since its last look.
   */
  private async poll(stream: Stream): Promise<void> {
    const key = streamKeyOf(stream.tenantId, stream.at);
    // A turn without subscribers is still taken, so that a reader reconnecting keeps the poller
    // (and what it last saw); two in a row stop it.
    stream.idleTurns = stream.subscribers.size === 0 ? stream.idleTurns + 1 : 0;
    if (stream.idleTurns >= 2 || this.stopped) {
      await this.stopPolling(stream);
      return;
    }
    const leaseMs = Math.max(3 * this.settings.pollMs, 3_000);
    stream.leased = await this.bus.hold(key, leaseMs);
    if (stream.leased) {
      try {
        const writes = stream.writes;
        const answer = await this.pipes.list(stream.tenantId, stream.at, pollerActor(), POLL_MAX_AGE_MS);
        const now = pipesOf((answer.body as { result?: unknown } | null)?.result);
        // A list read before a write heard of since would undo it: the next turn compares.
        if (answer.status === 200 && writes === stream.writes) {
          // The first look after taking the lease sets what later ones compare with; of the pipes
          // written before it, it reports what changed since the write.
          const before = stream.seen ?? firstLookBaseline(stream.writtenBeforeFirstLook, now);
          for (const found of differences(before, now)) {
            this.publish(stream.tenantId, stream.at, found.type, found.pipeId, found.pipe, 'upstream');
          }
          stream.writtenBeforeFirstLook.clear();
          stream.seen = new Map(now.map((pipe) => [pipe.id, snapshotOf(pipe)]));
        }
      } catch (error) {
        this.logger.warn(
          `Polling a service's pipes failed: ${error instanceof Error ? error.name : 'error'}`,
        );
      }
    } else {
      stream.seen = null;
    }
    if (stream.timer !== null) this.schedule(stream, this.settings.pollMs);
  }

  private async stopPolling(stream: Stream): Promise<void> {
    if (stream.timer !== null) clearTimeout(stream.timer);
    stream.timer = null;
    stream.seen = null;
    stream.writtenBeforeFirstLook.clear();
    if (stream.leased) {
      stream.leased = false;
      await this.bus.release(streamKeyOf(stream.tenantId, stream.at));
    }
  }
}

/**
 * What the first look compares with: every pipe it finds as found, except those written before it,
 * which compare with what their write answered (one deleted then and found again is not reported).
 */
function firstLookBaseline(
  written: ReadonlyMap<string, PipeSnapshot | null>,
  now: readonly Pipe[],
): Map<string, PipeSnapshot> {
  const baseline = new Map(now.map((pipe) => [pipe.id, snapshotOf(pipe)]));
  for (const [pipeId, snapshot] of written) if (snapshot !== null) baseline.set(pipeId, snapshot);
  return baseline;
}

function pollerActor(): Actor {
  return { actor: 'gateway', onBehalfOf: null, keyId: null, requestId: randomUUID() };
}

function isPipe(value: unknown): value is Pipe {
  return typeof value === 'object' && value !== null && typeof (value as Pipe).id === 'string';
}

function tooMany(detail: string): ProblemException {
  return new ProblemException({
    status: 429,
    type: 'too-many-streams',
    title: 'Too many event streams',
    detail: `${detail}; close one before opening another.`,
    headers: { 'retry-after': '5' },
  });
}
