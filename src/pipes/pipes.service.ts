import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditedUpstreamWrites, type UpstreamActionOptions } from '../audit/audited-upstream-writes';
import type { AuditAction } from '../audit/audit-actions';
import type { Actor } from '../auth/principal';
import { toProblem } from '../common/problem/to-problem';
import { UpstreamCallService } from '../upstream/upstream-call.service';
import { UpstreamCredentials } from '../credentials/upstream-credentials';
import { PipeLocation, PipePath, PipesApiClient, PipesEnvelope } from '../upstream/pipes-api.client';
import type { UpstreamAccess, UpstreamResponse } from '../upstream/upstream-http';
import type { PipesSecret } from '../credentials/credential-secret';
import { assertBody, join } from '../common/validation/json-schema';
import { ProblemException } from '../common/problem/problem';
import type { PipesAnswer } from './pipes-answer';
import { REDACTED } from '../redaction/redact';
import { checkCreatePipeBody, checkUpdatePipeBody } from './schema/pipe-bodies';
import { PipeSpecHistoryService } from './history/pipe-spec-history.service';
import { fieldPaths, SecretReferences } from '../vault/references/secret-references';
import { SecretUsesRepository } from '../vault/references/secret-uses.repository';
import { IdempotencyStore } from '../idempotency/idempotency-store';
import { PipeChange, PipeRead, PipeReadAnswer, PipeReads } from '../pipe-reads/pipe-reads.service';

@Injectable()
export class PipesService {
  constructor(
    private readonly upstreamWrites: AuditedUpstreamWrites,
    private readonly credentials: UpstreamCredentials,
    private readonly upstreamCalls: UpstreamCallService,
    private readonly pipesApi: PipesApiClient,
    private readonly history: PipeSpecHistoryService,
    private readonly idempotency: IdempotencyStore,
    private readonly references: SecretReferences,
    private readonly secretUses: SecretUsesRepository,
    private readonly reads: PipeReads,
  ) {}

  async create(
    tenantId: string,
    at: PipeLocation,
    body: unknown,
    idempotencyKey: string | null,
    actor: Actor,
    resubmittedFrom: string | null = null,
  ): Promise<PipesAnswer> {
    // Checked with the vault's values in place; kept (history, fingerprint) as sent, references and all.
    const resolved = await this.references.resolve(tenantId, body, actor);
    assertBody(checkCreatePipeBody, resolved.body);
    const spec = body as Record<string, unknown>;
    const redacted = this.history.redact(spec);
    const create = {
      tenantId,
      operation: 'pipe.create' as const,
      key: idempotencyKey,
      request: { organizationId: at.organizationId, serviceId: at.serviceId, spec },
      resource: 'pipe',
    };
    return this.idempotency.create(create, async (keyed) => {
      const recordId = randomUUID();
      const { status, value } = await this.upstreamWrites.run({
        actor,
        entry: {
          tenantId,
          action: 'pipe.create',
          target: `pipe-spec:${recordId}`,
          details: {
            organizationId: at.organizationId,
            serviceId: at.serviceId,
            name: spec.name,
            specHash: redacted.specHash,
            ...(resubmittedFrom ? { resubmittedFrom } : {}),
          },
        },
        before: () => [
          this.history.pendingRecord(recordId, { tenantId, ...at, resubmittedFrom }, redacted, actor),
          ...keyed.pending(recordId),
        ],
        call: async () => {
          const credential = await this.credentials.pipesCredential(tenantId, at.organizationId, actor);
          const response = await this.upstreamCalls.run(credential, actor, 'write', (access) =>
            this.pipesApi.createPipe(access, at, resolved.body, actor.requestId, resolved.values),
          );
          // Written once: stored with the record and sent as the answer.
          const json = JSON.stringify(response.body);
          return {
            status: response.status,
            value: { response, json },
            details: { pipeId: pipeIdOf(response.body) },
          };
        },
        after: (outcome) => {
          if (!outcome.succeeded) {
            const response = { status: outcome.status, body: toProblem(outcome.error, actor.requestId).body };
            return [
              this.history.failedRecord(recordId, {
                upstreamStatus: outcome.error?.problem.upstream?.status ?? null,
                response,
              }),
              ...keyed.completed(false, response),
            ];
          }
          const { response, json } = outcome.value;
          const pipeId = pipeIdOf(response.body);
          return [
            this.history.succeededRecord(recordId, { pipeId, answer: response }),
            // The answer's body comes redacted by UpstreamHttp: stored as it is.
            ...keyed.succeededAsWritten(response.status, json),
            ...(pipeId === null
              ? []
              : this.secretUses.recorded(tenantId, { ...at, pipeId }, resolved.uses, [], recordId)),
          ];
        },
      });
      await this.reads.written({
        tenantId,
        at,
        action: 'create',
        pipeId: pipeIdOf(value.response.body),
        answer: value.response.body,
      });
      return { status, body: value.response.body, json: value.json };
    });
  }

