import { differences, snapshotOf, type Pipe } from './pipe-diff';

const pipe = (fields: Partial<Pipe> & { id: string }): Pipe => ({
  name: 'p',
  state: 'Running',
  scaling: { replicas: 1 },
  updatedAt: '2026-01-01T00:00:00Z',
  ...fields,
});
const before = (...pipes: Pipe[]) => new Map(pipes.map((item) => [item.id, snapshotOf(item)]));

describe('differences', () => {
  it('finds created and deleted pipes', () => {
    expect(differences(before(pipe({ id: 'a' })), [pipe({ id: 'b' })])).toEqual([
      { type: 'pipe.created', pipeId: 'b', pipe: pipe({ id: 'b' }) },
      { type: 'pipe.deleted', pipeId: 'a' },
    ]);
  });

  it('tells a state change, a scaling change and another change apart, ignoring updatedAt', () => {
    const after = pipe({
      id: 'a',
      state: 'Stopped',
      scaling: { replicas: 2 },
      name: 'q',
      updatedAt: 'later',
    });
    expect(differences(before(pipe({ id: 'a' })), [after]).map((found) => found.type)).toEqual([
      'pipe.state',
      'pipe.scaling',
      'pipe.updated',
    ]);
    expect(differences(before(pipe({ id: 'a' })), [pipe({ id: 'a', updatedAt: 'later' })])).toEqual([]);
  });
});
