import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { countDown, countUp } from '../common/counts';
import { ProblemException, type ProblemInit } from '../common/problem/problem';
import type { AppConfig } from '../config/app-config';
import { UpstreamCredentials } from '../credentials/upstream-credentials';
import { noteOnActiveSpan, SPAN_ATTRIBUTES } from '../tracing/tracing';
import type { PipeLocation } from '../upstream/pipes-api.client';
import { ReadCache } from './read-cache';
import { SharedReads } from './shared-reads';

/** Which read: a service's list, or one pipe or its settings. */
export type PipeRead = { kind: 'list' } | { kind: 'pipe' | 'settings'; pipeId: string };

/** A read's answer as sent: status and envelope, secrets removed. */
export interface PipeReadAnswer {
  status: number;
  body: unknown;
}

/** How fresh an answer is, for `Age` and `Cache-Control`. */
export interface Freshness {
  ageSeconds: number;
  maxAgeSeconds: number;
}

/** A change made through the gateway, or seen upstream, to a service's pipes. */
export interface PipeChange {
  tenantId: string;
  at: PipeLocation;
  action: 'create' | 'update' | 'delete' | 'state' | 'scale' | 'settings';
  pipeId: string | null;
  /** The upstream's answer to the write (the pipe as changed), secrets removed. */
  answer: unknown;
}

type ChangeListener = (change: PipeChange) => void;

/** What the cache keeps of a read: its answer, or the upstream's 404 for it. */
type KeptRead = PipeReadAnswer | { missing: ProblemInit };

/**
 * Pipe reads through a per-tenant cache: an answer serves for PIPE_READ_CACHE_MS, identical reads
 * in flight share one upstream call, and the tenant's own writes drop what they change. An upstream
 * 404 is kept as an answer is, so that reading an id that does not exist again costs no budget. Keys hold
 * ids only (tenant, organization, service, pipe) and the vault's identity, never a value: an
 * answer serves only while the tenant's vault is the one it was scrubbed against. With REDIS_URL,
 * a miss looks in the answers the replicas share (SharedReads) before calling the upstream.
 */
@Injectable()
export class PipeReads {
  private readonly cache: ReadCache<KeptRead>;
  private readonly ttlMs: number;
  /** PIPE_READ_CACHE_MS=off: every read calls the upstream, none shared. */
  private readonly off: boolean;
  private readonly listeners: ChangeListener[] = [];
  /** Services whose pipes are followed here (open event streams), by how many followers. */
  private readonly followed = new Map<string, number>();

  constructor(
    private readonly credentials: UpstreamCredentials,
    private readonly shared: SharedReads,
    config: ConfigService<AppConfig, true>,
  ) {
    const { cacheMs } = config.get('pipeReads', { infer: true });
    this.off = cacheMs === null;
    this.ttlMs = cacheMs ?? 0;
    this.cache = new ReadCache(this.ttlMs);
  }

  async read(
    tenantId: string,
    at: PipeLocation,
    read: PipeRead,
    fetch: () => Promise<PipeReadAnswer>,
    maxAgeMs?: number,
  ): Promise<PipeReadAnswer & { freshness: Freshness }> {
    if (this.off) return { ...(await fetch()), freshness: { ageSeconds: 0, maxAgeSeconds: 0 } };
    const kept = this.credentials.vaultValues(tenantId);
    const vault = kept instanceof Promise ? await kept : kept;
    const key = read.kind === 'list' ? 'list' : `${read.kind}:${read.pipeId}`;
    const scope = scopeOf(tenantId, at);
    // A miss is a read that called the upstream itself; the others were answered by a kept answer,
    // one in flight, or another replica's.
    let missed = false;
    const keepingMissing = (): Promise<KeptRead> => {
      missed = true;
      return fetch().catch(missingOrThrow);
    };
    // With Redis, a copy kept here serves only under the write count the replicas share: a write
    // through another replica is seen at once, not when its event arrives.
    const writes = await this.shared.writeCount(scope);
    const answer = await this.cache.readKept(
      scope,
      key,
      writes === null ? vault.identity : `${vault.identity}/${writes}`,
      () => this.shared.read({ scope, read: key }, vault.identity, keepingMissing, maxAgeMs ?? this.ttlMs),
      maxAgeMs,
    );
    noteOnActiveSpan(SPAN_ATTRIBUTES.cache, missed ? 'miss' : 'hit');
    const { value } = answer;
    if ('missing' in value) throw new ProblemException(value.missing);
    const ageMs = Math.max(0, Date.now() - answer.fetchedAt);
    return {
      ...value,
      freshness: {
        ageSeconds: Math.floor(ageMs / 1000),
        maxAgeSeconds: Math.max(0, Math.floor((this.ttlMs - ageMs) / 1000)),
      },
    };
  }

  /**
   * One pipe. While its service is followed and answers are kept, the pipe is taken from the
   * service's kept list, which the stream's poller reads anyway: readers of one pipe then cost no
   * upstream calls of their own. A pipe the list lacks, or a list that failed, is read on its own.
   */
  async readPipe(
    tenantId: string,
    at: PipeLocation,
    pipeId: string,
    fetchPipe: () => Promise<PipeReadAnswer>,
    fetchList: () => Promise<PipeReadAnswer>,
  ): Promise<PipeReadAnswer & { freshness: Freshness }> {
    if (this.ttlMs > 0 && this.followed.has(scopeOf(tenantId, at))) {
      const list = await this.read(tenantId, at, { kind: 'list' }, fetchList);
      const pipe = list.status === 200 ? pipeIn(list.body, pipeId) : undefined;
      if (pipe !== undefined) {
        return { status: 200, body: { ...(list.body as object), result: pipe }, freshness: list.freshness };
      }
    }
    return this.read(tenantId, at, { kind: 'pipe', pipeId }, fetchPipe);
  }

  /** Marks a service's pipes as followed (an event stream opened); the function returned ends it. */
  follow(tenantId: string, at: PipeLocation): () => void {
    const scope = scopeOf(tenantId, at);
    countUp(this.followed, scope);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      countDown(this.followed, scope);
    };
  }

  /**
   * A write through the gateway: what it changed is read again, by every replica once the shared
   * answers are dropped (before the write is answered), and listeners hear of it.
   */
  async written(change: PipeChange): Promise<void> {
    this.forget(change.tenantId, change.at);
    for (const listener of this.listeners) listener(change);
    await this.shared.drop(scopeOf(change.tenantId, change.at));
  }

  /** Drops what the cache holds of a service (a change seen elsewhere). */
  forget(tenantId: string, at: PipeLocation): void {
    this.cache.drop(scopeOf(tenantId, at));
  }

  /** Hears every write made through this process. */
  onWrite(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** The cache's keys, for tests: ids and vault identities only. */
  cacheKeys(): string[] {
    return this.cache.keys();
  }
}

/** An upstream 404 as what the cache keeps; any other failure is not kept. */
function missingOrThrow(error: unknown): KeptRead {
  if (error instanceof ProblemException && error.problem.upstream?.status === 404) {
    return { missing: error.problem };
  }
  throw error;
}

function pipeIn(listBody: unknown, pipeId: string): unknown {
  const pipes = (listBody as { result?: unknown } | null)?.result;
  if (!Array.isArray(pipes)) return undefined;
  return pipes.find((pipe: { id?: unknown } | null) => pipe?.id === pipeId);
}

function scopeOf(tenantId: string, at: PipeLocation): string {
  return `${tenantId}:${at.organizationId}:${at.serviceId}`;
}
