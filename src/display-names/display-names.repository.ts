import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';

/** A name the gateway's tables give one id. */
export interface NamedId {
  id: string;
  name: string;
}

/**
 * The names the gateway's own tables hold for the things audit events, vault usage and rotation
 * results name by id. Each read takes the ids of one kind in one tenant and answers those it knows.
 */
@Injectable()
export class DisplayNamesRepository {
  constructor(private readonly prisma: PrismaService) {}

  keys(tenantId: string, ids: readonly string[]): Promise<NamedId[]> {
    return this.prisma.$queryRaw<NamedId[]>`
      SELECT id::text AS id, name FROM gateway_keys
      WHERE tenant_id = ${tenantId}::uuid AND id = ANY(${ids}::uuid[])`;
  }

  /** The ids of the tenant's keys named `name`, in any case. */
  async keysNamed(tenantId: string, name: string): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM gateway_keys
      WHERE tenant_id = ${tenantId}::uuid AND lower(name) = lower(${name})
      ORDER BY created_at, id`;
    return rows.map((row) => row.id);
  }

  /** A deleted credential keeps the name its create or delete event recorded. */
  credentials(tenantId: string, ids: readonly string[]): Promise<NamedId[]> {
    return this.prisma.$queryRaw<NamedId[]>`
      SELECT ids.id, coalesce(c.name, recorded.name) AS name
      FROM unnest(${ids}::uuid[]) AS ids (id)
      LEFT JOIN credentials c ON c.tenant_id = ${tenantId}::uuid AND c.id = ids.id
      LEFT JOIN LATERAL (
        SELECT e.details->>'name' AS name FROM audit_events e
        WHERE e.tenant_id = ${tenantId}::uuid AND e.target = 'credential:' || ids.id::text
          AND e.action IN ('credential.create', 'credential.delete') AND e.details->>'name' IS NOT NULL
        ORDER BY e.seq DESC LIMIT 1
      ) recorded ON c.id IS NULL
      WHERE coalesce(c.name, recorded.name) IS NOT NULL`;
  }

  /**
   * A pipe's name as the gateway last set it: the newest rename an update made through it, else
   * the spec it was created with.
   */
  pipes(tenantId: string, ids: readonly string[]): Promise<NamedId[]> {
    return this.prisma.$queryRaw<NamedId[]>`
      SELECT ids.id, coalesce(renamed.name, created.name) AS name
      FROM unnest(${ids}::text[]) AS ids (id)
      LEFT JOIN LATERAL (
        SELECT e.details->'change'->>'name' AS name FROM audit_events e
        WHERE e.tenant_id = ${tenantId}::uuid AND e.target = 'pipe:' || ids.id
          AND e.action = 'pipe.update' AND e.outcome = 'succeeded'
          AND jsonb_typeof(e.details->'change'->'name') = 'string'
        ORDER BY e.seq DESC LIMIT 1
      ) renamed ON true
      LEFT JOIN LATERAL (
        SELECT r.spec->>'name' AS name FROM pipe_spec_records r
        WHERE r.tenant_id = ${tenantId}::uuid AND r.pipe_id = ids.id AND r.outcome = 'succeeded'
          AND jsonb_typeof(r.spec->'name') = 'string'
        ORDER BY r.created_at DESC LIMIT 1
      ) created ON true
      WHERE coalesce(renamed.name, created.name) IS NOT NULL`;
  }

  /** The name in the spec each history entry recorded. */
  pipeSpecs(tenantId: string, ids: readonly string[]): Promise<NamedId[]> {
    return this.prisma.$queryRaw<NamedId[]>`
      SELECT id::text AS id, spec->>'name' AS name FROM pipe_spec_records
      WHERE tenant_id = ${tenantId}::uuid AND id = ANY(${ids}::uuid[])
        AND jsonb_typeof(spec->'name') = 'string'`;
  }

  /**
   * A dashboard's name as the gateway last wrote it: the name the newest write through it left
   * (replace, restore), else the one in the newest version it keeps (a create's content).
   */
  dashboards(tenantId: string, ids: readonly string[]): Promise<NamedId[]> {
    return this.prisma.$queryRaw<NamedId[]>`
      SELECT ids.id, coalesce(written.name, kept.name) AS name
      FROM unnest(${ids}::text[]) AS ids (id)
      LEFT JOIN LATERAL (
        SELECT e.details->>'name' AS name FROM audit_events e
        WHERE e.tenant_id = ${tenantId}::uuid AND e.target = 'dashboard:' || ids.id
          AND e.outcome = 'succeeded' AND jsonb_typeof(e.details->'name') = 'string'
        ORDER BY e.seq DESC LIMIT 1
      ) written ON true
      LEFT JOIN LATERAL (
        SELECT v.content->>'name' AS name FROM dashboard_versions v
        WHERE v.tenant_id = ${tenantId}::uuid AND v.dashboard_id = ids.id
          AND jsonb_typeof(v.content->'name') = 'string'
        ORDER BY v.version DESC LIMIT 1
      ) kept ON true
      WHERE coalesce(written.name, kept.name) IS NOT NULL`;
  }

  /** A group, assigned to the tenant, by the name the identity provider gives it. */
  groups(tenantId: string, ids: readonly string[]): Promise<NamedId[]> {
    return this.prisma.$queryRaw<NamedId[]>`
      SELECT id::text AS id, "group" AS name FROM tenant_groups
      WHERE tenant_id = ${tenantId}::uuid AND id = ANY(${ids}::uuid[])`;
  }

  /** A group mapping, by the group it maps. */
  groupMappings(tenantId: string, ids: readonly string[]): Promise<NamedId[]> {
    return this.prisma.$queryRaw<NamedId[]>`
      SELECT id::text AS id, "group" AS name FROM group_mappings
      WHERE tenant_id = ${tenantId}::uuid AND id = ANY(${ids}::uuid[])`;
  }

  tenant(tenantId: string): Promise<NamedId[]> {
    return this.prisma.$queryRaw<NamedId[]>`
      SELECT id::text AS id, name FROM tenants WHERE id = ${tenantId}::uuid`;
  }
}
