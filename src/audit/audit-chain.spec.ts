import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { canonicalJson, sha256Hex } from '../common/canonical-json';
import { AuditChainKeys } from '../crypto/audit-chain-keys';
import { generateKeyText, parseKeyRing } from '../crypto/key-ring';
import {
  AuditEventContent,
  auditEventHash,
  ChainAnchor,
  ChainBounds,
  ChainVerifier,
  checkInSlices,
  GENESIS_HASH,
  VERIFY_SLICE,
} from './audit-chain';

type StoredAuditEvent = AuditEventContent & { hash: string; chainKey: string | null };

const V1 = generateKeyText('v1');
const V2 = generateKeyText('v2');
const keys = new AuditChainKeys(parseKeyRing(`${V2},${V1}`));

/** The event's hash under its own chain key, or null when it cannot be hashed (a time out of range). */
function safeAuditEventHash(event: StoredAuditEvent, ring: AuditChainKeys = keys): string | null {
  try {
    return auditEventHash(event, ring, event.chainKey);
  } catch {
    return null;
  }
}

/** A chain of `count` events; `chainKeyOf(seq)` names each one's key (null: legacy SHA-256). */
function chain(count: number, chainKeyOf: (seq: number) => string | null = () => 'v1'): StoredAuditEvent[] {
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
    const chainKey = chainKeyOf(seq);
    prevHash = auditEventHash(content, keys, chainKey)!;
    events.push({ ...content, hash: prevHash, chainKey });
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

function verify(
  bounds: ChainBounds,
  events: StoredAuditEvent[],
  anchor: ChainAnchor | null = null,
  ring: AuditChainKeys = keys,
  legacyEnd: ChainAnchor | null = null,
) {
  const verifier = new ChainVerifier(bounds, anchor, legacyEnd);
  for (const event of events) if (!verifier.check(event, safeAuditEventHash(event, ring))) break;
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
      legacyEvents: 0,
    });
  });

  it('passes an empty chain', () => {
    expect(verify(boundsOf([]), [])).toEqual({
      ok: true,
      checked: 0,
      lastSeq: 0,
      lastHash: GENESIS_HASH,
      legacyEvents: 0,
    });
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
      return { ...changed, hash: auditEventHash(changed, keys, 'v1')! };
    });
    expect(verify(bounds, forged)).toEqual({
      ok: false,
      checked: 6,
      firstBadSeq: 7,
      reason: 'prevHash mismatch',
    });
  });

  describe('rewritten by someone without the chain key', () => {
    /** Edits event 6 and recomputes every hash after it, and the head, with plain SHA-256. */
    function rewrite(asLegacy: boolean) {
      const rewritten: StoredAuditEvent[] = [];
      let prevHash = GENESIS_HASH;
      for (const event of events) {
        const content = event.seq === 6 ? { ...event, outcome: 'failed' } : event;
        if (event.seq < 6) {
          rewritten.push(content);
        } else {
          const moved = { ...content, prevHash, chainKey: asLegacy ? null : content.chainKey };
          rewritten.push({ ...moved, hash: auditEventHash(moved, keys, null)! });
        }
        prevHash = rewritten[rewritten.length - 1].hash;
      }
      return { rewritten, bounds: boundsOf(rewritten) };
    }

    it('keeping the key version: the first rewritten event fails', () => {
      const { rewritten, bounds: moved } = rewrite(false);
      expect(verify(moved, rewritten)).toEqual({
        ok: false,
        checked: 5,
        firstBadSeq: 6,
        reason: 'hash mismatch',
      });
    });

    it('passing them off as legacy events: an unkeyed event after keyed ones', () => {
      const { rewritten, bounds: moved } = rewrite(true);
      expect(verify(moved, rewritten)).toEqual({
        ok: false,
        checked: 5,
        firstBadSeq: 6,
        reason: 'unkeyed event',
      });
    });

    it('with a key of their own: the event fails under the configured key', () => {
      const mine = new AuditChainKeys(parseKeyRing(generateKeyText('v1')));
      expect(verify(bounds, events, null, mine)).toMatchObject({
        ok: false,
        firstBadSeq: 1,
        reason: 'hash mismatch',
      });
    });
  });

  describe('legacy events (plain SHA-256, chained before keyed chaining)', () => {
    const mixed = chain(10, (seq) => (seq <= 4 ? null : 'v1'));
    const endOf = (events: StoredAuditEvent[], seq: number): ChainAnchor => ({
      seq,
      hash: events[seq - 1].hash,
    });
    const verifyWithEnd = (events: StoredAuditEvent[], end: ChainAnchor | null, bounds = boundsOf(events)) =>
      verify(bounds, events, null, keys, end);

    /** The events from `seq` on recomputed as legacy ones, as a writer without the key can. */
    function asLegacyFrom(events: StoredAuditEvent[], seq: number, edit?: number): StoredAuditEvent[] {
      let prevHash = seq === 1 ? GENESIS_HASH : events[seq - 2].hash;
      return events.map((event) => {
        if (event.seq < seq) return event;
        const content = { ...event, prevHash, outcome: event.seq === edit ? 'failed' : event.outcome };
        prevHash = auditEventHash(content, keys, null)!;
        return { ...content, hash: prevHash, chainKey: null };
      });
    }

    it('verify up to the signed legacy end, before keyed ones, and are counted', () => {
      expect(verifyWithEnd(mixed, endOf(mixed, 4))).toEqual({
        ok: true,
        checked: 10,
        lastSeq: 10,
        lastHash: mixed[9].hash,
        legacyEvents: 4,
      });
      const legacyOnly = chain(3, () => null);
      expect(verifyWithEnd(legacyOnly, endOf(legacyOnly, 3))).toMatchObject({ ok: true, legacyEvents: 3 });
    });

    it('without a legacy end, none may be: a whole chain rewritten as legacy fails at its first event', () => {
      const downgraded = asLegacyFrom(events, 1);
      expect(verifyWithEnd(downgraded, null)).toEqual({
        ok: false,
        checked: 0,
        firstBadSeq: 1,
        reason: 'unkeyed event',
      });
      expect(verifyWithEnd(mixed, null)).toMatchObject({
        ok: false,
        firstBadSeq: 1,
        reason: 'unkeyed event',
      });
    });

    it('past the legacy end, an unkeyed event fails, naming it', () => {
      expect(verifyWithEnd(asLegacyFrom(mixed, 5), endOf(mixed, 4))).toEqual({
        ok: false,
        checked: 4,
        firstBadSeq: 5,
        reason: 'unkeyed event',
      });
    });

    it('the legacy prefix rewritten: the chain no longer passes its signed end', () => {
      const legacyOnly = chain(6, () => null);
      const rewritten = asLegacyFrom(legacyOnly, 3, 3);
      expect(verifyWithEnd(rewritten, endOf(legacyOnly, 6))).toEqual({
        ok: false,
        checked: 5,
        firstBadSeq: 6,
        reason: 'checkpoint mismatch',
      });
    });

    it('the chain cut before its legacy end: truncated; pruned past it: nothing left to check', () => {
      const legacyOnly = chain(6, () => null);
      const cut = legacyOnly.slice(0, 4);
      expect(verifyWithEnd(cut, endOf(legacyOnly, 6))).toEqual({
        ok: false,
        checked: 4,
        firstBadSeq: 5,
        reason: 'truncated',
      });
      expect(verifyWithEnd(mixed.slice(6), endOf(mixed, 4), boundsOf(mixed, 7))).toMatchObject({
        ok: true,
        checked: 4,
        legacyEvents: 0,
      });
    });

    it("reports only the caller's checkpoint, with the legacy end passed as well", () => {
      expect(verify(boundsOf(mixed), mixed, endOf(mixed, 8), keys, endOf(mixed, 4))).toMatchObject({
        ok: true,
        legacyEvents: 4,
        checkpoint: { seq: 8, status: 'reached' },
      });
      expect(verifyWithEnd(mixed, endOf(mixed, 4))).not.toHaveProperty('checkpoint');
    });
  });

  it('verifies events chained with every key of the ring, and fails those of a key it lacks', () => {
    const rotated = chain(6, (seq) => (seq <= 3 ? 'v1' : 'v2'));
    expect(verify(boundsOf(rotated), rotated)).toMatchObject({ ok: true, checked: 6 });
    const withoutV1 = new AuditChainKeys(parseKeyRing(V2));
    expect(verify(boundsOf(rotated), rotated, null, withoutV1)).toMatchObject({
      ok: false,
      firstBadSeq: 1,
      reason: 'hash mismatch',
    });
  });

  describe('against a kept checkpoint', () => {
    const at = (seq: number): ChainAnchor => ({ seq, hash: events[seq - 1].hash });

    it('passes when the chain still goes through it', () => {
      expect(verify(bounds, events, at(7))).toMatchObject({
        ok: true,
        checkpoint: { seq: 7, status: 'reached' },
      });
      expect(verify(bounds, events, at(10))).toMatchObject({
        ok: true,
        checkpoint: { seq: 10, status: 'reached' },
      });
      expect(verify(bounds, events, { seq: 0, hash: GENESIS_HASH })).toMatchObject({
        ok: true,
        checkpoint: { seq: 0, status: 'reached' },
      });
    });

    it('finds the newest events cut off and the head moved back: truncated', () => {
      const cut = events.slice(0, 7);
      expect(verify(boundsOf(cut), cut)).toMatchObject({ ok: true });
      expect(verify(boundsOf(cut), cut, at(9))).toEqual({
        ok: false,
        checked: 7,
        firstBadSeq: 8,
        reason: 'truncated',
      });
    });

    it('finds another event where it signed one: checkpoint mismatch', () => {
      expect(verify(bounds, events, { seq: 5, hash: events[5].hash })).toEqual({
        ok: false,
        checked: 4,
        firstBadSeq: 5,
        reason: 'checkpoint mismatch',
      });
    });

    it('compares a checkpoint just before a pruned start, and reports older ones as pruned', () => {
      expect(verify(boundsOf(events, 4), events.slice(3), at(3))).toMatchObject({
        ok: true,
        checkpoint: { seq: 3, status: 'reached' },
      });
      expect(verify(boundsOf(events, 4), events.slice(3), { seq: 3, hash: 'f'.repeat(64) })).toMatchObject({
        ok: false,
        firstBadSeq: 4,
        reason: 'checkpoint mismatch',
      });
      expect(verify(boundsOf(events, 4), events.slice(3), at(2))).toMatchObject({
        ok: true,
        checkpoint: { seq: 2, status: 'pruned' },
      });
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
  const hashOf = (content: AuditEventContent) => auditEventHash(content, keys, 'v1');
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
    expect(hashOf({ ...event, [field]: changes[field] })).not.toBe(event.hash);
  });

  it('is the HMAC-SHA-256, under the named chain key, of the canonical JSON of the whole event', () => {
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
        const input = canonicalJson({ ...event, at: event.at.toISOString(), details: event.details ?? null });
        const key = parseKeyRing(V1).get('v1');
        expect(hashOf(event)).toBe(createHmac('sha256', key).update(input).digest('hex'));
        // A legacy event (no chain key) is the plain SHA-256 of the same input.
        expect(auditEventHash(event, keys, null)).toBe(sha256Hex(input));
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on the order of keys in details', () => {
    expect(hashOf({ ...event, details: { roles: ['viewer'], seq: 1 } })).toBe(event.hash);
  });
});

