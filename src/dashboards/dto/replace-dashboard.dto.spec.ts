import { patched, rejection, validated } from '../../common/validation/test-support/dto-validation';
import { validDashboardBody } from './test-support/dashboard-fixtures';
import { ReplaceDashboardDto, SeriesDto, TileDto } from './replace-dashboard.dto';

const KEYWORD_MESSAGE = 'must be 1 to 64 lowercase letters, digits or underscores';

function tile(index: number): TileDto {
  return { ...validDashboardBody().tiles[0], id: `tile_${index}` };
}

describe('ReplaceDashboardDto', () => {
  it('accepts the fixture and builds the DTO classes', async () => {
    const dto = await validated(ReplaceDashboardDto, validDashboardBody());
    expect(dto).toBeInstanceOf(ReplaceDashboardDto);
    expect(dto.tiles[1]).toBeInstanceOf(TileDto);
    expect(dto.tiles[1].series[0]).toBeInstanceOf(SeriesDto);
    expect(JSON.parse(JSON.stringify(dto))).toEqual(validDashboardBody());
  });

  it('accepts the limits: 500 tiles, 50 tags of 32 characters, a 1024-character name', async () => {
    const body = {
      name: 'n'.repeat(1024),
      tiles: Array.from({ length: 500 }, (_, index) => tile(index)),
      tags: Array.from({ length: 50 }, (_, index) => `${index}`.padEnd(32, 't')),
    };
    await expect(validated(ReplaceDashboardDto, body)).resolves.toBeInstanceOf(ReplaceDashboardDto);
  });

  it('accepts an empty dashboard and fractional positions', async () => {
    await expect(
      validated(ReplaceDashboardDto, { name: 'Empty', tiles: [], tags: [] }),
    ).resolves.toBeDefined();
    const body = patched(patched(validDashboardBody(), 'tiles[0].x', 0.5), 'tiles[0].w', 0.25);
    await expect(validated(ReplaceDashboardDto, body)).resolves.toBeDefined();
  });

  it('names every missing required field', async () => {
    expect((await rejection(ReplaceDashboardDto, {})).paths).toEqual(['name', 'tiles', 'tags']);
    const { paths } = await rejection(ReplaceDashboardDto, {
      name: 'd',
      tags: [],
      tiles: [{ series: [{}] }],
    });
    expect(paths).toEqual([
      'tiles[0].name',
      'tiles[0].x',
      'tiles[0].y',
      'tiles[0].w',
      'tiles[0].h',
      'tiles[0].series[0].type',
      'tiles[0].series[0].dataSource',
      'tiles[0].series[0].aggFn',
    ]);
  });

  it.each([
    ['name', 42],
    ['name', ''],
    ['name', 'n'.repeat(1025)],
    ['tiles', {}],
    ['tiles', 'tile'],
    ['tags', 'checkout'],
    ['tags', [1]],
    ['tiles[0].id', ''],
    ['tiles[0].id', 'i'.repeat(65)],
    ['tiles[0].id', 7],
    ['tiles[0].name', null],
    ['tiles[0].x', '1'],
    ['tiles[0].y', true],
    ['tiles[0].w', '6'],
    ['tiles[0].h', [3]],
    ['tiles[0].asRatio', 'true'],
    ['tiles[0].asRatio', null],
    ['tiles[0].series', 'count'],
    ['tiles[0].series[0].field', 1],
    ['tiles[0].series[0].where', 'w'.repeat(4097)],
    ['tiles[0].series[0].groupBy', 'service'],
    ['tiles[0].series[0].groupBy', [1]],
  ])('rejects %s = %j', async (path, value) => {
    const { status, paths } = await rejection(
      ReplaceDashboardDto,
      patched(validDashboardBody(), path, value),
    );
    expect(status).toBe(400);
    expect(paths[0]).toBe(path);
  });

  it.each([
    ['x', -1],
    ['y', -0.5],
    ['w', 0],
    ['w', -6],
    ['h', 0],
    ['h', -3],
    ['x', Number.NaN],
    ['y', Number.POSITIVE_INFINITY],
    ['w', Number.POSITIVE_INFINITY],
  ])('rejects the tile position or size %s = %d', async (field, value) => {
    const { paths } = await rejection(
      ReplaceDashboardDto,
      patched(validDashboardBody(), `tiles[1].${field}`, value),
    );
    expect(paths).toEqual([`tiles[1].${field}`]);
  });

  it('rejects more than 500 tiles and more than 50 tags', async () => {
    const body = {
      ...validDashboardBody(),
      tiles: Array.from({ length: 501 }, (_, index) => tile(index)),
      tags: Array.from({ length: 51 }, (_, index) => `tag${index}`),
    };
    const { errors } = await rejection(ReplaceDashboardDto, body);
    expect(errors).toEqual([
      { path: 'tiles', message: 'tiles must contain no more than 500 elements' },
      { path: 'tags', message: 'tags must contain no more than 50 elements' },
    ]);
  });

  it('rejects a tag longer than 32 characters', async () => {
    const { errors } = await rejection(
      ReplaceDashboardDto,
      patched(validDashboardBody(), 'tags[1]', 't'.repeat(33)),
    );
    expect(errors).toEqual([
      { path: 'tags', message: 'each value in tags must be shorter than or equal to 32 characters' },
    ]);
  });

  it.each(['sum', 'p99', 'count_distinct', 'table', 'search', 'markdown', 'logs', 'k8s_events'])(
    'takes the series keyword %s',
    async (keyword) => {
      let body = patched(validDashboardBody(), 'tiles[0].series[0].type', keyword);
      body = patched(body, 'tiles[0].series[0].dataSource', keyword);
      body = patched(body, 'tiles[0].series[0].aggFn', keyword);
      await expect(validated(ReplaceDashboardDto, body)).resolves.toBeDefined();
    },
  );

  it.each([['Count'], [''], ['avg; drop'], ['p 99'], ['a'.repeat(65)], [1], [null]])(
    'rejects the series keyword %j',
    async (keyword) => {
      const { errors } = await rejection(
        ReplaceDashboardDto,
        patched(validDashboardBody(), 'tiles[1].series[0].aggFn', keyword),
      );
      expect(errors).toEqual([{ path: 'tiles[1].series[0].aggFn', message: KEYWORD_MESSAGE }]);
    },
  );

  it.each(['owner', 'tiles[0].config', 'tiles[1].series[0].content', 'tiles[0].series[0].sortOrder'])(
    'rejects the unknown field %s by its path',
    async (path) => {
      const { errors } = await rejection(ReplaceDashboardDto, patched(validDashboardBody(), path, 'x'));
      expect(errors).toEqual([{ path, message: 'is not a known field' }]);
    },
  );

  it('rejects tiles and series that are not objects', async () => {
    const body = patched(patched(validDashboardBody(), 'tiles[0]', 'tile'), 'tiles[1].series[0]', []);
    const { errors } = await rejection(ReplaceDashboardDto, body);
    expect(errors).toEqual([
      { path: 'tiles[0]', message: 'each value in tiles must be an object' },
      { path: 'tiles[1].series', message: 'each value in series must be an object' },
    ]);
  });
});
