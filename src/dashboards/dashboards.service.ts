import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditedUpstreamWrites } from '../audit/audited-upstream-writes';
import type { Actor } from '../auth/principal';
import { IdempotencyStore } from '../idempotency/idempotency-store';
import { ProblemException, problemFor } from '../common/problem/problem';
import { toProblem } from '../common/problem/to-problem';
import { UpstreamCallService } from '../upstream/upstream-call.service';
import { UpstreamCredentials, type UpstreamCredential } from '../credentials/upstream-credentials';
import type { DashboardsSecret } from '../credentials/credential-secret';
import type { DashboardVersion } from '../generated/prisma/client';
import { DashboardEnvelope, DashboardsApiClient } from '../upstream/dashboards-api.client';
import { upstreamInvalidAnswer } from '../upstream/upstream-errors';
import { DashboardVersionsRepository } from './dashboard-versions.repository';
import { DashboardEtags } from './dashboard-etags';
import { DashboardClaim, DashboardWrites } from './dashboard-writes';
import type { DashboardVersionSummaryView, DashboardVersionView } from './dashboard-versions.dto';
import { viewOf } from '../common/views';

const CREATED = 201;

export interface DashboardAnswer {
  body: DashboardEnvelope;
  etag: string;
}

/** A dashboard as read: `{data}` as JSON text to send on as it is, and its ETag. */
export interface DashboardRead {
  json: string;
  etag: string;
}

/** A create's answer: made now (with its ETag), or replayed for an Idempotency-Key. */
export interface CreatedDashboard {
  status: number;
  body: unknown;
  etag?: string;
  /** A replayed failure keeps its problem+json media type. */
  problem?: boolean;
}

interface ReplaceRequest {
  tenantId: string;
  dashboardId: string;
  credentialId: string | undefined;
  body: unknown;
  ifMatch: string | undefined;
  action: 'dashboard.replace' | 'dashboard.restore';
  restoredVersion?: number;
}

@Injectable()
export class DashboardsService {
  private readonly etags = new DashboardEtags();

  constructor(
    private readonly versionRows: DashboardVersionsRepository,
    private readonly upstreamWrites: AuditedUpstreamWrites,
    private readonly credentials: UpstreamCredentials,
    private readonly upstreamCalls: UpstreamCallService,
    private readonly dashboardsApi: DashboardsApiClient,
    private readonly idempotency: IdempotencyStore,
    private readonly writes: DashboardWrites,
  ) {}

  /** `{data: [...]}` as JSON text to send on as it is. */
  async list(tenantId: string, credentialId: string | undefined, actor: Actor): Promise<string> {
    const credential = await this.credentials.dashboardsCredential(tenantId, credentialId, actor);
    const response = await this.upstreamCalls.run(credential, actor, 'read', (access) =>
      this.dashboardsApi.listDashboardsJson(access, credential.baseUrl, actor.requestId),
    );
    return response.bodyJson;
  }

  async get(
    tenantId: string,
    id: string,
    credentialId: string | undefined,
    actor: Actor,
  ): Promise<DashboardRead> {
    const credential = await this.credentials.dashboardsCredential(tenantId, credentialId, actor);
    const response = await this.upstreamCalls.run(credential, actor, 'read', (access) =>
      this.dashboardsApi.getDashboardJson(access, credential.baseUrl, id, actor.requestId),
    );
    return { json: response.bodyJson, etag: this.etags.of(response) };
  }

  /** A new dashboard upstream; its content is kept as its version 1, as a replaced one's would be. */
  async create(
    tenantId: string,
    credentialId: string | undefined,
    body: Record<string, unknown>,
    idempotencyKey: string | null,
    actor: Actor,
  ): Promise<CreatedDashboard> {
    const credential = await this.credentials.dashboardsCredential(tenantId, credentialId, actor);
    const create = {
      tenantId,
      operation: 'dashboard.create' as const,
      key: idempotencyKey,
      request: { credentialId: credential.id, body },
      resource: 'dashboard',
    };
    return this.idempotency.create(create, async (keyed) => {
      const { value } = await this.upstreamWrites.run({
        actor,
        entry: {
          tenantId,
          action: 'dashboard.create',
          // The id is the service's to give: the outcome event's details name it.
          target: 'dashboard:new',
          details: { credentialId: credential.id },
        },
        before: () => keyed.pending(),
        call: async () => ({ ...(await this.createUpstream(credential, body, actor)), status: CREATED }),
        after: (outcome) =>
          outcome.succeeded
            ? [
                this.versionRows.stored({ tenantId, credentialId: credential.id, ...outcome.value }, actor),
                ...keyed.completed(true, { status: outcome.status, body: outcome.value.body }),
              ]
            : keyed.completed(false, {
                status: outcome.status,
                body: toProblem(outcome.error, actor.requestId).body,
              }),
      });
      return { status: CREATED, body: value.body, etag: value.etag };
    });
  }

  replace(
    tenantId: string,
    id: string,
    credentialId: string | undefined,
    body: unknown,
    ifMatch: string | undefined,
    actor: Actor,
  ): Promise<DashboardAnswer> {
    return this.replaceChecked(
      { tenantId, dashboardId: id, credentialId, body, ifMatch, action: 'dashboard.replace' },
      actor,
    );
  }

