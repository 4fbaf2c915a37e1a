import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import { auditedUpstreamAction } from '../audit/upstream-action';
import type { Actor } from '../auth/principal';
import { lockIdFor } from '../common/canonical-json';
import { storableJson } from '../common/json-body';
import { ProblemException, problemFor } from '../common/problem/problem';
import { UpstreamCallService } from '../upstream/upstream-call.service';
import { CredentialsService, UpstreamCredential } from '../credentials/credentials.service';
import type { DashboardsSecret } from '../credentials/credential-secret';
import type { DatabaseConnection } from '../database/database-connection';
import { DATABASE_CONNECTION } from '../database/database.tokens';
import { PrismaService } from '../database/prisma.service';
import { Prisma, type DashboardVersion } from '../generated/prisma/client';
import { DashboardEnvelope, DashboardsApiClient } from '../upstream/dashboards-api.client';
import { DashboardEtags } from './dashboard-etags';
import type { DashboardVersionSummaryView, DashboardVersionView } from './dashboard-versions.dto';

export interface DashboardAnswer {
  body: DashboardEnvelope;
  etag: string;
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
    private readonly prisma: PrismaService,
    private readonly audit: AuditService,
    private readonly credentials: CredentialsService,
    private readonly upstreamCalls: UpstreamCallService,
    private readonly dashboardsApi: DashboardsApiClient,
    @Inject(DATABASE_CONNECTION) private readonly database: DatabaseConnection,
  ) {}

  async get(
    tenantId: string,
    id: string,
    credentialId: string | undefined,
    actor: Actor,
  ): Promise<DashboardAnswer> {
    const credential = await this.credentials.dashboardsCredential(tenantId, credentialId, actor);
    return this.fetch(credential, id, actor);
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
      { tenantId, dashboardId: id, credentialId, body: plain(body), ifMatch, action: 'dashboard.replace' },
      actor,
    );
  }

  async restore(
    tenantId: string,
    id: string,
    version: number,
    credentialId: string | undefined,
    ifMatch: string | undefined,
    actor: Actor,
  ): Promise<DashboardAnswer> {
    const stored = await this.findVersion(tenantId, id, version);
    const content = stored.content as Record<string, unknown>;
    const body = { name: content.name, tiles: content.tiles ?? [], tags: content.tags ?? [] };
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
    const rows = await this.prisma.dashboardVersion.findMany({
      where: { tenantId, dashboardId: id },
      orderBy: { version: 'desc' },
      take: 200,
    });
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
    return this.database.withLock(lockIdFor(`dashboard:${tenantId}:${dashboardId}`), async () => {
      const { body: previous, etag: previousEtag } = await this.fetch(credential, dashboardId, actor);
      if (request.ifMatch !== undefined && !etagMatches(request.ifMatch, previousEtag)) {
        throw new ProblemException({
          status: 412,
          type: 'dashboard-changed',
          title: 'Dashboard changed',
          detail:
            'The dashboard changed since it was read (If-Match does not match its ETag); nothing was written. Read it again.',
          headers: { etag: previousEtag },
        });
      }
      const versionId = randomUUID();
      const { value } = await auditedUpstreamAction({
        prisma: this.prisma,
        audit: this.audit,
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
        // Written with the pending event (AuditService.append): the content before the replace, as
        // the next version. Replaces of one dashboard are serialised by the lock above. Content
        // edited elsewhere may hold lone surrogates, which jsonb refuses: stored as U+FFFD.
        before: () => Prisma.sql`
          INSERT INTO dashboard_versions (id, tenant_id, credential_id, dashboard_id, version, content, etag,
                                          tile_count, actor, on_behalf_of, request_id)
          SELECT ${versionId}::uuid, ${tenantId}::uuid, ${credential.id}::uuid, ${dashboardId},
                 coalesce((SELECT max(version) FROM dashboard_versions
                           WHERE tenant_id = ${tenantId}::uuid AND dashboard_id = ${dashboardId}), 0) + 1,
                 ${storableJson(previous.data)}::jsonb, ${previousEtag}, ${previous.data.tiles?.length ?? 0}::int,
                 ${actor.actor}, ${actor.onBehalfOf}, ${actor.requestId}
          FROM appended`,
        call: async () => {
          const response = await this.upstreamCalls.run(credential, actor, (secret) =>
            this.dashboardsApi.replaceDashboard(
              secret,
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
          outcome.succeeded
            ? undefined
            : Prisma.sql`DELETE FROM dashboard_versions USING appended WHERE dashboard_versions.id = ${versionId}::uuid`,
      });
      return value;
    });
  }

  private async fetch(
    credential: UpstreamCredential<DashboardsSecret>,
    id: string,
    actor: Actor,
  ): Promise<DashboardAnswer> {
    const response = await this.upstreamCalls.run(credential, actor, (secret) =>
      this.dashboardsApi.getDashboard(secret, credential.baseUrl, id, actor.requestId),
    );
    return { body: response.body, etag: this.etags.of(response) };
  }

  private async findVersion(tenantId: string, id: string, version: number): Promise<DashboardVersion> {
    const row = await this.prisma.dashboardVersion.findFirst({
      where: { tenantId, dashboardId: id, version },
    });
    if (!row) throw problemFor(404, `Dashboard ${id} has no stored version ${version}.`);
    return row;
  }
}

function plain(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body));
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

/** Which tiles a replace dropped and which it created: the audit event says so. */
function tileChanges(before: DashboardEnvelope, after: DashboardEnvelope): Record<string, unknown> {
  const old = tileIds(before);
  const now = tileIds(after);
  return {
    tilesRemoved: [...old].filter((id) => !now.has(id)),
    tilesAdded: [...now].filter((id) => !old.has(id)),
    tileCount: now.size,
  };
}

function summaryOf(row: DashboardVersion): DashboardVersionSummaryView {
  return {
    version: row.version,
    actor: row.actor,
    onBehalfOf: row.onBehalfOf,
    createdAt: row.createdAt,
    tileCount: row.tileCount,
    etag: row.etag,
  };
}
