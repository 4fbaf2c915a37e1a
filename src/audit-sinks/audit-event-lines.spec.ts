import type { AuditEvent } from '../generated/prisma/client';
import { auditEventLine } from '../audit/audit.service';
import { AuditEventLines, EventRange } from './audit-event-lines';
import type { AuditSinksRepository } from './audit-sinks.repository';

const TENANT_A = '0b8f8c1e-0000-4000-8000-00000000000a';
const TENANT_B = '0b8f8c1e-0000-4000-8000-00000000000b';

function storedEvent(tenantId: string, seq: number): AuditEvent {
  return {
    tenantId,
    seq,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)),
    actor: 'user:ada',
    onBehalfOf: null,
    action: 'pipe.create',
    target: `pipe:${seq}`,
    requestId: `req-${seq}`,
    outcome: 'success',
    httpStatus: 201,
    details: { seq },
    prevHash: 'p'.repeat(64),
    hash: 'h'.repeat(64),
    chainKey: 'k1',
    prevDigest: 'q'.repeat(64),
    digest: 'd'.repeat(64),
  };
}

/** A stored log of `count` events per tenant, answering reads as the repository does and counting them. */
function storedLog(count: number) {
  const reads: EventRange[][] = [];
  const repository = {
    events: async (ranges: readonly EventRange[]) => {
      reads.push(ranges.map((range) => ({ ...range })));
      await Promise.resolve();
      return ranges.flatMap(({ tenantId, after, through }) =>
        Array.from({ length: Math.min(through, count) - after }, (_, index) =>
          storedEvent(tenantId, after + index + 1),
        ),
      );
    },
  } as unknown as AuditSinksRepository;
  return { repository, reads };
}

const seqs = (records: { tenantId: string; seq: number }[]) =>
  records.map(({ tenantId, seq }) => `${tenantId === TENANT_A ? 'a' : 'b'}${seq}`);

describe('AuditEventLines', () => {
  it('renders each event as the export line, in seq order per tenant', async () => {
    const { repository } = storedLog(10);
    const records = await new AuditEventLines(repository, 100).records([
      { tenantId: TENANT_A, after: 2, through: 4 },
      { tenantId: TENANT_B, after: 0, through: 1 },
    ]);
    expect(seqs(records)).toEqual(['a3', 'a4', 'b1']);
    expect(records[0]).toEqual({
      kind: 'event',
      tenantId: TENANT_A,
      seq: 3,
      at: storedEvent(TENANT_A, 3).at,
      line: auditEventLine(storedEvent(TENANT_A, 3)),
    });
  });

  it('reads an event once for every sink that asks for it, even when they ask at the same time', async () => {
    const { repository, reads } = storedLog(10);
    const lines = new AuditEventLines(repository, 100);
    const ranges = [{ tenantId: TENANT_A, after: 0, through: 5 }];
    const [first, second] = await Promise.all([lines.records(ranges), lines.records(ranges)]);
    expect(second).toEqual(first);
    expect(reads).toEqual([ranges]);
  });

  it('reads only the part of a range it does not keep', async () => {
    const { repository, reads } = storedLog(10);
    const lines = new AuditEventLines(repository, 100);
    await lines.records([{ tenantId: TENANT_A, after: 0, through: 3 }]);
    const records = await lines.records([
      { tenantId: TENANT_A, after: 1, through: 6 },
      { tenantId: TENANT_B, after: 0, through: 2 },
    ]);
    expect(seqs(records)).toEqual(['a2', 'a3', 'a4', 'a5', 'a6', 'b1', 'b2']);
    expect(reads[1]).toEqual([
      { tenantId: TENANT_A, after: 3, through: 6 },
      { tenantId: TENANT_B, after: 0, through: 2 },
    ]);
  });

  it('keeps at most its capacity, dropping the oldest', async () => {
    const { repository, reads } = storedLog(10);
    const lines = new AuditEventLines(repository, 4);
    await lines.records([{ tenantId: TENANT_A, after: 0, through: 6 }]);
    await lines.records([{ tenantId: TENANT_A, after: 0, through: 6 }]);
    expect(reads[1]).toEqual([{ tenantId: TENANT_A, after: 0, through: 6 }]);
    await lines.records([{ tenantId: TENANT_A, after: 2, through: 6 }]);
    expect(reads).toHaveLength(2);
  });

  it('answers a read that failed with its error, and reads again after it', async () => {
    const { repository, reads } = storedLog(10);
    const failing = { events: jest.fn().mockRejectedValueOnce(new Error('connection reset')) };
    failing.events.mockImplementation((ranges: readonly EventRange[]) => repository.events(ranges));
    const lines = new AuditEventLines(failing as unknown as AuditSinksRepository, 100);
    const range = [{ tenantId: TENANT_A, after: 0, through: 2 }];
    await expect(lines.records(range)).rejects.toThrow('connection reset');
    expect(seqs(await lines.records(range))).toEqual(['a1', 'a2']);
    expect(reads).toHaveLength(1);
  });
});
