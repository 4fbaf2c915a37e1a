import { auditEventLine } from '../audit/audit.service';
import type { SinkRecord } from './audit-sink';
import type { AuditSinksRepository } from './audit-sinks.repository';

/** A tenant's events a batch takes: those with `after < seq <= through`. */
export interface EventRange {
  tenantId: string;
  after: number;
  through: number;
}

const keyOf = (tenantId: string, seq: number): string => `${tenantId}/${seq}`;

/**
 * The sink records of stored events, read and rendered once for all the sinks this replica ships.
 * The shippers move through the same events, so the second to ask for an event finds it here;
 * reads run one at a time, so a shipper that waited on another's read finds what that one read.
 * Events never change once stored: a kept record is what a read would answer.
 */
export class AuditEventLines {
  private readonly kept = new Map<string, SinkRecord>();
  private reading: Promise<unknown> = Promise.resolve();

  /** `capacity`: the records kept, oldest dropped first; at least a batch for each sink. */
  constructor(
    private readonly sinks: AuditSinksRepository,
    private readonly capacity: number,
  ) {}

  /** The records of the events in `ranges`, in seq order per tenant. */
  records(ranges: readonly EventRange[]): Promise<SinkRecord[]> {
    const read = this.reading.then(() => this.read(ranges));
    this.reading = read.catch(() => undefined);
    return read;
  }

  private async read(ranges: readonly EventRange[]): Promise<SinkRecord[]> {
    // The kept records of a range are where the other sink reached: the rest begins at the first missing.
    const missing = ranges
      .map((range) => {
        let after = range.after;
        while (after < range.through && this.kept.has(keyOf(range.tenantId, after + 1))) after += 1;
        return { ...range, after };
      })
      .filter((range) => range.after < range.through);
    const fresh = new Map<string, SinkRecord>();
    if (missing.length > 0) {
      for (const row of await this.sinks.events(missing)) {
        fresh.set(keyOf(row.tenantId, row.seq), {
          kind: 'event',
          tenantId: row.tenantId,
          seq: row.seq,
          at: row.at,
          line: auditEventLine(row),
        });
      }
    }
    const records: SinkRecord[] = [];
    for (const { tenantId, after, through } of ranges) {
      for (let seq = after + 1; seq <= through; seq++) {
        const key = keyOf(tenantId, seq);
        const record = fresh.get(key) ?? this.kept.get(key);
        // A range reaches no further than the stored events (retention may have removed its start).
        if (record) records.push(record);
      }
    }
    for (const [key, record] of fresh) {
      // Set anew, so that the order of the map is the order of the reads: the oldest go first.
      this.kept.delete(key);
      this.kept.set(key, record);
    }
    for (const key of this.kept.keys()) {
      if (this.kept.size <= this.capacity) break;
      this.kept.delete(key);
    }
    return records;
  }
}
