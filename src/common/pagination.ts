import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { validationProblem } from './problem/validation';
import { IsText, IsWholeNumber } from './validation/validation-decorators';

export class PageQueryDto {
  @ApiPropertyOptional({ description: 'Opaque cursor from the previous page.' })
  @IsOptional()
  @IsText(0, 512)
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsWholeNumber(1, 200)
  limit?: number;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Keyset position: the sort value and the id of the last row of a page. */
export interface Keyset {
  at: string;
  id: string;
}

const MAX_TIME = Date.parse('9999-12-31T23:59:59.999Z');

export function encodeCursor(keyset: Keyset): string {
  return Buffer.from(JSON.stringify([keyset.at, keyset.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Keyset | null {
  if (cursor === undefined) return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    // Positions come from rows the gateway wrote, so they fall between 1970 and 9999.
    const time = typeof at === 'string' ? Date.parse(at) : NaN;
    if (typeof at === 'string' && typeof id === 'string' && time >= 0 && time < MAX_TIME) return { at, id };
  } catch {
    // fall through to the problem below
  }
  throw validationProblem([{ path: 'cursor', message: 'is not one this gateway issued' }]);
}

/** Builds a page from `limit + 1` rows fetched in order: the extra row only says there is more. */
export function toPage<Row, Item>(
  rows: Row[],
  limit: number,
  keyset: (row: Row) => Keyset,
  view: (row: Row) => Item,
): Page<Item> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items: items.map(view),
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyset(last)) : null,
  };
}

type Direction = 'asc' | 'desc';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Keyset paging on (createdAt, id): the rows after the cursor's position in `direction`, and the
 * matching order. Works for every table that has both columns.
 */
export function createdAtKeyset(cursor: string | undefined, direction: Direction) {
  const after = decodeCursor(cursor);
  // Ids on these tables are UUIDs; anything else cannot have come from this gateway.
  if (after && !UUID.test(after.id)) {
    throw validationProblem([{ path: 'cursor', message: 'is not one this gateway issued' }]);
  }
  const beyond = <T>(value: T) => (direction === 'asc' ? { gt: value } : { lt: value });
  return {
    where: after
      ? {
          OR: [
            { createdAt: beyond(new Date(after.at)) },
            { createdAt: new Date(after.at), id: beyond(after.id) },
          ],
        }
      : {},
    orderBy: [{ createdAt: direction }, { id: direction }],
  };
}

export function createdAtPosition(row: { createdAt: Date; id: string }): Keyset {
  return { at: row.createdAt.toISOString(), id: row.id };
}
