/**
 * Checks a dashboard PUT body the way the real server's schema does, with the same issue texts
 * (`<path>: <message>`, paths joined with dots, array indexes included), so a client sees the
 * messages it will see in production.
 */

export const MAX_TILES = 500;
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 32;
// Tile ids chosen by a client are accepted up to this length before they are checked against the dashboard.
const MAX_TILE_ID_LENGTH = 36;

export interface DashboardSeries {
  type: string;
  dataSource?: string;
  aggFn?: string;
  field?: string;
  where?: string;
  groupBy?: unknown[];
}

export interface DashboardTile {
  id: string;
  name: string;
  x: number;
  y: number;
  w: number;
  h: number;
  asRatio?: boolean;
  series: DashboardSeries[];
}

export interface Dashboard {
  id: string;
  name: string;
  tiles: DashboardTile[];
  tags: string[];
}

/** A PUT body that passed dashboardBodyIssues; tiles may leave out their id. */
export interface DashboardBody {
  name: string;
  tiles: Array<Omit<DashboardTile, 'id'> & { id?: string }>;
  tags?: string[];
}

type Path = Array<string | number>;
type Expected = 'string' | 'number' | 'boolean' | 'array' | 'object';

export function dashboardBodyIssues(body: unknown): string[] {
  const issues: string[] = [];
  if (!expectType(body, 'object', [], issues)) return issues;
  const { name, tiles, tags } = body as Record<string, unknown>;
  expectType(name, 'string', ['name'], issues);
  if (expectType(tiles, 'array', ['tiles'], issues)) tileListIssues(tiles as unknown[], issues);
  if (tags !== undefined && expectType(tags, 'array', ['tags'], issues)) tagIssues(tags as unknown[], issues);
  return issues;
}

/** A copy holding only the fields the server keeps; unknown fields are dropped as its schema does. */
export function knownTileFields(tile: DashboardBody['tiles'][number], id: string): DashboardTile {
  return {
    id,
    name: tile.name,
    x: tile.x,
    y: tile.y,
    w: tile.w,
    h: tile.h,
    ...(tile.asRatio === undefined ? {} : { asRatio: tile.asRatio }),
    series: tile.series.map((series) =>
      pickDefined({
        type: series.type,
        dataSource: series.dataSource,
        aggFn: series.aggFn,
        field: series.field,
        where: series.where,
        groupBy: series.groupBy && structuredClone(series.groupBy),
      }),
    ),
  };
}

function tileListIssues(tiles: unknown[], issues: string[]): void {
  if (tiles.length > MAX_TILES)
    issues.push(issue(['tiles'], `Array must contain at most ${MAX_TILES} element(s)`));
  const before = issues.length;
  tiles.forEach((tile, index) => tileIssues(tile, ['tiles', index], issues));
  // Like the server, duplicates are looked for only once every tile is well formed.
  if (issues.length > before) return;
  const seen = new Set<string>();
  for (const { id } of tiles as DashboardBody['tiles']) {
    if (id === undefined || id === '') continue;
    if (seen.has(id))
      issues.push(issue(['tiles'], `Duplicate tile ID: ${id}. Omit the ID to generate a unique one.`));
    seen.add(id);
  }
}

function tileIssues(tile: unknown, path: Path, issues: string[]): void {
  if (!expectType(tile, 'object', path, issues)) return;
  const fields = tile as Record<string, unknown>;
  if (fields.id !== undefined && expectType(fields.id, 'string', [...path, 'id'], issues)) {
    maxLengthIssue(fields.id as string, MAX_TILE_ID_LENGTH, [...path, 'id'], issues);
  }
  expectType(fields.name, 'string', [...path, 'name'], issues);
  for (const axis of ['x', 'y', 'w', 'h']) expectType(fields[axis], 'number', [...path, axis], issues);
  if (fields.asRatio !== undefined) expectType(fields.asRatio, 'boolean', [...path, 'asRatio'], issues);
  if (expectType(fields.series, 'array', [...path, 'series'], issues)) {
    (fields.series as unknown[]).forEach((series, index) =>
      seriesIssues(series, [...path, 'series', index], issues),
    );
  }
}

function seriesIssues(series: unknown, path: Path, issues: string[]): void {
  if (!expectType(series, 'object', path, issues)) return;
  const fields = series as Record<string, unknown>;
  expectType(fields.type, 'string', [...path, 'type'], issues);
  for (const name of ['dataSource', 'aggFn', 'field', 'where']) {
    if (fields[name] !== undefined) expectType(fields[name], 'string', [...path, name], issues);
  }
  if (fields.groupBy !== undefined) expectType(fields.groupBy, 'array', [...path, 'groupBy'], issues);
}

function tagIssues(tags: unknown[], issues: string[]): void {
  if (tags.length > MAX_TAGS)
    issues.push(issue(['tags'], `Array must contain at most ${MAX_TAGS} element(s)`));
  tags.forEach((tag, index) => {
    if (expectType(tag, 'string', ['tags', index], issues)) {
      maxLengthIssue(tag as string, MAX_TAG_LENGTH, ['tags', index], issues);
    }
  });
}

function maxLengthIssue(value: string, max: number, path: Path, issues: string[]): void {
  if (value.length > max) issues.push(issue(path, `String must contain at most ${max} character(s)`));
}

function expectType(value: unknown, expected: Expected, path: Path, issues: string[]): boolean {
  const received = receivedType(value);
  if (received === expected) return true;
  issues.push(
    issue(path, received === 'undefined' ? 'Required' : `Expected ${expected}, received ${received}`),
  );
  return false;
}

function receivedType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isNaN(value)) return 'nan';
  return typeof value;
}

function issue(path: Path, message: string): string {
  return path.length === 0 ? message : `${path.join('.')}: ${message}`;
}

function pickDefined<T extends Record<string, unknown>>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}
