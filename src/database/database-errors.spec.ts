import { databaseUnavailableProblem, isUniqueViolation, onDuplicate } from './database-errors';
import { UNIQUE } from './unique-constraints';

/** A violation as Prisma 7 reports it (P2002 from a model query, P2010 from a raw one). */
const prismaViolation = (code: string, constraint: unknown) => ({
  code,
  meta: {
    driverAdapterError: {
      name: 'DriverAdapterError',
      cause: { originalCode: '23505', kind: 'UniqueConstraintViolation', constraint },
    },
  },
});

describe('isUniqueViolation', () => {
  it.each([
    ['a model query on Postgres', prismaViolation('P2002', { index: 'group_mappings_tenant_id_group_key' })],
    [
      'a model query on the embedded database',
      prismaViolation('P2002', { fields: ['tenant_id', '"group"'] }),
    ],
    ['a raw query on Postgres', prismaViolation('P2010', { index: 'group_mappings_tenant_id_group_key' })],
    ['a raw query on the embedded database', prismaViolation('P2010', { fields: ['tenant_id', 'group'] })],
    ['a statement sent past Prisma', { code: '23505', constraint: 'group_mappings_tenant_id_group_key' }],
  ])('recognises %s', (_case, error) => {
    expect(isUniqueViolation(error, UNIQUE.groupMapping)).toBe(true);
    expect(isUniqueViolation(error, UNIQUE.tenantName)).toBe(false);
  });

  it('tells constraints with overlapping columns apart', () => {
    const error = prismaViolation('P2002', { fields: ['tenant_id', 'kind', 'organization_id'] });
    expect(isUniqueViolation(error, UNIQUE.pipesCredentialOrganization)).toBe(true);
    expect(isUniqueViolation(error, UNIQUE.secretName)).toBe(false);
    expect(isUniqueViolation(prismaViolation('P2002', { fields: ['tenant_id'] }), UNIQUE.secretName)).toBe(
      false,
    );
  });

  it.each([
    [
      'another constraint violation',
      {
        code: 'P2010',
        meta: {
          driverAdapterError: {
            cause: { kind: 'ForeignKeyConstraintViolation', constraint: { index: 'tenants_name_key' } },
          },
        },
      },
    ],
    ['a violation that names no constraint', prismaViolation('P2002', undefined)],
    ['a statement sent past Prisma, another failure', { code: '23503', constraint: 'tenants_name_key' }],
    ['a plain error', new Error('tenants_name_key')],
    ['nothing', undefined],
  ])('refuses %s', (_case, error) => {
    expect(isUniqueViolation(error, UNIQUE.tenantName)).toBe(false);
  });
});

describe('onDuplicate', () => {
  const conflict = new Error('taken');
  /** A write that failed with `error`, as Prisma fails it (with a plain object). */
  const failedWith = (error: unknown) => onDuplicate(UNIQUE.tenantName, () => conflict)(error);

  it('turns a violation of its constraint into the conflict', async () => {
    await expect(failedWith(prismaViolation('P2002', { index: 'tenants_name_key' }))).rejects.toBe(conflict);
  });

  it('passes any other error on as it is', async () => {
    const other = prismaViolation('P2002', { index: 'credentials_tenant_id_secret_name_key' });
    await expect(failedWith(other)).rejects.toBe(other);
  });
});

describe('databaseUnavailableProblem', () => {
  /** A Postgres error as Prisma 7 wraps it (model query: P2039, raw query: P2010). */
  const wrapped = (prismaCode: string, cause: Record<string, unknown>) => ({
    code: prismaCode,
    meta: { driverAdapterError: { name: 'DriverAdapterError', message: 'x', cause } },
  });
  const postgres = (code: string) => wrapped('P2039', { originalCode: code, kind: 'postgres', code });

  it.each([
    ['a refused connection', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    ['a connection lost mid-statement', new Error('Connection terminated unexpectedly')],
    ['a server that stopped answering', new Error('Query read timeout')],
    ['no pooled connection in time', new Error('timeout exceeded when trying to connect')],
    ['a connection that did not open in time', new Error('Connection terminated due to connection timeout')],
    [
      'a transaction that could not start (P2028)',
      { code: 'P2028', message: 'Unable to start a transaction' },
    ],
    ['a database that refuses connections (55000)', postgres('55000')],
    [
      'a raw query on it (P2010)',
      wrapped('P2010', { originalCode: '55000', kind: 'postgres', code: '55000' }),
    ],
    [
      'a dropped database (3D000, named by the adapter)',
      wrapped('P1003', { originalCode: '3D000', kind: 'DatabaseDoesNotExist', db: 'gone' }),
    ],
    ['a statement past its timeout (57014)', postgres('57014')],
    ['an administrator shutdown (57P01)', postgres('57P01')],
    ['a crash shutdown (57P02)', postgres('57P02')],
    ['a server starting or stopping (57P03)', postgres('57P03')],
    ['too many connections (53300)', postgres('53300')],
  ])('is a 503 with Retry-After for %s', (_case, error) => {
    const problem = databaseUnavailableProblem(error);
    expect(problem?.problem).toMatchObject({
      status: 503,
      type: 'database-unavailable',
      headers: { 'retry-after': expect.stringMatching(/^[1-9]\d*$/) },
    });
  });

  it.each([
    ['a unique violation', postgres('23505')],
    ['a syntax error', postgres('42601')],
    ['a plain error', new Error('something else')],
  ])('is null for %s', (_case, error) => {
    expect(databaseUnavailableProblem(error)).toBeNull();
  });
});