  /**
   * Creates the pipe of a recorded spec again, with today's values of the secrets it references.
   * A spec that held inline secrets was recorded without them, so it cannot be: 409 naming them.
   */
  async resubmit(
    tenantId: string,
    historyId: string,
    name: string | undefined,
    idempotencyKey: string | null,
    actor: Actor,
  ): Promise<PipesAnswer> {
    const record = await this.history.record(tenantId, historyId);
    const redacted = pathsHolding(record.spec, REDACTED);
    if (redacted.length > 0) {
      throw new ProblemException({
        status: 409,
        type: 'spec-holds-inline-secrets',
        title: 'Spec held inline secrets',
        detail:
          'This spec carried secrets inline, and the history kept none of them, so it cannot be submitted again. ' +
          'Store each in the vault (POST /v1/credentials, kind secret) and submit the spec with references.',
        errors: redacted.map((path) => ({ path, message: 'held an inline secret' })),
      });
    }
    const spec = { ...(record.spec as Record<string, unknown>), ...(name === undefined ? {} : { name }) };
    const at = { organizationId: record.organizationId, serviceId: record.serviceId };
    return this.create(tenantId, at, spec, idempotencyKey, actor, historyId);
  }

  /** `maxAgeMs`: an answer kept longer than this is not used (the event poller's reads). */
  list(tenantId: string, at: PipeLocation, actor: Actor, maxAgeMs?: number): Promise<PipesAnswer> {
    return this.read(
      tenantId,
      at,
      { kind: 'list' },
      actor,
      (access) => this.pipesApi.listPipes(access, at, actor.requestId),
      maxAgeMs,
    );
  }

  get(tenantId: string, at: PipePath, actor: Actor): Promise<PipesAnswer> {
    return this.reads.readPipe(
      tenantId,
      at,
      at.pipeId,
      this.upstreamRead(tenantId, at, actor, (access) => this.pipesApi.getPipe(access, at, actor.requestId)),
      this.upstreamRead(tenantId, at, actor, (access) =>
        this.pipesApi.listPipes(access, at, actor.requestId),
      ),
    );
  }

  settings(tenantId: string, at: PipePath, actor: Actor): Promise<PipesAnswer> {
    return this.read(tenantId, at, { kind: 'settings', pipeId: at.pipeId }, actor, (access) =>
      this.pipesApi.getSettings(access, at, actor.requestId),
    );
  }

  /** The audit keeps the change as sent, references and all; the values go upstream only. */
  async update(
    tenantId: string,
    at: PipePath,
    body: unknown,
    actor: Actor,
    propagatedFrom?: string,
  ): Promise<PipesAnswer> {
    const resolved = await this.references.resolve(tenantId, body, actor);
    assertBody(checkUpdatePipeBody, resolved.body);
    const patch = body as Record<string, unknown>;
    return this.write(
      tenantId,
      at,
      actor,
      'pipe.update',
      { fields: Object.keys(patch), change: patch, ...(propagatedFrom ? { propagatedFrom } : {}) },
      (access) => this.pipesApi.updatePipe(access, at, resolved.body, actor.requestId, resolved.values),
      (outcome) =>
        outcome.succeeded
          ? this.secretUses.recorded(tenantId, at, resolved.uses, fieldPaths(patch), null)
          : undefined,
    );
  }

