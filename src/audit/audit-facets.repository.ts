import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';

/** The columns of audit_events a frontend offers the values of, each with an index led by the tenant. */
export type FacetColumn = 'actor' | 'target';

/** The distinct actors and targets of a tenant's log, the values its filters take. */
@Injectable()
export class AuditFacetsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Up to `take` distinct values of `column` in the tenant's events, in order, after `after` and
   * starting with `prefix` when given. Each step seeks the next value in the (tenant, column, seq)
   * index, so the read costs one seek per value, however many events share one.
   */
  async distinct(
    tenantId: string,
    column: FacetColumn,
    options: { after: string | null; prefix: string | null; take: number },
  ): Promise<string[]> {
    const value = Prisma.raw(column);
    const after = options.after ?? '';
    // The prefix is a kind of the action catalogue (letters and dashes): no LIKE wildcard in it.
    const like = options.prefix === null ? '%' : `${options.prefix}%`;
    const rows = await this.prisma.$queryRaw<{ value: string }[]>`
      WITH RECURSIVE found (value) AS (
        (SELECT ${value} FROM audit_events
         WHERE tenant_id = ${tenantId}::uuid AND ${value} > ${after} AND ${value} LIKE ${like}
         ORDER BY ${value} LIMIT 1)
        UNION ALL
        SELECT (SELECT e.${value} FROM audit_events e
                WHERE e.tenant_id = ${tenantId}::uuid AND e.${value} > found.value AND e.${value} LIKE ${like}
                ORDER BY e.${value} LIMIT 1)
        FROM found WHERE found.value IS NOT NULL
      )
      SELECT value FROM found WHERE value IS NOT NULL LIMIT ${options.take}`;
    return rows.map((row) => row.value);
  }
}
