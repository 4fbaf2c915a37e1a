/**
 * The body of a dashboard replace (and create): what the gateway owns is checked, everything else
 * passes through unchanged, so any dashboard the service answers can be written back as it came.
 *
 * Owned: tile ids (at most 36 characters, unique), the layout (x 0-23, w 1-24, y >= 0, h >= 1), and
 * the service's published sizes (500 tiles, 50 tags of 32 characters, a name of 1024, markdown of
 * 100,000 characters, 10 group-by fields). A tile has `series` (the 2025 API) or `config` (today's
 * API), exactly one of the two. The documented fields of a series and of the dashboard are type
 * checked; their value sets are the service's to check, and fields the gateway does not know pass.
 */
import type { JsonSchema } from '../../common/validation/json-schema';

export const MAX_TILES = 500;
export const MAX_TILE_ID_LENGTH = 36;

const text = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
const texts = (extra: JsonSchema = {}): JsonSchema => ({ type: 'array', items: text(), ...extra });
const objects: JsonSchema = { type: 'array', items: { type: 'object' } };

/** An object whose fields beyond `properties` pass through. */
function open(properties: Record<string, JsonSchema>, extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', ...extra, properties, additionalProperties: true };
}

const SERIES = open(
  {
    type: text({ description: 'time, table, number, histogram, search or markdown' }),
    dataSource: text({ description: 'events or metrics' }),
    aggFn: text({ description: 'count, avg, sum, p99, count_distinct, ... and their _rate forms' }),
    field: text(),
    where: text(),
    whereLanguage: text({ description: 'sql or lucene' }),
    groupBy: texts({ maxItems: 10 }),
    sortOrder: text({ description: 'asc or desc (table)' }),
    numberFormat: { type: 'object' },
    metricDataType: text({ description: 'Gauge, Histogram, Sum or Summary' }),
    metricName: text(),
    content: text({ maxLength: 100_000, description: 'markdown' }),
    fields: texts({ description: 'search' }),
    sourceId: text(),
    alias: text(),
  },
  { required: ['type'] },
);

const TILE = open(
  {
    id: text({
      maxLength: MAX_TILE_ID_LENGTH,
      description: 'Keeps an existing tile; a tile without an id, or with an unknown one, gets a new id.',
    }),
    name: text(),
    x: { type: 'number', minimum: 0, maximum: 23 },
    y: { type: 'number', minimum: 0 },
    w: { type: 'number', minimum: 1, maximum: 24 },
    h: { type: 'number', minimum: 1 },
    asRatio: { type: 'boolean' },
    series: { type: 'array', items: SERIES, description: 'The 2025 API; or `config`, not both.' },
    config: { type: 'object', description: "Today's API: a chart description, passed through as it is." },
    containerId: text(),
    tabId: text(),
  },
  { required: ['x', 'y', 'w', 'h'], description: 'Exactly one of `series` and `config`.' },
);

export const DASHBOARD_BODY = open(
  {
    id: text({
      description: 'Ignored by the service on write; accepted so a read dashboard can be written back.',
    }),
    name: text({ minLength: 1, maxLength: 1024 }),
    tiles: { type: 'array', items: TILE, maxItems: MAX_TILES, description: 'Tiles left out are deleted.' },
    tags: texts({ maxItems: 50, items: text({ maxLength: 32 }) }),
    filters: objects,
    savedQuery: text({ nullable: true }),
    savedQueryLanguage: text({ nullable: true }),
    savedFilterValues: { type: 'array' },
    containers: objects,
  },
  { required: ['name', 'tiles'] },
);
