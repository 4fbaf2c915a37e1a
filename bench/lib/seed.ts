import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { auditEventDigest, auditEventHash, GENESIS_HASH } from '../../src/audit/audit-chain';
import type { AuditEventContent } from '../../src/audit/audit-chain';
import type { AuditChainKeys } from '../../src/crypto/audit-chain-keys';

export const ORGANIZATION_IDS = Array.from(
  { length: 10 },
  (_, index) => `0b7f3c1e-2d4a-4c8e-9f10-${index.toString(16).padStart(12, '0')}`,
);
const SERVICE_IDS = Array.from(
  { length: 4 },
  (_, index) => `5c1d2e3f-4a5b-4c6d-8e7f-${index.toString(16).padStart(12, '0')}`,
);

/** Audit actions with their share of events, percent: creates and edits dominate, rotations are rare. */
const ACTION_SHARES: [string, number][] = [
  ['pipe.create', 50],
  ['dashboard.replace', 30],
  ['pipe.update', 15],
  ['credential.use', 4],
  ['credential.rotate', 1],
];
export const AUDIT_ACTIONS = ACTION_SHARES.map(([action]) => action);
const ACTION_BY_PERCENT = ACTION_SHARES.flatMap(([action, share]) => Array<string>(share).fill(action));

const HISTORY_BATCH = 100_000;
const AUDIT_BATCH = 10_000;
// Rows are spread over the past year, newest last.
const SPACING_MS = 30_000;

/**
 * Pipe spec history rows, generated in the database: 5% failed, 1% unknown, the rest succeeded,
 * over 10 organizations and 4 services each.
 */
export async function seedHistory(client: Client, tenantId: string, rows: number): Promise<void> {
  const newest = Date.now();
  for (let first = 1; first <= rows; first += HISTORY_BATCH) {
    const last = Math.min(rows, first + HISTORY_BATCH - 1);
    await client.query(
      `INSERT INTO pipe_spec_records (id, tenant_id, actor, organization_id, service_id, spec, spec_hash, outcome,
         pipe_id, upstream_status, error, request_id, created_at, completed_at)
       SELECT gen_random_uuid(), $1::uuid, 'key:bench', ($2::uuid[])[1 + i % 10], ($3::uuid[])[1 + (i / 10) % 4],
         jsonb_build_object('name', 'orders-' || i,
           'source', jsonb_build_object('kafka', jsonb_build_object('brokers', 'b-1.example.com:9096', 'topics', 'orders',
             'credentials', jsonb_build_object('username', 'consumer', 'password', '[redacted]'))),
           'destination', jsonb_build_object('database', 'default', 'table', 'orders')),
         encode(sha256(i::text::bytea), 'hex'),
         (CASE WHEN r < 0.05 THEN 'failed' WHEN r < 0.06 THEN 'unknown' ELSE 'succeeded' END)::"PipeSpecOutcome",
         CASE WHEN r >= 0.06 THEN gen_random_uuid()::text END,
         CASE WHEN r < 0.05 THEN 400 WHEN r >= 0.06 THEN 200 END,
         CASE WHEN r < 0.05 THEN '{"status":400,"error":"Invalid request body"}'::jsonb END,
         gen_random_uuid()::text,
         to_timestamp(($4::bigint - ($5::bigint - i) * $6) / 1000.0),
         to_timestamp(($4::bigint - ($5::bigint - i) * $6 + 800) / 1000.0)
       FROM (SELECT i, random() AS r FROM generate_series($7::int, $8::int) AS i) AS series`,
      [tenantId, ORGANIZATION_IDS, SERVICE_IDS, newest, rows, SPACING_MS, first, last],
    );
  }
  await client.query('ANALYZE pipe_spec_records');
}

/**
 * Audit events appended to the tenant's chain as the gateway would: each hash covers the event and
 * the previous hash, under the gateway's active chain key (auditEventHash), and the chain head is
 * moved to the last one.
 */