describe('checkInSlices', () => {
  const rows = Array.from({ length: 2 * VERIFY_SLICE + 10 }, (_, index) => index);

  it('lets other work run between slices, never within one', async () => {
    let turns = 0;
    let spinning = true;
    const spin = () => {
      turns += 1;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const seen: number[] = [];
    const ok = await checkInSlices(rows, () => seen.push(turns) > 0);
    spinning = false;
    expect(ok).toBe(true);
    expect(seen).toHaveLength(rows.length);
    const slices = [
      seen.slice(0, VERIFY_SLICE),
      seen.slice(VERIFY_SLICE, 2 * VERIFY_SLICE),
      seen.slice(2 * VERIFY_SLICE),
    ];
    for (const slice of slices) expect(new Set(slice).size).toBe(1);
    expect(slices[0][0]).toBeLessThan(slices[1][0]);
    expect(slices[1][0]).toBeLessThan(slices[2][0]);
  });

  it('stops at the first row that fails, checking none after it', async () => {
    const checked: number[] = [];
    const failing = VERIFY_SLICE + 3;
    const ok = await checkInSlices(rows, (row) => (checked.push(row), row !== failing));
    expect(ok).toBe(false);
    expect(checked).toEqual(rows.slice(0, failing + 1));
  });

  it('answers true for no rows', async () => {
    await expect(checkInSlices([], () => false)).resolves.toBe(true);
  });
});
