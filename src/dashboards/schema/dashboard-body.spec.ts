import { checkDashboardBody } from './dashboard-body';
import {
  seriesTiles,
  todaysDashboardBody,
  validDashboardBody,
} from '../../../test/fixtures/dashboard-bodies';

const tile = (fields: Record<string, unknown> = {}) => ({
  name: 't',
  x: 0,
  y: 0,
  w: 1,
  h: 1,
  series: [],
  ...fields,
});
const dashboard = (fields: Record<string, unknown> = {}): Record<string, any> => ({
  name: 'd',
  tiles: [],
  ...fields,
});
const pathsOf = (body: unknown) => checkDashboardBody(body).map((error) => error.path);

describe('dashboard body', () => {
  it('takes the contract sample, every series type of the 2025 API and a dashboard of today', () => {
    expect(checkDashboardBody(validDashboardBody())).toEqual([]);
    expect(checkDashboardBody(dashboard({ tiles: seriesTiles() }))).toEqual([]);
    expect(checkDashboardBody(todaysDashboardBody())).toEqual([]);
  });

  it('passes fields it does not know, at every level', () => {
    const body = todaysDashboardBody();
    body.owner = { team: 'payments' };
    body.tiles[0].config.future = [1, 2];
    body.tiles[0].futureTileField = true;
    const withSeries = dashboard({
      tiles: [tile({ series: [{ type: 'time', futureSeriesField: 'x' }] })],
      id: 'abc',
    });
    expect(checkDashboardBody(body)).toEqual([]);
    expect(checkDashboardBody(withSeries)).toEqual([]);
  });

  it('needs only a name and tiles', () => {
    expect(checkDashboardBody({ name: 'x', tiles: [] })).toEqual([]);
    expect(checkDashboardBody({})).toEqual([
      { path: 'name', message: 'is required' },
      { path: 'tiles', message: 'is required' },
    ]);
  });

  it('takes the bounds themselves', () => {
    const tiles = Array.from({ length: 500 }, (_, index) =>
      tile({ id: `t${index}`, x: 23, w: 24, y: 1e6, h: 1e6 }),
    );
    const body = dashboard({
      name: 'n'.repeat(1024),
      tiles,
      tags: Array.from({ length: 50 }, (_, index) => `${index}`.padEnd(32, 'x')),
    });
    body.tiles[0] = tile({
      id: 'i'.repeat(36),
      series: [{ type: 'markdown', content: 'm'.repeat(100_000) }],
    });
    body.tiles[1] = tile({
      series: [{ type: 'time', groupBy: Array.from({ length: 10 }, (_, i) => `g${i}`) }],
    });
    expect(checkDashboardBody(body)).toEqual([]);
  });

  it.each([
    ['more than 500 tiles', dashboard({ tiles: Array.from({ length: 501 }, () => tile()) }), 'tiles'],
    ['a name over 1024 characters', dashboard({ name: 'n'.repeat(1025) }), 'name'],
    ['an empty name', dashboard({ name: '' }), 'name'],
    ['more than 50 tags', dashboard({ tags: Array.from({ length: 51 }, () => 't') }), 'tags'],
    ['a tag over 32 characters', dashboard({ tags: ['t'.repeat(33)] }), 'tags[0]'],
    ['a tile id over 36 characters', dashboard({ tiles: [tile({ id: 'i'.repeat(37) })] }), 'tiles[0].id'],
    ['a tile id used twice', dashboard({ tiles: [tile({ id: 'a' }), tile({ id: 'a' })] }), 'tiles[1].id'],
    ['x past the grid', dashboard({ tiles: [tile({ x: 24 })] }), 'tiles[0].x'],
    ['a negative y', dashboard({ tiles: [tile({ y: -1 })] }), 'tiles[0].y'],
    ['a width of 0', dashboard({ tiles: [tile({ w: 0 })] }), 'tiles[0].w'],
    ['a width over the grid', dashboard({ tiles: [tile({ w: 25 })] }), 'tiles[0].w'],
    ['a height of 0', dashboard({ tiles: [tile({ h: 0 })] }), 'tiles[0].h'],
    ['a tile without its x', dashboard({ tiles: [tile({ x: undefined })] }), 'tiles[0].x'],
    ['both series and config', dashboard({ tiles: [tile({ config: {} })] }), 'tiles[0]'],
    ['neither series nor config', dashboard({ tiles: [tile({ series: undefined })] }), 'tiles[0]'],
    [
      'a series without a type',
      dashboard({ tiles: [tile({ series: [{ aggFn: 'count' }] })] }),
      'tiles[0].series[0].type',
    ],
    [
      'markdown over 100,000 characters',
      dashboard({ tiles: [tile({ series: [{ type: 'markdown', content: 'm'.repeat(100_001) }] })] }),
      'tiles[0].series[0].content',
    ],
    [
      'more than 10 group-by fields',
      dashboard({ tiles: [tile({ series: [{ type: 'time', groupBy: Array(11).fill('g') }] })] }),
      'tiles[0].series[0].groupBy',
    ],
    [
      'a number where a string goes',
      dashboard({ tiles: [tile({ series: [{ type: 'time', where: 5 }] })] }),
      'tiles[0].series[0].where',
    ],
    ['filters that are not a list', dashboard({ filters: {} }), 'filters'],
  ])('refuses %s', (_name, body, path) => {
    expect(pathsOf(body)).toEqual([path]);
  });
});