  /**
   * Deletes a dashboard upstream, keeping its content first as the newest stored version, so a
   * dashboard deleted here can always be restored. Serialised with replaces of the same dashboard.
   */
  async delete(tenantId: string, id: string, credentialId: string | undefined, actor: Actor): Promise<void> {
    const credential = await this.credentials.dashboardsCredential(tenantId, credentialId, actor);
    await this.writes.run(tenantId, id, async (claim) => {
      const { body: current, etag } = await this.fetch(credential, id, actor);
      const versionId = randomUUID();
      await this.upstreamWrites.run({
        actor,
        entry: {
          tenantId,
          action: 'dashboard.delete',
          target: `dashboard:${id}`,
          details: { credentialId: credential.id, tileCount: current.data.tiles?.length ?? 0 },
        },
        before: () => [
          claim.take(),
          this.versionRows.stored(
            { tenantId, credentialId: credential.id, dashboardId: id, content: current.data, etag },
            actor,
            versionId,
          ),
        ],
        call: async () => {
          const response = await this.upstreamCalls.run(credential, actor, 'write', (access) =>
            this.dashboardsApi.deleteDashboard(access, credential.baseUrl, id, actor.requestId),
          );
          return { status: response.status, value: null };
        },
        after: (outcome) =>
          outcome.succeeded ? claim.giveBack() : [claim.giveBack(), this.versionRows.forgotten(versionId)],
      });
    });
  }

  /**
   * Puts a stored version back. When the service no longer has the dashboard (it was deleted), it
   * is created again from the version: the answer carries its new id, and the versions move to it.
   */
  async restore(
    tenantId: string,
    id: string,
    version: number,
    credentialId: string | undefined,
    ifMatch: string | undefined,
    actor: Actor,
  ): Promise<DashboardAnswer> {
    const stored = await this.findVersion(tenantId, id, version);
    // Every field of the stored dashboard goes back; its id is the path's.
    const { id: _storedId, ...body } = stored.content as Record<string, unknown>;
    return this.replaceChecked(
      {
        tenantId,
        dashboardId: id,
        credentialId,
        body,
        ifMatch,
        action: 'dashboard.restore',
        restoredVersion: version,
      },
      actor,
    );
  }

  async versions(
    tenantId: string,
    id: string,
  ): Promise<{ items: DashboardVersionSummaryView[]; nextCursor: null }> {
    const rows = await this.versionRows.list(tenantId, id);
    return { items: rows.map(summaryOf), nextCursor: null };
  }

  async version(tenantId: string, id: string, version: number): Promise<DashboardVersionView> {
    const row = await this.findVersion(tenantId, id, version);
    return { ...summaryOf(row), data: row.content };
  }

  /**
   * Read, compare, keep the old version, write: serialised per dashboard (across replicas on
   * Postgres), so two editors holding the same ETag cannot both win; the second gets 412.
   */
  private async replaceChecked(request: ReplaceRequest, actor: Actor): Promise<DashboardAnswer> {
    const { tenantId, dashboardId } = request;
    const credential = await this.credentials.dashboardsCredential(tenantId, request.credentialId, actor);
    return this.writes.run(tenantId, dashboardId, async (claim) => {
      const current = await this.fetchIfExists(
        credential,
        dashboardId,
        actor,
        request.action === 'dashboard.restore',
      );
      if (current === null) return this.createAgain(request, credential, actor, claim);
      const { body: previous, etag: previousEtag } = current;
      if (request.ifMatch !== undefined && !etagMatches(request.ifMatch, previousEtag)) {
        throw dashboardChanged(
          'The dashboard changed since it was read (If-Match does not match its ETag); nothing was written. Read it again.',
          previousEtag,
        );
      }
      const versionId = randomUUID();
      const { value } = await this.upstreamWrites.run({
        actor,
        entry: {
          tenantId,
          action: request.action,
          target: `dashboard:${dashboardId}`,
          details: {
            credentialId: credential.id,
            ...(request.restoredVersion ? { restoredVersion: request.restoredVersion } : {}),
          },
        },
        // Written with the pending event: the content before the replace, as the next version.
        before: () => [
          claim.take(),
          this.versionRows.stored(
            {
              tenantId,
              credentialId: credential.id,
              dashboardId,
              content: previous.data,
              etag: previousEtag,
            },
            actor,
            versionId,
          ),
        ],
        call: async () => {
          const response = await this.upstreamCalls.run(credential, actor, 'write', (access) =>
            this.dashboardsApi.replaceDashboard(
              access,
              credential.baseUrl,
              dashboardId,
              request.body,
              actor.requestId,
            ),
          );
          const updated: DashboardAnswer = { body: response.body, etag: this.etags.of(response) };
          return { status: response.status, value: updated, details: tileChanges(previous, updated.body) };
        },
        // Only a replace that happened keeps the previous content as a version.
        after: (outcome) =>
          outcome.succeeded ? claim.giveBack() : [claim.giveBack(), this.versionRows.forgotten(versionId)],
      });
      return value;
    });
  }

