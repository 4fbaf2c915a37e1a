import type { PrismaService } from '../database/prisma.service';
import { rowContent } from './audit-chain';
import { sha256Hex } from '../common/canonical-json';
import { AuditEventsRepository, VERIFY_BATCH } from './audit-events.repository';

// A batch holds its tenant's chain row: a tenant's writes wait for at most one batch.
const BATCH_TIMEOUT_MS = 60_000;

/**
 * Computes the public chain's digests the database lacks: every event's, the first start after
 * the digests were introduced, and those of events a gateway that kept none wrote meanwhile (a
 * rolling upgrade). Rendered in JavaScript, as verification does, one batch per transaction with
 * the tenant's chain row locked, so an append waits for the batch and then chains on its digests.
 * Answers how many events got one.
 */
export async function backfillDigests(prisma: PrismaService, events: AuditEventsRepository): Promise<number> {
  let computed = 0;
  for (const tenantId of await events.undigestedChains()) {
    for (let next = await events.firstUndigested(tenantId); next !== null;) {
      const from = next;
      next = await prisma.$transaction(
        async (tx) => {
          await events.lockHead(tx, tenantId);
          const rows = await events.readForVerify(tx, tenantId, from.seq - 1);
          const links = { seq: [] as number[], prevDigest: [] as string[], digest: [] as string[] };
          let prevDigest = from.prevDigest;
          for (const row of rows) {
            const content = rowContent(row);
            if (content === null)
              throw new Error(`audit event ${row.seq} of tenant ${tenantId} cannot be read`);
            const digest = sha256Hex(content('prevDigest', prevDigest));
            links.seq.push(row.seq);
            links.prevDigest.push(prevDigest);
            links.digest.push(digest);
            prevDigest = digest;
          }
          if (rows.length > 0) await events.storeDigests(tx, tenantId, links);
          computed += rows.length;
          return rows.length < VERIFY_BATCH ? null : { seq: rows[rows.length - 1].seq + 1, prevDigest };
        },
        { timeout: BATCH_TIMEOUT_MS },
      );
    }
  }
  return computed;
}