  /** The history keeps a deleted pipe's create spec, marked deleted, for reviewers. */
  delete(tenantId: string, at: PipePath, actor: Actor): Promise<PipesAnswer> {
    return this.write(
      tenantId,
      at,
      actor,
      'pipe.delete',
      {},
      (access) => this.pipesApi.deletePipe(access, at, actor.requestId),
      (outcome) =>
        outcome.succeeded
          ? [this.history.deletedRecords(tenantId, at.pipeId), this.secretUses.deleted(tenantId, at.pipeId)]
          : undefined,
    );
  }

  changeState(tenantId: string, at: PipePath, body: { command: string }, actor: Actor): Promise<PipesAnswer> {
    return this.write(tenantId, at, actor, 'pipe.state', { command: body.command }, (access) =>
      this.pipesApi.changeState(access, at, body, actor.requestId),
    );
  }

  scale(tenantId: string, at: PipePath, body: Record<string, unknown>, actor: Actor): Promise<PipesAnswer> {
    return this.write(tenantId, at, actor, 'pipe.scale', { change: body }, (access) =>
      this.pipesApi.scale(access, at, body, actor.requestId),
    );
  }

  replaceSettings(
    tenantId: string,
    at: PipePath,
    body: Record<string, unknown>,
    actor: Actor,
  ): Promise<PipesAnswer> {
    return this.write(tenantId, at, actor, 'pipe.settings', { change: body }, (access) =>
      this.pipesApi.replaceSettings(access, at, body, actor.requestId),
    );
  }

  /** Through the tenant's read cache: callers reading the same thing at once share one upstream call. */
  private async read(
    tenantId: string,
    at: PipeLocation,
    read: PipeRead,
    actor: Actor,
    call: PipesCall,
    maxAgeMs?: number,
  ): Promise<PipesAnswer> {
    return this.reads.read(tenantId, at, read, this.upstreamRead(tenantId, at, actor, call), maxAgeMs);
  }

  private upstreamRead(
    tenantId: string,
    at: PipeLocation,
    actor: Actor,
    call: PipesCall,
  ): () => Promise<PipeReadAnswer> {
    return async () => {
      const credential = await this.credentials.pipesCredential(tenantId, at.organizationId, actor);
      const response = await this.upstreamCalls.run(credential, actor, 'read', call);
      return { status: response.status, body: response.body };
    };
  }

  /** A change to one pipe upstream: audited pending before the call and with its outcome after it. */
  private async write(
    tenantId: string,
    at: PipePath,
    actor: Actor,
    action: PipeWrite,
    details: Record<string, unknown>,
    call: PipesCall,
    after?: UpstreamActionOptions<PipesEnvelope>['after'],
  ): Promise<PipesAnswer> {
    const { status, value } = await this.upstreamWrites.run({
      actor,
      entry: {
        tenantId,
        action,
        target: `pipe:${at.pipeId}`,
        details: { organizationId: at.organizationId, serviceId: at.serviceId, ...details },
      },
      call: async () => {
        const credential = await this.credentials.pipesCredential(tenantId, at.organizationId, actor);
        const response = await this.upstreamCalls.run(credential, actor, 'write', call);
        return { status: response.status, value: response.body };
      },
      after,
    });
    await this.reads.written({ tenantId, at, action: CHANGES[action], pipeId: at.pipeId, answer: value });
    return { status, body: value };
  }
}

const CHANGES = {
  'pipe.update': 'update',
  'pipe.delete': 'delete',
  'pipe.state': 'state',
  'pipe.scale': 'scale',
  'pipe.settings': 'settings',
} as const satisfies Partial<Record<AuditAction, PipeChange['action']>>;

type PipeWrite = keyof typeof CHANGES;

type PipesCall = (access: UpstreamAccess<PipesSecret>) => Promise<UpstreamResponse<PipesEnvelope>>;

/** The paths at which `value` holds exactly `text`. */
function pathsHolding(value: unknown, text: string, path = ''): string[] {
  if (value === text) return [path];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => pathsHolding(inner, text, join(path, key)));
}

function pipeIdOf(envelope: PipesEnvelope): string | null {
  const id = (envelope.result as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : null;
}
