import fc from 'fast-check';
import { canonicalJson, sha256Hex } from '../common/canonical-json';
import { AuditEventContent, auditEventHash, ChainBounds, ChainVerifier, GENESIS_HASH } from './audit-chain';

type StoredAuditEvent = AuditEventContent & { hash: string };

/** auditEventHash, or null for content that cannot be hashed (a time outside JavaScript's range). */
function safeAuditEventHash(event: AuditEventContent): string | null {
  try {
    return auditEventHash(event);
  } catch {
    return null;
  }
}

function chain(count: number): StoredAuditEvent[] {
  const events: StoredAuditEvent[] = [];
  let prevHash = GENESIS_HASH;
  for (let seq = 1; seq <= count; seq++) {
    const content = {
      tenantId: '3f1e2d4c-0000-4000-8000-000000000000',
      seq,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)),
      actor: 'key:k1',
      onBehalfOf: seq % 2 === 0 ? 'alice@example.com' : null,
      action: 'key.create',
      target: `key:${seq}`,
      requestId: `req-${seq}`,
      outcome: 'succeeded',
      httpStatus: 201,
      details: { seq, roles: ['viewer'] },
      prevHash,
    };
    prevHash = auditEventHash(content);
    events.push({ ...content, hash: prevHash });
  }
  return events;
}

/** The bounds the chain row records for `events`, starting at `startSeq` (after pruning). */
function boundsOf(events: StoredAuditEvent[], startSeq = 1): ChainBounds {
  const last = events[events.length - 1];
  return {
    startSeq,
    startHash: startSeq === 1 ? GENESIS_HASH : events[startSeq - 2].hash,
    lastSeq: last?.seq ?? 0,
    lastHash: last?.hash ?? GENESIS_HASH,
  };
}

function verify(bounds: ChainBounds, events: StoredAuditEvent[]) {
  const verifier = new ChainVerifier(bounds);
  for (const event of events) if (!verifier.check(event, safeAuditEventHash(event))) break;
  return verifier.result();
}

