import { Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { PrismaService } from '../database/prisma.service';
import type { AuditEvent } from '../generated/prisma/client';
import { AuditChainKeys } from '../crypto/audit-chain-keys';
import { generateKeyText, parseKeyRing } from '../crypto/key-ring';
import { GENESIS_HASH } from './audit-chain';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditService } from './audit.service';
import { WriteTransactions } from '../database/write-transactions';

const TENANT = '3f1e2d4c-0000-4000-8000-000000000000';

interface FindManyArgs {
  where: { AND: [{ seq: { lte: number } }, { seq: { gt: number } }] };
  take: number;
}

/** Just enough of Prisma for the export: a chain head and keyset reads over `total` events. */
function fakeDatabase(total: number) {
  const rows: AuditEvent[] = Array.from({ length: total }, (_, index) => ({
    tenantId: TENANT,
    seq: index + 1,
    at: new Date(Date.UTC(2026, 0, 1) + index),
    actor: 'key:k1',
    onBehalfOf: null,
    action: 'key.create',
    target: null,
    requestId: `req-${index + 1}`,
    outcome: 'succeeded',
    httpStatus: 201,
    details: { index },
    prevHash: GENESIS_HASH,
    hash: GENESIS_HASH,
    chainKey: 'v1',
    prevDigest: GENESIS_HASH,
    digest: GENESIS_HASH,
  }));
  const findMany = jest.fn(({ where, take }: FindManyArgs) => {
    const [{ seq: head }, { seq: after }] = where.AND;
    return Promise.resolve(rows.filter((row) => row.seq > after.gt && row.seq <= head.lte).slice(0, take));
  });
  const prisma = {
    auditChain: { findUnique: () => Promise.resolve({ lastSeq: total }) },
    auditEvent: { findMany },
  };
  const keys = new AuditChainKeys(parseKeyRing(generateKeyText('v1')));
  const database = prisma as unknown as PrismaService;
  const writes = new WriteTransactions(database);
  return { service: new AuditService(database, new AuditEventsRepository(database), writes, keys), findMany };
}

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

describe('AuditService.exportNdjson', () => {
  it('reads one batch of at most 1000 rows at a time, only as the stream is consumed', async () => {
    const { service, findMany } = fakeDatabase(5500);
    const stream = await service.exportNdjson(TENANT, {});
    expect(findMany).toHaveBeenCalledTimes(1);

    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    expect(findMany.mock.calls.length).toBeLessThanOrEqual(2);

    let rest = '';
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      rest += String(next.value);
    expect(findMany).toHaveBeenCalledTimes(6);
    expect(findMany.mock.calls.every(([args]) => args.take === 1000)).toBe(true);
    const lastLine = rest.trimEnd().split('\n').pop()!;
    expect(JSON.parse(lastLine)).toMatchObject({ seq: 5500, requestId: 'req-5500' });
  });

  it('writes one event per line in seq order', async () => {
    const { service } = fakeDatabase(2000);
    const lines = (await readAll(await service.exportNdjson(TENANT, {}))).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { seq: number }).seq)).toEqual(
      Array.from({ length: 2000 }, (_, index) => index + 1),
    );
  });

  it('ends at once when nothing matches', async () => {
    const { service, findMany } = fakeDatabase(0);
    expect(await readAll(await service.exportNdjson(TENANT, {}))).toBe('');
    expect(findMany).toHaveBeenCalledTimes(1);
  });

  it('fails before answering when the first read fails, and logs a failure mid-stream', async () => {
    const { service, findMany } = fakeDatabase(3000);
    findMany.mockRejectedValueOnce(new Error('database gone'));
    await expect(service.exportNdjson(TENANT, {})).rejects.toThrow('database gone');

    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const stream = await service.exportNdjson(TENANT, {});
    findMany.mockRejectedValueOnce(new Error('database gone'));
    await expect(readAll(stream)).rejects.toThrow('database gone');
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ tenantId: TENANT }), expect.any(String));
    logged.mockRestore();
  });
});
