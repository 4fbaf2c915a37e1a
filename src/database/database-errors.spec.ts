import { isUniqueViolation } from './database-errors';

/** The shapes Prisma 7 gives a unique violation, as the pg and PGlite adapters report them. */
const rawViolation = (constraint: unknown) => ({
  code: 'P2010',
  meta: {
    driverAdapterError: {
      name: 'DriverAdapterError',
      cause: { originalCode: '23505', kind: 'UniqueConstraintViolation', constraint },
    },
  },
});

describe('isUniqueViolation', () => {
  it.each([
    ['a model query (P2002)', { code: 'P2002', meta: { target: ['tenant_id', 'idempotency_key'] } }],
    ['a raw query on Postgres', rawViolation({ index: 'pipe_spec_records_tenant_id_idempotency_key_key' })],
    ['a raw query on the embedded database', rawViolation({ fields: ['tenant_id', 'idempotency_key'] })],
  ])('recognises %s', (_case, error) => {
    expect(isUniqueViolation(error, 'idempotency')).toBe(true);
    expect(isUniqueViolation(error, 'version')).toBe(false);
  });

  it.each([
    [
      'another raw failure',
      {
        code: 'P2010',
        meta: {
          driverAdapterError: {
            cause: { kind: 'ForeignKeyConstraintViolation', constraint: { index: 'idempotency' } },
          },
        },
      },
    ],
    ['a plain error', new Error('idempotency')],
    ['nothing', undefined],
  ])('refuses %s', (_case, error) => {
    expect(isUniqueViolation(error, 'idempotency')).toBe(false);
  });
});
