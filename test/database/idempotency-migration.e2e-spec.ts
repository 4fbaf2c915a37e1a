import { randomUUID } from 'node:crypto';
import { IdempotentRequestsRepository } from '../../src/idempotency/idempotent-requests.repository';
import { MigrationUnderTest } from '../support/migration-under-test';

const MIGRATION = '20261128200000_one_idempotency_store';

/**
 * Pipe creates kept their Idempotency-Key, fingerprint and answer in columns of pipe_spec_records;
 * the migration moves them to idempotent_requests, where the one idempotency store reads them.
 */
describe(`migration ${MIGRATION}`, () => {
  let migration: MigrationUnderTest | undefined;

  afterEach(async () => {
    await migration?.close();
    migration = undefined;
  });

  it('moves pipe creates sent with a key into idempotent_requests, naming their history entry', async () => {
    migration = await MigrationUnderTest.before(MIGRATION);

    const tenantId = randomUUID();
    const succeeded = randomUUID();
    const pending = randomUUID();
    const legacy = randomUUID();
    const plain = randomUUID();
    const createdAt = new Date('2026-11-28T09:00:00.000Z');
    await migration.withSession(async (session) => {
      await session.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenantId, 'moved']);
      const insert = (
        id: string,
        key: string | null,
        fingerprint: string | null,
        outcome: string,
        response: unknown,
      ) =>
        session.query(
          `INSERT INTO pipe_spec_records (id, tenant_id, actor, organization_id, service_id, spec, spec_hash,
                                          fingerprint, outcome, idempotency_key, response, request_id, created_at,
                                          completed_at)
           VALUES ($1, $2, 'key:old', $3, $4, '{}'::jsonb, 'hash', $5, $6::"PipeSpecOutcome", $7, $8::jsonb, $9, $10,
                   $11)`,
          [
            id,
            tenantId,
            randomUUID(),
            randomUUID(),
            fingerprint,
            outcome,
            key,
            response === null ? null : JSON.stringify(response),
            `request-${id}`,
            createdAt,
            outcome === 'pending' ? null : createdAt,
          ],
        );
      await insert(succeeded, 'key-succeeded', 'v1:done', 'succeeded', {
        status: 201,
        body: { result: { id: 'p1' } },
      });
      await insert(pending, 'key-pending', 'v1:running', 'pending', null);
      // Recorded before fingerprints were kept: nothing to tell a replay by, so its key is released.
      await insert(legacy, 'key-legacy', null, 'succeeded', { status: 201, body: {} });
      await insert(plain, null, null, 'failed', null);
    });

    const prisma = await migration.applyRest();
    const requests = new IdempotentRequestsRepository(prisma);
    const key = (name: string) => ({ tenantId, operation: 'pipe.create' as const, key: name });

    expect(await requests.find(key('key-succeeded'))).toEqual({
      tenantId,
      operation: 'pipe.create',
      key: 'key-succeeded',
      fingerprint: 'v1:done',
      recordId: succeeded,
      outcome: 'succeeded',
      response: { status: 201, body: { result: { id: 'p1' } } },
      createdAt,
      completedAt: createdAt,
    });
    expect(await requests.find(key('key-pending'))).toMatchObject({
      fingerprint: 'v1:running',
      recordId: pending,
      outcome: 'pending',
      response: null,
      completedAt: null,
    });
    expect(await requests.find(key('key-legacy'))).toBeNull();
    expect(await prisma.idempotentRequest.count()).toBe(2);
    // The history entries stay, without the columns that moved.
    expect(await prisma.pipeSpecRecord.count()).toBe(4);
  });
});