  /** A restore of a dashboard the service no longer has: created again, with its versions moved to it. */
  private async createAgain(
    request: ReplaceRequest,
    credential: UpstreamCredential<DashboardsSecret>,
    actor: Actor,
    claim: DashboardClaim,
  ): Promise<DashboardAnswer> {
    const { tenantId, dashboardId } = request;
    if (request.ifMatch !== undefined) {
      throw dashboardChanged(
        'The dashboard no longer exists upstream, so it matches no ETag; restore without If-Match to create it again.',
      );
    }
    const { value } = await this.upstreamWrites.run({
      actor,
      entry: {
        tenantId,
        action: 'dashboard.restore',
        target: `dashboard:${dashboardId}`,
        details: {
          credentialId: credential.id,
          restoredVersion: request.restoredVersion,
          createdAgain: true,
        },
      },
      before: () => claim.take(),
      call: () => this.createUpstream(credential, request.body, actor),
      after: (outcome) =>
        outcome.succeeded
          ? [
              claim.giveBack(),
              this.versionRows.moved(tenantId, dashboardId, outcome.value.dashboardId),
              this.versionRows.stored(
                { tenantId, credentialId: credential.id, ...outcome.value, numberedAfter: dashboardId },
                actor,
              ),
            ]
          : claim.giveBack(),
    });
    return { body: value.body, etag: value.etag };
  }

  /** POST upstream; the answer must name the new dashboard. */
  private async createUpstream(
    credential: UpstreamCredential<DashboardsSecret>,
    body: unknown,
    actor: Actor,
  ): Promise<{
    status: number;
    value: DashboardAnswer & { dashboardId: string; content: DashboardEnvelope['data'] };
    details: Record<string, unknown>;
  }> {
    const response = await this.upstreamCalls.run(credential, actor, 'write', (access) =>
      this.dashboardsApi.createDashboard(access, credential.baseUrl, body, actor.requestId),
    );
    const dashboardId = response.body.data?.id;
    if (typeof dashboardId !== 'string')
      throw upstreamInvalidAnswer('dashboards', response.status, 'data.id');
    const etag = this.etags.of(response);
    return {
      status: response.status,
      value: { body: response.body, etag, dashboardId, content: response.body.data },
      details: {
        dashboardId,
        name: nameOf(response.body),
        tileCount: response.body.data.tiles?.length ?? 0,
      },
    };
  }

  private async fetch(
    credential: UpstreamCredential<DashboardsSecret>,
    id: string,
    actor: Actor,
  ): Promise<DashboardAnswer> {
    const response = await this.upstreamCalls.run(credential, actor, 'write', (access) =>
      this.dashboardsApi.getDashboard(access, credential.baseUrl, id, actor.requestId),
    );
    return { body: response.body, etag: this.etags.of(response) };
  }

  /** The dashboard now; null when the service answers 404 and `missingIsFine`. */
  private async fetchIfExists(
    credential: UpstreamCredential<DashboardsSecret>,
    id: string,
    actor: Actor,
    missingIsFine: boolean,
  ): Promise<DashboardAnswer | null> {
    try {
      return await this.fetch(credential, id, actor);
    } catch (error) {
      if (missingIsFine && error instanceof ProblemException && error.problem.upstream?.status === 404)
        return null;
      throw error;
    }
  }

  private async findVersion(tenantId: string, id: string, version: number): Promise<DashboardVersion> {
    const row = await this.versionRows.find(tenantId, id, version);
    if (!row) throw problemFor(404, `Dashboard ${id} has no stored version ${version}.`);
    return row;
  }
}

function dashboardChanged(detail: string, etag?: string): ProblemException {
  return new ProblemException({
    status: 412,
    type: 'dashboard-changed',
    title: 'Dashboard changed',
    detail,
    ...(etag ? { headers: { etag } } : {}),
  });
}

function etagMatches(ifMatch: string, etag: string): boolean {
  return ifMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

function tileIds(envelope: DashboardEnvelope): Set<string> {
  return new Set(
    (envelope.data.tiles ?? [])
      .map((tile) => (tile as { id?: unknown }).id)
      .filter((id): id is string => typeof id === 'string'),
  );
}

/** A dashboard's name as the service answered it; none when it is no string. */
function nameOf(dashboard: DashboardEnvelope): string | undefined {
  return typeof dashboard.data.name === 'string' ? dashboard.data.name : undefined;
}

/** Which tiles a replace dropped and which it created, and the name it left: the audit event says so. */
function tileChanges(before: DashboardEnvelope, after: DashboardEnvelope): Record<string, unknown> {
  const old = tileIds(before);
  const now = tileIds(after);
  return {
    name: nameOf(after),
    tilesRemoved: [...old].filter((id) => !now.has(id)),
    tilesAdded: [...now].filter((id) => !old.has(id)),
    tileCount: now.size,
  };
}

function summaryOf(row: DashboardVersion): DashboardVersionSummaryView {
  return viewOf(row, ['version', 'actor', 'onBehalfOf', 'createdAt', 'tileCount', 'etag']);
}
