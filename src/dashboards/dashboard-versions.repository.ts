import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { TableWrite } from '../audit/audit-events.repository';
import type { Actor } from '../auth/principal';
import { storableJson } from '../common/json-body';
import { PrismaService } from '../database/prisma.service';
import { Prisma, type DashboardVersion } from '../generated/prisma/client';
import type { DashboardEnvelope } from '../upstream/dashboards-api.client';

/** A dashboard the gateway keeps as a version: its content, and where it stands in the numbering. */
export interface VersionToStore {
  tenantId: string;
  credentialId: string;
  dashboardId: string;
  content: DashboardEnvelope['data'];
  etag: string;
  /** Numbered after the versions of this dashboard id (a dashboard created again takes its old ones). */
  numberedAfter?: string;
}

// The versions a listing shows, newest first.
const LISTED_VERSIONS = 200;

/** The dashboard_versions table: the content each dashboard had before the gateway changed it. */
@Injectable()
export class DashboardVersionsRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(tenantId: string, dashboardId: string): Promise<DashboardVersion[]> {
    return this.prisma.dashboardVersion.findMany({
      where: { tenantId, dashboardId },
      orderBy: { version: 'desc' },
      take: LISTED_VERSIONS,
    });
  }

  find(tenantId: string, dashboardId: string, version: number): Promise<DashboardVersion | null> {
    return this.prisma.dashboardVersion.findFirst({ where: { tenantId, dashboardId, version } });
  }

  // The writes below go with an audit event (AuditService.append).

  /**
   * The dashboard's next version; written again by a retried append, it stays one row. Content
   * edited elsewhere may hold lone surrogates, which jsonb refuses: they are stored as U+FFFD.
   */
  stored(version: VersionToStore, actor: Actor, id = randomUUID()): TableWrite {
    const { tenantId, credentialId, dashboardId, content, etag } = version;
    const numberedAfter = version.numberedAfter ?? dashboardId;
    return {
      insert: 'dashboard_versions',
      values: {
        id: Prisma.sql`${id}::uuid`,
        tenant_id: Prisma.sql`${tenantId}::uuid`,
        credential_id: Prisma.sql`${credentialId}::uuid`,
        dashboard_id: Prisma.sql`${dashboardId}`,
        version: Prisma.sql`coalesce((SELECT max(version) FROM dashboard_versions
                  WHERE tenant_id = ${tenantId}::uuid AND dashboard_id = ${numberedAfter}), 0) + 1`,
        content: Prisma.sql`${storableJson(content)}::jsonb`,
        etag: Prisma.sql`${etag}`,
        tile_count: Prisma.sql`${content.tiles?.length ?? 0}::int`,
        actor: Prisma.sql`${actor.actor}`,
        on_behalf_of: Prisma.sql`${actor.onBehalfOf}`,
        request_id: Prisma.sql`${actor.requestId}`,
      },
      onConflict: Prisma.sql`ON CONFLICT (id) DO NOTHING`,
    };
  }

  /** A version stored with a pending write that then failed. */
  forgotten(id: string): TableWrite {
    return { delete: 'dashboard_versions', where: Prisma.sql`dashboard_versions.id = ${id}::uuid` };
  }

  /** A dashboard created again under a new id takes the versions of its old one. */
  moved(tenantId: string, fromDashboardId: string, toDashboardId: string): TableWrite {
    return {
      update: 'dashboard_versions',
      set: { dashboard_id: Prisma.sql`${toDashboardId}` },
      where: Prisma.sql`dashboard_versions.tenant_id = ${tenantId}::uuid
        AND dashboard_versions.dashboard_id = ${fromDashboardId}`,
    };
  }
}