describe('ChainVerifier', () => {
  const events = chain(10);
  const bounds = boundsOf(events);
  const without = (...seqs: number[]) => events.filter((event) => !seqs.includes(event.seq));

  it('passes an intact chain and reports its head', () => {
    expect(verify(bounds, events)).toEqual({
      ok: true,
      checked: 10,
      lastSeq: 10,
      lastHash: events[9].hash,
    });
  });

  it('passes an empty chain', () => {
    expect(verify(boundsOf([]), [])).toEqual({ ok: true, checked: 0, lastSeq: 0, lastHash: GENESIS_HASH });
  });

  it('starts from the checkpoint pruning left', () => {
    expect(verify(boundsOf(events, 4), events.slice(3))).toMatchObject({ ok: true, checked: 7 });
    expect(verify({ ...boundsOf(events, 4), startHash: GENESIS_HASH }, events.slice(3))).toEqual({
      ok: false,
      checked: 0,
      firstBadSeq: 4,
      reason: 'prevHash mismatch',
    });
  });

  it('finds an edited event', () => {
    const edited = events.map((event) => (event.seq === 6 ? { ...event, outcome: 'failed' } : event));
    expect(verify(bounds, edited)).toEqual({
      ok: false,
      checked: 5,
      firstBadSeq: 6,
      reason: 'hash mismatch',
    });
  });

  it('finds an edited event whose hash was recomputed at the next link', () => {
    const forged = events.map((event) => {
      if (event.seq !== 6) return event;
      const changed = { ...event, details: { seq: 6, roles: ['admin'] } };
      return { ...changed, hash: auditEventHash(changed) };
    });
    expect(verify(bounds, forged)).toEqual({
      ok: false,
      checked: 6,
      firstBadSeq: 7,
      reason: 'prevHash mismatch',
    });
  });

  it('finds a deleted event, first or in the middle', () => {
    expect(verify(bounds, without(4))).toEqual({
      ok: false,
      checked: 3,
      firstBadSeq: 4,
      reason: 'missing event',
    });
    expect(verify(bounds, without(1))).toEqual({
      ok: false,
      checked: 0,
      firstBadSeq: 1,
      reason: 'missing event',
    });
  });

  it('finds two events swapped', () => {
    const swapped = events.map((event, index) => {
      if (event.seq === 3) return { ...events[index + 1], seq: 3 };
      if (event.seq === 4) return { ...events[index - 1], seq: 4 };
      return event;
    });
    expect(verify(bounds, swapped)).toEqual({
      ok: false,
      checked: 2,
      firstBadSeq: 3,
      reason: 'prevHash mismatch',
    });
  });

  it('finds deleted newest events against the recorded head', () => {
    expect(verify(bounds, without(9, 10))).toEqual({
      ok: false,
      checked: 8,
      firstBadSeq: 9,
      reason: 'head mismatch',
    });
  });

  it('finds a head that disagrees with the last event, or events past the head', () => {
    expect(verify({ ...bounds, lastHash: 'f'.repeat(64) }, events)).toEqual({
      ok: false,
      checked: 10,
      firstBadSeq: 10,
      reason: 'head mismatch',
    });
    expect(verify(boundsOf(events.slice(0, 8)), events)).toEqual({
      ok: false,
      checked: 10,
      firstBadSeq: 9,
      reason: 'head mismatch',
    });
  });

  it('reports an event whose time cannot be hashed as edited rather than failing', () => {
    const outOfRange = events.map((event) =>
      event.seq === 5 ? { ...event, at: new Date(Number.NaN) } : event,
    );
    expect(verify(bounds, outOfRange)).toEqual({
      ok: false,
      checked: 4,
      firstBadSeq: 5,
      reason: 'hash mismatch',
    });
  });

  it('stops at the first fault', () => {
    const verifier = new ChainVerifier(bounds);
    const damaged = without(2);
    const check = (event: StoredAuditEvent) => verifier.check(event, safeAuditEventHash(event));
    expect(check(damaged[0])).toBe(true);
    expect(check(damaged[1])).toBe(false);
    expect(check(damaged[2])).toBe(false);
    expect(verifier.result()).toEqual({ ok: false, checked: 1, firstBadSeq: 2, reason: 'missing event' });
  });
});

describe('auditEventHash', () => {
  const [event] = chain(1);
  const changes: Record<string, unknown> = {
    tenantId: '3f1e2d4c-0000-4000-8000-000000000001',
    seq: 2,
    at: new Date(event.at.getTime() + 1),
    actor: 'platform',
    onBehalfOf: 'bob@example.com',
    action: 'key.revoke',
    target: null,
    requestId: 'other',
    outcome: 'failed',
    httpStatus: 500,
    details: { seq: 1, roles: ['admin'] },
    prevHash: 'a'.repeat(64),
  };

  it.each(Object.keys(changes))('covers %s', (field) => {
    expect(auditEventHash({ ...event, [field]: changes[field] })).not.toBe(event.hash);
  });

  it('is the SHA-256 of the canonical JSON of the whole event', () => {
    const text = fc.string({ unit: 'binary' });
    const content = fc.record({
      tenantId: fc.uuid(),
      seq: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      at: fc.date({ noInvalidDate: true }),
      actor: text,
      onBehalfOf: fc.option(text),
      action: text,
      target: fc.option(text),
      requestId: text,
      outcome: text,
      httpStatus: fc.option(fc.integer({ min: 100, max: 599 })),
      details: fc.option(fc.jsonValue(), { nil: undefined }),
      // Always a hex digest: written into the JSON as it is, like verification's SQL does.
      prevHash: fc.stringMatching(/^[0-9a-f]{64}$/),
    });
    fc.assert(
      fc.property(content, (event) => {
        const reference = sha256Hex(
          canonicalJson({ ...event, at: event.at.toISOString(), details: event.details ?? null }),
        );
        expect(auditEventHash(event)).toBe(reference);
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on the order of keys in details', () => {
    expect(auditEventHash({ ...event, details: { roles: ['viewer'], seq: 1 } })).toBe(event.hash);
  });
});
