/**
 * Checks a dashboard body the way the real server's schema does, with the same issue texts
 * (`<path>: <message>`, paths joined with dots, array indexes included), so a client sees the
 * messages it will see in production. The server takes tiles of the 2025 API (`series`) and of
 * today's API (`config`), and keeps only the fields its schema knows.
 */

export const MAX_TILES = 500;
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 32;
const MAX_TILE_ID_LENGTH = 36;
const MAX_GROUP_BY = 10;
const MAX_MARKDOWN_LENGTH = 100_000;
const MAX_NAME_LENGTH = 1024;

export type DashboardSeries = { type: string } & Record<string, unknown>;

export interface DashboardTile {
  id: string;
  name?: string;
  x: number;
  y: number;
  w: number;
  h: number;
  asRatio?: boolean;
  series?: DashboardSeries[];
  config?: Record<string, unknown>;
  containerId?: string;
  tabId?: string;
}

export interface Dashboard {
  id: string;
  name: string;
  tiles: DashboardTile[];
  tags: string[];
  filters?: unknown[];
  savedQuery?: string | null;
  savedQueryLanguage?: string | null;
  savedFilterValues?: unknown[];
  containers?: unknown[];
}

/** A body that passed dashboardBodyIssues; tiles may leave out their id, and all but name and tiles are optional. */
export type DashboardBody = Omit<Dashboard, 'id' | 'tiles' | 'tags'> & {
  tiles: Array<Omit<DashboardTile, 'id'> & { id?: string }>;
  tags?: string[];
};

type Path = Array<string | number>;
type Expected = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'any';

/** The fields the server keeps, with their types; anything else in a body is dropped. */
const SERIES_FIELDS: Record<string, Expected> = {
  type: 'string',
  dataSource: 'string',
  aggFn: 'string',
  field: 'string',
  where: 'string',
  whereLanguage: 'string',
  groupBy: 'array',
  sortOrder: 'string',
  numberFormat: 'object',
  metricDataType: 'string',
  metricName: 'string',
  content: 'string',
  fields: 'array',
  sourceId: 'string',
  alias: 'string',
  level: 'any',
};
const TILE_FIELDS: Record<string, Expected> = {
  id: 'string',
  name: 'string',
  x: 'number',
  y: 'number',
  w: 'number',
  h: 'number',
  asRatio: 'boolean',
  series: 'array',
  config: 'object',
  containerId: 'string',
  tabId: 'string',
};
const DASHBOARD_FIELDS: Record<string, Expected> = {
  name: 'string',
  tiles: 'array',
  tags: 'array',
  filters: 'array',
  savedQuery: 'any',
  savedQueryLanguage: 'any',
  savedFilterValues: 'array',
  containers: 'array',
};
const LAYOUT: Record<string, [number, number]> = {
  x: [0, 23],
  y: [0, Infinity],
  w: [1, 24],
  h: [1, Infinity],
};

export function dashboardBodyIssues(body: unknown): string[] {
  const issues: string[] = [];
  if (!expectType(body, 'object', [], issues)) return issues;
  const fields = body as Record<string, unknown>;
  optionalFields(fields, DASHBOARD_FIELDS, [], issues);
  expectType(fields.name, 'string', ['name'], issues);
  if (typeof fields.name === 'string') maxLengthIssue(fields.name, MAX_NAME_LENGTH, ['name'], issues);
  if (expectType(fields.tiles, 'array', ['tiles'], issues)) tileListIssues(fields.tiles as unknown[], issues);
  if (Array.isArray(fields.tags)) tagIssues(fields.tags, issues);
  return issues;
}

/** A copy holding only the fields the server keeps; unknown fields are dropped as its schema does. */
export function knownTileFields(tile: DashboardBody['tiles'][number], id: string): DashboardTile {
  const known = pick(tile, TILE_FIELDS) as unknown as DashboardTile;
  if (Array.isArray(tile.series)) {
    known.series = tile.series.map((series) => pick(series, SERIES_FIELDS) as DashboardSeries);
  }
  return { ...known, id };
}

/** The dashboard-level fields of a body the server keeps, tiles and id aside. */
export function knownDashboardFields(
  body: DashboardBody,
): Omit<Dashboard, 'id' | 'tiles'> & { tags?: string[] } {
  const { tiles: _tiles, ...rest } = pick(body, DASHBOARD_FIELDS);
  return rest as Omit<Dashboard, 'id' | 'tiles'>;
}

function pick(value: object, fields: Record<string, Expected>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name, inner]) => Object.hasOwn(fields, name) && inner !== undefined)
      .map(([name, inner]) => [name, structuredClone(inner)]),
  );
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
  optionalFields(fields, TILE_FIELDS, path, issues);
  if (typeof fields.id === 'string') maxLengthIssue(fields.id, MAX_TILE_ID_LENGTH, [...path, 'id'], issues);
  for (const [axis, [min, max]] of Object.entries(LAYOUT)) {
    if (!expectType(fields[axis], 'number', [...path, axis], issues)) continue;
    const value = fields[axis] as number;
    if (value < min) issues.push(issue([...path, axis], `Number must be greater than or equal to ${min}`));
    if (value > max) issues.push(issue([...path, axis], `Number must be less than or equal to ${max}`));
  }
  if ((fields.series === undefined) === (fields.config === undefined)) {
    issues.push(issue(path, 'A tile must have either series or config'));
  }
  if (Array.isArray(fields.series)) {
    expectType(fields.name, 'string', [...path, 'name'], issues);
    fields.series.forEach((series, index) => seriesIssues(series, [...path, 'series', index], issues));
  }
}

function seriesIssues(series: unknown, path: Path, issues: string[]): void {
  if (!expectType(series, 'object', path, issues)) return;
  const fields = series as Record<string, unknown>;
  expectType(fields.type, 'string', [...path, 'type'], issues);
  optionalFields(fields, SERIES_FIELDS, path, issues);
  if (Array.isArray(fields.groupBy) && fields.groupBy.length > MAX_GROUP_BY) {
    issues.push(issue([...path, 'groupBy'], `Array must contain at most ${MAX_GROUP_BY} element(s)`));
  }
  if (typeof fields.content === 'string') {
    maxLengthIssue(fields.content, MAX_MARKDOWN_LENGTH, [...path, 'content'], issues);
  }
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

/** Type issues of the known fields present; required ones are checked by the caller. */
function optionalFields(
  fields: Record<string, unknown>,
  types: Record<string, Expected>,
  path: Path,
  issues: string[],
): void {
  for (const [name, expected] of Object.entries(types)) {
    if (fields[name] !== undefined && expected !== 'any')
      expectType(fields[name], expected, [...path, name], issues);
  }
}

function maxLengthIssue(value: string, max: number, path: Path, issues: string[]): void {
  if (value.length > max) issues.push(issue(path, `String must contain at most ${max} character(s)`));
}

/** Reports a wrong or missing value once per path. */
function expectType(value: unknown, expected: Expected, path: Path, issues: string[]): boolean {
  const received = receivedType(value);
  if (received === expected) return true;
  const text = issue(
    path,
    received === 'undefined' ? 'Required' : `Expected ${expected}, received ${received}`,
  );
  if (!issues.includes(text)) issues.push(text);
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
