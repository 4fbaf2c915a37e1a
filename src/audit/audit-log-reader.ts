import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { readsAsActor } from '../auth/actors';
import type { Page, PageQueryDto } from '../common/pagination';
import { validationProblem } from '../common/problem/validation';
import { DisplayNames } from '../display-names/display-names';
import { AuditFacetsRepository, type FacetColumn } from './audit-facets.repository';
import { AuditService, type ExportEnd } from './audit.service';
import type {
  AuditActorView,
  AuditEventView,
  AuditFilterDto,
  AuditQueryDto,
  AuditTargetQueryDto,
  AuditTargetView,
} from './dto/audit.dto';

/** A page of events with the names of what they name, and what an actor filter matched. */
export type AuditEventList = Page<AuditEventView> & {
  names: Record<string, string>;
  actorsLookedFor?: string[];
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The log as people search it: an actor filter in the words they use (an address, a key's name),
 * names beside the ids events hold, and the actors and targets a filter may choose from.
 */
@Injectable()
export class AuditLogReader {
  constructor(
    private readonly audit: AuditService,
    private readonly facets: AuditFacetsRepository,
    private readonly names: DisplayNames,
  ) {}

  async list(tenantId: string, query: AuditQueryDto): Promise<AuditEventList> {
    const { actor, ...filter } = query;
    const actors = actor === undefined ? undefined : await this.actorsFor(tenantId, actor);
    const page = await this.audit.list(tenantId, { ...filter, actors });
    const names = await this.names.of(
      tenantId,
      page.items.flatMap((item) => [item.actor, item.target]),
    );
    return { ...page, names, ...(actors === undefined ? {} : { actorsLookedFor: actors }) };
  }

  async exportNdjson(tenantId: string, query: AuditFilterDto, end: ExportEnd): Promise<Readable> {
    const { actor, ...filter } = query;
    const actors = actor === undefined ? undefined : await this.actorsFor(tenantId, actor);
    return this.audit.exportNdjson(tenantId, { ...filter, actors }, end);
  }

  async actors(tenantId: string, query: PageQueryDto): Promise<Page<AuditActorView>> {
    const page = await this.facetPage(tenantId, 'actor', null, query);
    return { items: page.items.map(([actor, name]) => ({ actor, name })), nextCursor: page.nextCursor };
  }

  async targets(tenantId: string, query: AuditTargetQueryDto): Promise<Page<AuditTargetView>> {
    const prefix = query.kind === undefined ? null : `${query.kind}:`;
    const page = await this.facetPage(tenantId, 'target', prefix, query);
    return { items: page.items.map(([target, name]) => ({ target, name })), nextCursor: page.nextCursor };
  }

  /**
   * The actors an `actor` filter stands for: itself, written in an actor form; else the person
   * with that address or subject, the tenant's keys of that name, and the key of that id.
   */
  private async actorsFor(tenantId: string, text: string): Promise<string[]> {
    if (readsAsActor(text)) return [text];
    const keys = await this.names.keysNamed(tenantId, text);
    const byId = UUID.test(text) ? `key:${text.toLowerCase()}` : null;
    return [
      `user:${text}`,
      `user-sub:${text}`,
      ...keys,
      ...(byId === null || keys.includes(byId) ? [] : [byId]),
    ];
  }

  /** One page of a column's distinct values, each with its name (null when none is known). */
  private async facetPage(
    tenantId: string,
    column: FacetColumn,
    prefix: string | null,
    query: PageQueryDto,
  ): Promise<Page<[string, string | null]>> {
    const limit = query.limit ?? 50;
    const values = await this.facets.distinct(tenantId, column, {
      after: facetCursor(query.cursor),
      prefix,
      take: limit + 1,
    });
    const shown = values.slice(0, limit);
    const names = await this.names.of(tenantId, shown);
    return {
      items: shown.map((value) => [value, names[value] ?? null]),
      nextCursor:
        values.length > limit
          ? Buffer.from(JSON.stringify([shown[shown.length - 1]])).toString('base64url')
          : null,
    };
  }
}

/** The last value of the page before, from a cursor this reader issued; null for the first page. */
function facetCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  try {
    const position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    // Events' actors and targets hold no control character (NUL would not even reach Postgres).
    if (Array.isArray(position) && typeof position[0] === 'string' && /^[^\p{Cc}]+$/u.test(position[0]))
      return position[0];
  } catch {
    // fall through to the problem below
  }
  throw validationProblem([{ path: 'cursor', message: 'is not one this gateway issued' }]);
}
