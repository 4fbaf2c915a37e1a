import { Injectable } from '@nestjs/common';
import type { TableWrite } from '../audit/audit-events.repository';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';

/** Which write holds a dashboard: the dashboard's row of dashboard_write_heads. */
export interface WriteClaim {
  tenantId: string;
  dashboardId: string;
  /** The generation the claim expects the row to have; a claim taken moves it one on. */
  generation: number;
  /** The claiming write's own id. */
  writer: string;
}

/** The dashboard_write_heads table: the claim each dashboard write takes and gives back. */
@Injectable()
export class DashboardWriteHeadsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The row's generation, and whether a write holds it now; undefined for a dashboard never written. */
  async read(
    tenantId: string,
    dashboardId: string,
  ): Promise<{ generation: number; held: boolean } | undefined> {
    // Whether the claim is still held is Postgres's to say: it is the clock claims are taken by.
    const [head] = await this.prisma.$queryRaw<{ generation: number; held: boolean }[]>`
      SELECT generation, (writer IS NOT NULL AND writing_until >= now()) AS held
      FROM dashboard_write_heads WHERE tenant_id = ${tenantId}::uuid AND dashboard_id = ${dashboardId}`;
    return head;
  }

  // The writes below go with a write's audit events (AuditService.append).

  /**
   * Takes the claim for `claimMs`, or fails the whole statement (nothing of it written) when the
   * row's generation moved or another write holds it: Postgres then raises the SQLSTATE of the
   * migration's dashboard_write_claimable.
   */
  taken(claim: WriteClaim, claimMs: number): TableWrite {
    return {
      insert: 'dashboard_write_heads',
      values: {
        tenant_id: Prisma.sql`${claim.tenantId}::uuid`,
        dashboard_id: Prisma.sql`${claim.dashboardId}`,
        generation: Prisma.sql`${claim.generation + 1}::int`,
        writer: Prisma.sql`${claim.writer}`,
        writing_until: Prisma.sql`now() + ${claimMs}::int * interval '1 millisecond'`,
      },
      onConflict: Prisma.sql`
        ON CONFLICT (tenant_id, dashboard_id) DO UPDATE
        SET generation = EXCLUDED.generation, writer = EXCLUDED.writer, writing_until = EXCLUDED.writing_until
        WHERE dashboard_write_claimable(
          dashboard_write_heads.generation = EXCLUDED.generation - 1
          AND (dashboard_write_heads.writer IS NULL OR dashboard_write_heads.writing_until < now()))`,
    };
  }

  givenBack(claim: WriteClaim): TableWrite {
    return {
      update: 'dashboard_write_heads',
      set: { writer: Prisma.sql`NULL`, writing_until: Prisma.sql`NULL` },
      where: Prisma.sql`dashboard_write_heads.tenant_id = ${claim.tenantId}::uuid
        AND dashboard_write_heads.dashboard_id = ${claim.dashboardId}
        AND dashboard_write_heads.writer = ${claim.writer}`,
    };
  }
}
