/** The rules of a dashboard body across fields; they run once the schema has accepted it. */
import type { BodyRule } from '../../common/validation/json-schema';

type Tile = { id?: unknown; series?: unknown; config?: unknown };

function tilesOf(body: unknown): Tile[] {
  const tiles = (body as { tiles?: unknown }).tiles;
  return Array.isArray(tiles) ? (tiles as Tile[]) : [];
}

/** A tile id appears once: the service would refuse the body, and which tile kept it would be a guess. */
export const uniqueTileIds: BodyRule = (body, errors) => {
  const seen = new Set<unknown>();
  tilesOf(body).forEach((tile, index) => {
    if (tile.id === undefined) return;
    if (seen.has(tile.id)) errors.push({ path: `tiles[${index}].id`, message: 'is used by an earlier tile' });
    seen.add(tile.id);
  });
};

/** A tile is drawn from `series` (the 2025 API) or from `config` (today's API): one of the two. */
export const seriesOrConfig: BodyRule = (body, errors) => {
  tilesOf(body).forEach((tile, index) => {
    if ((tile.series === undefined) === (tile.config === undefined)) {
      errors.push({ path: `tiles[${index}]`, message: 'must have exactly one of series and config' });
    }
  });
};
