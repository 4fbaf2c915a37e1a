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
  /** Recent events, oldest first, within PIPE_EVENTS_REPLAY and the byte bounds. */
  log: KeptEvent[];
  keptBytes: number;
  /** The id of the last event heard, kept or not: a reader resuming from it has missed nothing. */
  newestId: string | null;
  /** The pipes as last seen, while this replica is the service's poller (also kept on the bus). */
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
  /** When the timer fires, and whether a poller turn is running now. */
  dueAt: number;
  polling: boolean;
  /** The wait before the next turn: PIPE_EVENTS_POLL_MS, doubled by each turn that finds nothing. */
  delayMs: number;
  /** When a failed poll was last logged, and the failures not logged since. */
  warnedAt: number;
  unlogged: number;
}

/** An event kept for resumes: its text as sent, and what the bounds and the pipeId filter need. */
interface KeptEvent {
  id: string;
  pipeId: string;
  text: string;
  bytes: number;
  stream: Stream;
}

interface Subscriber {
  pipeId: string | null;
  stream: EventStream;
  /** Events heard while its replay is read from the bus, sent once that replay is. */
  backlog: { id: string; text: string }[] | null;
  /**
   * Ids sent from the bus's copy before this replica heard them: not sent again when they arrive
   * (the copy is written with the publish, the replicas hear it a moment later).
   */
  sentAhead: Set<string> | null;
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
// States a pipe stays in until someone acts: a service whose pipes are all in one may be polled less often.
const SETTLED_STATES = new Set(['Running', 'Stopped', 'Paused', 'Failed', 'Completed']);
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
  /** Every kept event, oldest first: the bound on them all drops from the front. */
  private readonly kept = new Set<KeptEvent>();
  private keptBytes = 0;
  /** The millisecond of the last id given, and per stream the ids given in it. */
  private idMs = 0;
  private readonly idsThisMs = new Map<string, number>();
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
    metrics.countPipeEventsKept(() => this.kept.size);
    metrics.countPipeEventBytesKept(() => this.keptBytes);
    const redisUrl = config.get('redisUrl', { infer: true });
    const databaseUrl = config.get('database', { infer: true }).url;
    // The embedded database is one process's alone: its subscribers are all in this process.
    this.bus = redisUrl
      ? new RedisBus(redisUrl, {
          count: this.settings.replay,
          bytes: this.settings.keptBytesPerService,
          ttlMs: this.settings.resumeWindowMs,
        })
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
      backlog: null,
      sentAhead: null,
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
    const { lastEventId } = request;
    const keptHere =
      lastEventId === null ||
      lastEventId === stream.newestId ||
      stream.log.some((event) => event.id === lastEventId);
    if (keptHere) this.replay(stream, subscriber, lastEventId);
    // Events heard from now on wait in the backlog until the bus's copy has been replayed.
    else subscriber.backlog = [];
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
    if (!keptHere) void this.replayFromBus(stream, subscriber, lastEventId);
  }

  /** The events after `lastEventId` in this replica's log (the caller checked it is there). */
  private replay(stream: Stream, subscriber: Subscriber, lastEventId: string | null): void {
    if (lastEventId === null || lastEventId === stream.newestId) return;
    const index = stream.log.findIndex((event) => event.id === lastEventId);
    for (const event of stream.log.slice(index + 1)) {
      if (subscriber.pipeId === null || subscriber.pipeId === event.pipeId)
        subscriber.stream.write(event.text);
    }
  }

  /**
   * A resume from an event this replica does not keep (its service had no reader here then): the
   * events after it from those the bus keeps for every replica, then those heard meanwhile that
   * the bus's copy did not hold yet; `stream.reset` when the bus no longer (or never) kept it.
   */
  private async replayFromBus(stream: Stream, subscriber: Subscriber, lastEventId: string): Promise<void> {
    const recent = await this.bus.recent(streamKeyOf(stream.tenantId, stream.at)).catch(() => null);
    const backlog = subscriber.backlog ?? [];
    subscriber.backlog = null;
    const index = recent?.findIndex((event) => event.id === lastEventId) ?? -1;
    if (index < 0) subscriber.stream.write(`event: stream.reset\ndata: {"reason":"last-event-unknown"}\n\n`);
    else {
      const heard = new Set([...stream.log.map((kept) => kept.id), ...backlog.map((event) => event.id)]);
      const ahead = new Set<string>();
      for (const event of recent!.slice(index + 1)) {
        if (!heard.has(event.id)) ahead.add(event.id);
        if (subscriber.pipeId === null || subscriber.pipeId === event.data.pipeId)
          subscriber.stream.write(eventText(event));
      }
      subscriber.sentAhead = ahead.size > 0 ? ahead : null;
    }
    const inCopy = new Set(index < 0 ? [] : recent!.map((event) => event.id));
    for (const heard of backlog) if (!inCopy.has(heard.id)) subscriber.stream.write(heard.text);
  }

  /**
   * Keeps an event for resumes. Past PIPE_EVENTS_REPLAY or PIPE_EVENTS_KEPT_BYTES_PER_SERVICE the
   * service's oldest are dropped, past PIPE_EVENTS_KEPT_BYTES the oldest of all: a resume from
   * before them gets `stream.reset`.
   */
  private keep(stream: Stream, event: PipeEvent, text: string): void {
    stream.newestId = event.id;
    const kept: KeptEvent = {
      id: event.id,
      pipeId: event.data.pipeId,
      text,
      bytes: Buffer.byteLength(text),
      stream,
    };
    stream.log.push(kept);
    stream.keptBytes += kept.bytes;
    this.kept.add(kept);
    this.keptBytes += kept.bytes;
    const { replay, keptBytesPerService, keptBytes } = this.settings;
    while (stream.log.length > replay || stream.keptBytes > keptBytesPerService) this.drop(stream.log[0]);
    while (this.keptBytes > keptBytes) this.drop(this.kept.values().next().value!);
  }

  /** Drops a kept event, which is the oldest of its service's (events are kept in the order heard). */
  private drop(kept: KeptEvent): void {
    kept.stream.log.shift();
    kept.stream.keptBytes -= kept.bytes;
    this.kept.delete(kept);
    this.keptBytes -= kept.bytes;
  }

  private forget(key: string, stream: Stream): void {
    while (stream.log.length > 0) this.drop(stream.log[0]);
    this.streams.delete(key);
  }

  private streamOf(key: string, tenantId: string, at: PipeLocation): Stream {
    let stream = this.streams.get(key);
    if (stream === undefined) {
      if (this.streams.size >= MAX_STREAMS) {
        for (const [other, kept] of this.streams) {
          if (kept.subscribers.size === 0 && kept.timer === null) this.forget(other, kept);
        }
      }
      stream = {
        tenantId,
        at,
        subscribers: new Set(),
        log: [],
        keptBytes: 0,
        newestId: null,
        seen: null,
        leased: false,
        writes: 0,
        writtenBeforeFirstLook: new Map(),
        idleSince: Date.now(),
        idleTurns: 0,
        timer: null,
        dueAt: 0,
        polling: false,
        delayMs: this.settings.pollMs,
        warnedAt: 0,
        unlogged: 0,
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
        this.forget(key, stream);
    }
  }

  /** An event from the bus (this replica's own included): kept for resumes and sent to subscribers. */
  private received(event: PipeEvent): void {
    // Another replica's write: what this one keeps of the service is out of date. Its own writes
    // dropped that when made, so their echo, which may come after fresh reads, drops nothing.
    if (event.data.source === 'gateway' && event.replica !== this.replica)
      this.reads.forget(event.tenantId, event.at);
    // Events are kept only for services someone here reads (or read, and may resume): every
    // write of every service would otherwise be held in memory for nobody.
    const stream = this.streams.get(streamKeyOf(event.tenantId, event.at));
    if (stream === undefined) return;
    const text = eventText(event);
    this.keep(stream, event, text);
    // The poller records it, so that its next poll does not report it again.
    if (event.data.source === 'gateway')
      this.heardOfWrite(stream, event.type, event.data.pipeId, event.data.pipe as Pipe | undefined);
    if (stream.subscribers.size === 0) return;
    for (const subscriber of stream.subscribers) {
      if (subscriber.sentAhead?.delete(event.id)) {
        if (subscriber.sentAhead.size === 0) subscriber.sentAhead = null;
        continue;
      }
      if (subscriber.pipeId !== null && subscriber.pipeId !== event.data.pipeId) continue;
      if (subscriber.backlog) subscriber.backlog.push({ id: event.id, text });
      else subscriber.stream.write(text);
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
    this.pollSoon(stream);
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
    const id = this.eventId(streamKeyOf(tenantId, at));
    const event: PipeEvent = {
      id,
      type,
      tenantId,
      at,
      data: { pipeId, ...(pipe ? { pipe } : {}), source },
      replica: this.replica,
    };
    this.bus.publish(event).catch(() => this.logger.warn('A pipe event could not be published'));
  }

  /**
   * Time, replica, and the count of this stream's ids given by this replica in that millisecond:
   * unique, and the same whatever other streams publish.
   */
  private eventId(key: string): string {
    // Never back in time: a clock set back would otherwise give an id again.
    const now = Math.max(Date.now(), this.idMs);
    if (now !== this.idMs) {
      this.idMs = now;
      this.idsThisMs.clear();
    }
    const count = this.idsThisMs.get(key) ?? 0;
    this.idsThisMs.set(key, count + 1);
    return `${now.toString(36)}-${this.replica}-${count.toString(36)}`;
  }

  private schedule(stream: Stream, delayMs: number): void {
    stream.dueAt = Date.now() + delayMs;
    stream.timer = setTimeout(() => void this.poll(stream), delayMs);
    stream.timer.unref();
  }

  /** A write was heard: polls come at PIPE_EVENTS_POLL_MS again, the next one no later than that. */
  private pollSoon(stream: Stream): void {
    const { pollMs } = this.settings;
    stream.delayMs = pollMs;
    if (stream.timer === null || stream.polling || stream.dueAt <= Date.now() + pollMs) return;
    clearTimeout(stream.timer);
    this.schedule(stream, pollMs);
  }

  /**
   * One poller turn: while this replica has subscribers it asks for the service's lease; the
   * holder lists the pipes (no older than POLL_MAX_AGE_MS, through the read cache, so readers
   * share the call) and publishes what changed since its last look. Turns that find nothing wait
   * longer each time, up to PIPE_EVENTS_IDLE_POLL_MS; a change or a write heard brings them back.
   */
  private async poll(stream: Stream): Promise<void> {
    const key = streamKeyOf(stream.tenantId, stream.at);
    const { pollMs, idlePollMs } = this.settings;
    // A turn without subscribers is still taken, so that a reader reconnecting keeps the poller
    // (and what it last saw); two in a row stop it.
    stream.idleTurns = stream.subscribers.size === 0 ? stream.idleTurns + 1 : 0;
    if (stream.idleTurns >= 2 || this.stopped) {
      await this.stopPolling(stream);
      return;
    }
    stream.polling = true;
    // Past the next turn, whose wait is at most twice this one's.
    const leaseMs = Math.max(3 * Math.min(2 * stream.delayMs, idlePollMs), 3_000);
    stream.leased = await this.bus.hold(key, leaseMs);
    let changed = false;
    let settling = false;
    if (stream.leased) {
      try {
        const writes = stream.writes;
        // Taken over from another replica (stopped, or killed), or started again after nobody read,
        // the first look continues from the last.
        const handedOver = stream.seen === null ? await this.bus.lastLook(key).catch(() => null) : null;
        const answer = await this.pipes.list(stream.tenantId, stream.at, pollerActor(), POLL_MAX_AGE_MS);
        const now = pipesOf((answer.body as { result?: unknown } | null)?.result);
        // A list read before a write heard of since would undo it: the next turn compares.
        if (answer.status === 200 && writes === stream.writes) {
          // The first look after taking the lease compares with the last poller's look, or else sets
          // what later ones compare with; of the pipes written before it, it reports what changed
          // since the write.
          const before =
            stream.seen ??
            firstLookBaseline(stream.writtenBeforeFirstLook, handedOver ?? snapshotsOf(now), now);
          for (const found of differences(before, now)) {
            changed = true;
            this.publish(stream.tenantId, stream.at, found.type, found.pipeId, found.pipe, 'upstream');
          }
          stream.writtenBeforeFirstLook.clear();
          stream.seen = snapshotsOf(now);
          // Kept past the lease, and for a resume, so that whoever polls next continues from here.
          const keptMs = Math.max(2 * leaseMs, this.settings.resumeWindowMs);
          void this.bus.keepLook(key, stream.seen, keptMs).catch(() => undefined);
          // A pipe on its way between states changes by itself soon: its service is not quiet.
          settling = [...stream.seen.values()].some((pipe) => !SETTLED_STATES.has(pipe.state));
        }
      } catch (error) {
        this.pollFailed(stream, error);
      }
    } else {
      stream.seen = null;
    }
    stream.polling = false;
    // Another replica polls, or nobody here reads: the next turn comes soon, to take over or to stop.
    const backOff = stream.leased && !changed && !settling && stream.subscribers.size > 0;
    stream.delayMs = backOff ? Math.min(2 * stream.delayMs, idlePollMs) : pollMs;
    if (stream.timer !== null) this.schedule(stream, stream.delayMs);
  }

  /**
   * A failed poll is logged once per PIPE_EVENTS_POLL_WARN_MS for its (tenant, service), with the
   * count of those not logged since: a budget running out fails every poll of every service.
   */
  private pollFailed(stream: Stream, error: unknown): void {
    const now = Date.now();
    if (now - stream.warnedAt < this.settings.pollWarnMs) {
      stream.unlogged++;
      return;
    }
    const problem = error instanceof ProblemException ? error.problem : null;
    this.logger.warn(
      {
        tenantId: stream.tenantId,
        organizationId: stream.at.organizationId,
        serviceId: stream.at.serviceId,
        reason: problem ? `${problem.status} ${problem.type}` : error instanceof Error ? error.name : 'error',
        notLoggedSince: stream.unlogged,
      },
      "polling a service's pipes failed",
    );
    stream.warnedAt = now;
    stream.unlogged = 0;
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

function snapshotsOf(pipes: readonly Pipe[]): Map<string, PipeSnapshot> {
  return new Map(pipes.map((pipe) => [pipe.id, snapshotOf(pipe)]));
}

/**
 * What the first look compares with: `base` (the last poller's look, or every pipe it finds as
 * found), except the pipes written before it, which compare with what their write answered (one
 * deleted then is not reported, whether it is found again or not).
 */
function firstLookBaseline(
  written: ReadonlyMap<string, PipeSnapshot | null>,
  base: ReadonlyMap<string, PipeSnapshot>,
  now: readonly Pipe[],
): Map<string, PipeSnapshot> {
  const baseline = new Map(base);
  for (const [pipeId, snapshot] of written) {
    const found = snapshot === null ? now.find((pipe) => pipe.id === pipeId) : undefined;
    if (snapshot !== null) baseline.set(pipeId, snapshot);
    else if (found) baseline.set(pipeId, snapshotOf(found));
    else baseline.delete(pipeId);
  }
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
