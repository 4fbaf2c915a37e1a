describe('database connections', () => {
  // Module registries are per test here, so what a connection loads is seen from a clean start.
  const loaded = (): string[] => {
    const names: string[] = [];
    jest.isolateModules(() => {
      for (const name of ['@electric-sql/pglite', 'pglite-prisma-adapter']) {
        jest.doMock(name, () => {
          names.push(name);
          return jest.requireActual(name);
        });
      }
      const { connectPostgres } =
        jest.requireActual<typeof import('./database-connection')>('./database-connection');
      void connectPostgres('postgres://nobody@127.0.0.1:1/none').close();
    });
    return names;
  };

  it('a Postgres connection does not load the embedded database', () => {
    expect(loaded()).toEqual([]);
  });

  it('an embedded connection loads it, and works', async () => {
    const { connectEmbedded } = await import('./database-connection');
    const connection = await connectEmbedded('memory://');
    try {
      expect(
        await connection.withLock(1, (session) => session.query<{ one: number }>('SELECT 1 AS one')),
      ).toEqual([{ one: 1 }]);
    } finally {
      await connection.close();
    }
  });

  it('an embedded database keeps a 16 MB buffer pool, not the 128 MB a Postgres server would', async () => {
    const { connectEmbedded } = await import('./database-connection');
    const connection = await connectEmbedded('memory://');
    try {
      expect(
        await connection.withLock(1, (session) =>
          session.query<{ shared_buffers: string }>('SHOW shared_buffers'),
        ),
      ).toEqual([{ shared_buffers: '16MB' }]);
    } finally {
      await connection.close();
    }
  });

  it('names each prepared text the same on every session, and leaves texts past its bound unnamed', async () => {
    const { PreparedNames } = await import('./database-connection');
    const names = new PreparedNames(2);
    expect(names.nameOf('SELECT 1')).toBe('prepared_1');
    expect(names.nameOf('SELECT 2')).toBe('prepared_2');
    expect(names.nameOf('SELECT 1')).toBe('prepared_1');
    expect(names.nameOf('SELECT 3')).toBeUndefined();
    expect(names.nameOf('SELECT 2')).toBe('prepared_2');
  });
});
