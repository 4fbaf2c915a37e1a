import { describe, expect, it } from 'vitest';
import { describeFilter, foldPending, parseView, viewAddress, type AuditEvent } from './view';

function event(seq: number, change: Partial<AuditEvent>): AuditEvent {
  return {
    seq,
    at: new Date(Date.UTC(2026, 0, 1, 10, 0, seq)).toISOString(),
    tenantId: 'tenant-1',
    actor: 'user:dana@example.com',
    onBehalfOf: null,
    action: 'pipe.create',
    target: null,
    requestId: `request-${seq}`,
    outcome: 'succeeded',
    httpStatus: null,
    details: null,
    prevHash: '0'.repeat(64),
    hash: 'f'.repeat(64),
    chainKey: 'v1',
    prevDigest: null,
    digest: null,
    ...change,
  };
}

describe('the audit view in the address', () => {
  it('reads back what it wrote: filters, the open event, hidden roll-ups', () => {
    const view = {
      filter: { actor: 'user:dana@example.com', action: 'credential.', outcome: 'failed' as const },
      event: 42,
      hideUses: true,
    };
    const address = viewAddress(view);
    expect(address.startsWith('#/audit?')).toBe(true);
    expect(parseView(address.slice(address.indexOf('?') + 1))).toEqual(view);
  });

  it('ignores what it does not know: an outcome outside the list, an event that is not a seq', () => {
    expect(parseView('outcome=maybe&event=abc&actor=')).toEqual({ filter: {}, event: null, hideUses: false });
  });

  it('leaves the query out when nothing is chosen', () => {
    expect(viewAddress({ filter: {}, event: null, hideUses: false })).toBe('#/audit');
  });
});

describe('the filter in words', () => {
  it('names a prefix as every action of its subject', () => {
    expect(describeFilter({ action: 'credential.', actor: 'user:dana@example.com' })).toBe(
      'Events by user:dana@example.com, every credential action',
    );
    expect(describeFilter({})).toBe('Every event');
  });
});

describe('pending events folded with their outcome', () => {
  it('shows a pending event and its outcome as one row, where the outcome is', () => {
    const rows = foldPending([
      event(3, { outcome: 'failed', requestId: 'r1' }),
      event(2, { action: 'credential.use', requestId: 'r9' }),
      event(1, { outcome: 'pending', requestId: 'r1' }),
    ]);
    expect(rows.map((row) => [row.event.seq, row.pending?.seq ?? null])).toEqual([
      [3, 1],
      [2, null],
    ]);
  });

  it('keeps a pending event whose outcome is not read (yet)', () => {
    const rows = foldPending([event(5, { outcome: 'pending', requestId: 'r2' })]);
    expect(rows.map((row) => [row.event.seq, row.pending])).toEqual([[5, null]]);
  });

  it('does not fold events of another action under the same request', () => {
    const rows = foldPending([
      event(2, { action: 'pipe.delete', requestId: 'r1' }),
      event(1, { outcome: 'pending', requestId: 'r1' }),
    ]);
    expect(rows).toHaveLength(2);
  });
});