export async function seedAudit(
  client: Client,
  tenantId: string,
  rows: number,
  chainKeys: AuditChainKeys,
): Promise<void> {
  const chainKey = chainKeys.activeVersion;
  const head = await client.query<{ last_seq: number; last_hash: string; digest: string | null }>(
    `SELECT c.last_seq, c.last_hash, e.digest FROM audit_chains c
     LEFT JOIN audit_events e ON e.tenant_id = c.tenant_id AND e.seq = c.last_seq WHERE c.tenant_id = $1`,
    [tenantId],
  );
  if (head.rowCount !== 1) throw new Error('the tenant has no audit chain yet');
  let { last_seq: seq, last_hash: prevHash } = head.rows[0];
  let prevDigest = head.rows[0].digest ?? GENESIS_HASH;
  const oldest = Date.now() - rows * SPACING_MS;

  for (let done = 0; done < rows;) {
    const columns = {
      seq: [] as number[],
      at: [] as string[],
      action: [] as string[],
      target: [] as string[],
      requestId: [] as string[],
      outcome: [] as string[],
      httpStatus: [] as (number | null)[],
      details: [] as string[],
      prevHash: [] as string[],
      hash: [] as string[],
      prevDigest: [] as string[],
      digest: [] as string[],
    };
    for (const end = Math.min(rows, done + AUDIT_BATCH); done < end; done++) {
      seq += 1;
      const action = ACTION_BY_PERCENT[(seq * 7919) % 100];
      const failed = (seq * 104_729) % 20 === 0;
      const event: AuditEventContent = {
        tenantId,
        seq,
        at: new Date(oldest + done * SPACING_MS),
        actor: 'key:bench',
        onBehalfOf: null,
        action,
        target: `${action.split('.')[0]}:${randomUUID()}`,
        requestId: randomUUID(),
        outcome: failed ? 'failed' : 'succeeded',
        httpStatus: failed ? 400 : 200,
        details: { organizationId: ORGANIZATION_IDS[seq % 10], name: `orders-${seq}` },
        prevHash,
      };
      prevHash = auditEventHash(event, chainKeys, chainKey)!;
      columns.seq.push(seq);
      columns.at.push(event.at.toISOString());
      columns.action.push(action);
      columns.target.push(event.target!);
      columns.requestId.push(event.requestId);
      columns.outcome.push(event.outcome);
      columns.httpStatus.push(event.httpStatus);
      columns.details.push(JSON.stringify(event.details));
      columns.prevHash.push(event.prevHash);
      columns.hash.push(prevHash);
      columns.prevDigest.push(prevDigest);
      prevDigest = auditEventDigest(event, prevDigest);
      columns.digest.push(prevDigest);
    }
    await client.query(
      `INSERT INTO audit_events (tenant_id, seq, at, actor, action, target, request_id, outcome, http_status,
         details, prev_hash, hash, chain_key, prev_digest, digest)
       SELECT $1::uuid, seq, at, 'key:bench', action, target, request_id, outcome, http_status, details, prev_hash, hash,
         $12::text, prev_digest, digest
       FROM unnest($2::int[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
         $9::jsonb[], $10::text[], $11::text[], $13::text[], $14::text[])
         AS rows (seq, at, action, target, request_id, outcome, http_status, details, prev_hash, hash, prev_digest, digest)`,
      [
        tenantId,
        columns.seq,
        columns.at,
        columns.action,
        columns.target,
        columns.requestId,
        columns.outcome,
        columns.httpStatus,
        columns.details,
        columns.prevHash,
        columns.hash,
        chainKey,
        columns.prevDigest,
        columns.digest,
      ],
    );
  }
  await client.query('UPDATE audit_chains SET last_seq = $2, last_hash = $3 WHERE tenant_id = $1', [
    tenantId,
    seq,
    prevHash,
  ]);
  await client.query('ANALYZE audit_events');
}
