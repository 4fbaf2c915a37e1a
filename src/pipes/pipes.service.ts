import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import { auditedUpstreamAction } from '../audit/upstream-action';
import { isUniqueViolation } from '../database/database-errors';
import type { Actor } from '../auth/principal';
import { ProblemException } from '../common/problem/problem';
import { toProblem } from '../common/problem/to-problem';
import { UpstreamCallService } from '../upstream/upstream-call.service';
import { CredentialsService } from '../credentials/credentials.service';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import { PipeLocation, PipesApiClient, PipesEnvelope } from '../upstream/pipes-api.client';
import type { CreatePipeDto } from './dto/create-pipe.dto';
import type { UpdatePipeDto } from './dto/update-pipe.dto';
import { PipeSpecHistoryService, StoredResponse } from './history/pipe-spec-history.service';

/** What the facade answers: the upstream's status and envelope, secrets removed. */
export interface PipesAnswer {
  status: number;
  body: unknown;
  /** A replayed failure keeps its problem+json media type. */
  problem?: boolean;
}

@Injectable()
export class PipesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditService,
    private readonly credentials: CredentialsService,
    private readonly upstreamCalls: UpstreamCallService,
    private readonly pipesApi: PipesApiClient,
    private readonly history: PipeSpecHistoryService,
  ) {}

  async create(
    tenantId: string,
    at: PipeLocation,
    body: CreatePipeDto,
    idempotencyKey: string | null,
    actor: Actor,
  ): Promise<PipesAnswer> {
    const spec = toPlain(body);
    const redacted = this.history.redact(spec);
    if (idempotencyKey !== null) {
      const earlier = await this.history.findIdempotent(tenantId, idempotencyKey);
      if (earlier) return replay(this.history.asReplayed(earlier), redacted.specHash, at);
    }

    const recordId = randomUUID();
    try {
      const { status, value } = await auditedUpstreamAction({
        prisma: this.prisma,
        audit: this.audit,
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
          },
        },
        before: () =>
          this.history.pendingRecord(recordId, { tenantId, ...at, spec, idempotencyKey }, redacted, actor),
        call: async () => {
          const credential = await this.credentials.pipesCredential(tenantId, at.organizationId, actor);
          const response = await this.upstreamCalls.run(credential, actor, (secret) =>
            this.pipesApi.createPipe(secret, at, spec, actor.requestId),
          );
          const envelope = response.body;
          return { status: response.status, value: envelope, details: { pipeId: pipeIdOf(envelope) } };
        },
        after: (outcome) =>
          outcome.succeeded
            ? this.history.succeededRecord(recordId, {
                pipeId: pipeIdOf(outcome.value),
                upstreamRequestId: outcome.value.requestId ?? null,
                upstreamStatus: outcome.status,
                response: { status: outcome.status, body: outcome.value },
              })
            : this.history.failedRecord(recordId, {
                upstreamStatus: outcome.error?.problem.upstream?.status ?? null,
                response: { status: outcome.status, body: toProblem(outcome.error, actor.requestId).body },
              }),
      });
      return { status, body: value };
    } catch (error) {
      throw isIdempotencyRace(error) ? idempotencyInProgress() : error;
    }
  }

  async update(
    tenantId: string,
    at: PipeLocation,
    pipeId: string,
    body: UpdatePipeDto,
    actor: Actor,
  ): Promise<PipesAnswer> {
    const patch = toPlain(body);
    const { status, value } = await auditedUpstreamAction({
      prisma: this.prisma,
      audit: this.audit,
      actor,
      entry: {
        tenantId,
        action: 'pipe.update',
        target: `pipe:${pipeId}`,
        details: {
          organizationId: at.organizationId,
          serviceId: at.serviceId,
          fields: Object.keys(patch),
          change: patch,
        },
      },
      call: async () => {
        const credential = await this.credentials.pipesCredential(tenantId, at.organizationId, actor);
        const response = await this.upstreamCalls.run(credential, actor, (secret) =>
          this.pipesApi.updatePipe(secret, at, pipeId, patch, actor.requestId),
        );
        return { status: response.status, value: response.body };
      },
    });
    return { status, body: value };
  }

  async settings(tenantId: string, at: PipeLocation, pipeId: string, actor: Actor): Promise<PipesAnswer> {
    const credential = await this.credentials.pipesCredential(tenantId, at.organizationId, actor);
    const response = await this.upstreamCalls.run(credential, actor, (secret) =>
      this.pipesApi.getSettings(secret, at, pipeId, actor.requestId),
    );
    return { status: response.status, body: response.body };
  }
}

/** The validated DTO as plain JSON: exactly what is sent upstream and hashed. */
function toPlain<T>(dto: T): Record<string, unknown> & { name?: unknown } {
  return JSON.parse(JSON.stringify(dto)) as Record<string, unknown>;
}

function pipeIdOf(envelope: PipesEnvelope): string | null {
  const id = (envelope.result as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : null;
}

function replay(
  earlier: {
    id: string;
    specHash: string;
    organizationId: string;
    serviceId: string;
    outcome: string;
    response: Prisma.JsonValue;
  },
  specHash: string,
  at: PipeLocation,
): PipesAnswer {
  if (
    earlier.specHash !== specHash ||
    earlier.organizationId !== at.organizationId ||
    earlier.serviceId !== at.serviceId
  ) {
    throw new ProblemException({
      status: 422,
      type: 'idempotency-key-reused',
      title: 'Idempotency key reused',
      detail:
        'This Idempotency-Key was used within the last 24 hours for a different pipe spec; use a new key.',
    });
  }
  if (earlier.outcome === 'pending') throw idempotencyInProgress();
  if (earlier.outcome === 'unknown' || earlier.response === null) {
    throw new ProblemException({
      status: 409,
      type: 'idempotent-outcome-unknown',
      title: 'Outcome unknown',
      detail:
        `The first request with this Idempotency-Key (history entry ${earlier.id}) was interrupted before ` +
        'its outcome was recorded: the pipe may or may not exist. Check the service upstream for a pipe of that ' +
        'name before retrying with a new key.',
    });
  }
  const stored = earlier.response as unknown as StoredResponse;
  return { status: stored.status, body: stored.body, problem: earlier.outcome === 'failed' };
}

function idempotencyInProgress(): ProblemException {
  return new ProblemException({
    status: 409,
    type: 'idempotent-request-in-progress',
    title: 'Request in progress',
    detail: 'A request with this Idempotency-Key is still being processed; retry shortly.',
    headers: { 'retry-after': '1' },
  });
}

function isIdempotencyRace(error: unknown): boolean {
  return isUniqueViolation(error, 'idempotency');
}
