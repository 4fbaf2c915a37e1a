import type { AuditChainKeys } from '../crypto/audit-chain-keys';
import type { KeyChecksRepository } from '../crypto/key-checks.repository';
import type { PrismaService } from '../database/prisma.service';
import type { AuditEventsRepository } from './audit-events.repository';
import { signLegacyEnd } from './audit-checkpoint';

// Once per database, over every chain: far longer than a request's statements.
const RECORD_TIMEOUT_MS = 5 * 60_000;

/** The tables legacy ends are read from and written to. */
export interface LegacyEndTables {
  keyChecks: KeyChecksRepository;
  events: AuditEventsRepository;
}

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
export async function recordLegacyEnds(
  prisma: PrismaService,
  keys: AuditChainKeys,
  { keyChecks, events }: LegacyEndTables,
): Promise<number | null> {
  return prisma.$transaction(
    async (tx) => {
      await events.lockLegacyEnds(tx);
      const checks = await keyChecks.ofPurpose('audit-chain', tx);
      const earlier = checks.filter(
        (row) => keys.has(row.keyVersion) && keys.isCheckBeforeLegacyEnds(row.keyVersion, row.checkValue),
      );
      const beforeKeyedChaining = checks.length === 0 && !(await events.anyKeyed(tx));
      if (earlier.length === 0 && !beforeKeyedChaining) return null;
      const ends = await events.unrecordedLegacyEnds(tx);
      for (const end of ends) await events.recordLegacyEnd(tx, end, signLegacyEnd(keys, end));
      for (const { keyVersion } of earlier) {
        await keyChecks.replace(tx, 'audit-chain', keyVersion, keys.keyCheck(keyVersion));
      }
      return ends.length;
    },
    { timeout: RECORD_TIMEOUT_MS },
  );
}
