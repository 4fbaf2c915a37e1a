import type { AuditChainKeys } from '../crypto/audit-chain-keys';
import type { PrismaService, PrismaTx } from '../database/prisma.service';
import { LegacyEnd, signLegacyEnd } from './audit-checkpoint';

/** Arbitrary constant shared by every replica, so only one records legacy ends at a time. */
const LEGACY_ENDS_LOCK_ID = 727_310_002;
// Once per database, over every chain: far longer than a request's statements.
const RECORD_TIMEOUT_MS = 5 * 60_000;

/**
 * Records, signed with the active chain key, where each tenant's legacy events (plain SHA-256,
 * chained before keyed chaining) end; verification accepts unkeyed events only up to there.
 *
 * Done once per database, at the first start that finds it due: the chain key checks predate it
 * (a database chained by a gateway that did not record legacy ends), or there is no chain key
 * check and no keyed event at all (a database from before keyed chaining, or a new one). It then
 * marks itself done by renewing those key checks, which only the key can produce. Never again
 * otherwise: a start after a database writer removed a legacy end, or rewrote a chain as legacy,
 * records nothing for it. Answers how many chains got one, or null when it was not due.
 */
export async function recordLegacyEnds(prisma: PrismaService, keys: AuditChainKeys): Promise<number | null> {
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LEGACY_ENDS_LOCK_ID}::bigint)`;
      const checks = await tx.keyCheck.findMany({ where: { purpose: 'audit-chain' } });
      const earlier = checks.filter(
        (row) =>
          keys.has(row.keyVersion) &&
          keys.isCheckBeforeLegacyEnds(row.keyVersion, Buffer.from(row.checkValue)),
      );
      const beforeKeyedChaining =
        checks.length === 0 &&
        (await tx.auditEvent.findFirst({ where: { chainKey: { not: null } }, select: { seq: true } })) ===
          null;
      if (earlier.length === 0 && !beforeKeyedChaining) return null;
      const ends = await unrecordedLegacyEnds(tx);
      for (const end of ends) {
        const { keyVersion, signature } = signLegacyEnd(keys, end);
        await tx.auditChain.update({
          where: { tenantId: end.tenantId },
          data: {
            legacyEndSeq: end.seq,
            legacyEndHash: end.hash,
            legacyEndKeyVersion: keyVersion,
            legacyEndSignature: signature,
          },
        });
      }
      for (const { keyVersion } of earlier) {
        await tx.keyCheck.update({
          where: { purpose_keyVersion: { purpose: 'audit-chain', keyVersion } },
          data: { checkValue: new Uint8Array(keys.keyCheck(keyVersion)) },
        });
      }
      return ends.length;
    },
    { timeout: RECORD_TIMEOUT_MS },
  );
}

/**
 * Per chain that has none recorded: the event before its first keyed one (or its last event, when
 * none is keyed), if that event is unkeyed and still kept. Unkeyed events after a keyed one were
 * not chained so and get no legacy end.
 */
function unrecordedLegacyEnds(tx: PrismaTx): Promise<LegacyEnd[]> {
  return tx.$queryRaw<LegacyEnd[]>`
    SELECT c.tenant_id::text AS "tenantId", e.seq, e.hash
    FROM audit_chains c
    CROSS JOIN LATERAL (
      SELECT coalesce(
        (SELECT k.seq FROM audit_events k
         WHERE k.tenant_id = c.tenant_id AND k.seq >= c.start_seq AND k.chain_key IS NOT NULL
         ORDER BY k.seq LIMIT 1),
        c.last_seq + 1) - 1 AS seq
    ) legacy
    JOIN audit_events e ON e.tenant_id = c.tenant_id AND e.seq = legacy.seq AND e.chain_key IS NULL
    WHERE c.legacy_end_signature IS NULL AND legacy.seq >= c.start_seq`;
}
