import { viewOf } from './views';

describe('viewOf', () => {
  const row = { id: 'a', secret: 'never shown', createdAt: new Date(0), name: 'n' };

  it('copies the listed fields in the order listed and leaves the others out', () => {
    const view = viewOf(row, ['name', 'id', 'createdAt']);
    expect(view).toEqual({ name: 'n', id: 'a', createdAt: new Date(0) });
    expect(Object.keys(view)).toEqual(['name', 'id', 'createdAt']);
    expect(JSON.stringify(view)).not.toContain('never shown');
  });

  it('keeps null values as null', () => {
    expect(viewOf({ id: 'a', revokedAt: null }, ['id', 'revokedAt'])).toEqual({ id: 'a', revokedAt: null });
  });
});
