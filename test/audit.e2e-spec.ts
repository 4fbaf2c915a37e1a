import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from 'pg';
import { appendedEvents } from '../bench/lib/statements';
import { auditEventDigest, auditEventHash, GENESIS_HASH } from '../src/audit/audit-chain';
import { AuditCheckpointService } from '../src/audit/audit-checkpoint.service';
import { AuditEventsRepository } from '../src/audit/audit-events.repository';
import { AuditChainKeys } from '../src/crypto/audit-chain-keys';
import { AuditRetentionService } from '../src/audit/audit-retention.service';
import { AuditService, type TableWrite } from '../src/audit/audit.service';
import type { AuditEventView } from '../src/audit/dto/audit.dto';
import { encodeCursor } from '../src/common/pagination';
import { PrismaService } from '../src/database/prisma.service';
import { Prisma } from '../src/generated/prisma/client';
import { MetricsService } from '../src/metrics/metrics.service';
import { bearer, createTenant, platformAuth, TestTenant } from './support/fixtures';
import { startGateway, TestGateway } from './support/gateway';
import { itWithPostgres, postgresConfigured } from './support/skip';
import { plantedAction } from './support/planted-action';

/** An event as the API answers it: the view, with its time as JSON writes it. */
type AuditItem = Omit<AuditEventView, 'at' | 'details'> & {
  at: string;
  details: Record<string, unknown> | null;
};

const ITEM_FIELDS = [
  'action',
  'actor',
  'at',
  'chainKey',
  'details',
  'digest',
  'hash',
  'httpStatus',
  'onBehalfOf',
  'outcome',
  'prevDigest',
  'prevHash',
  'requestId',
  'seq',
  'target',
  'tenantId',
];
const RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60_000;
const CANARY = `CANARY${randomUUID().replace(/-/g, '')}`;
// A garbage collection on demand, so the export test measures what is held rather than what was dropped.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const testActor = { actor: 'test', onBehalfOf: null, keyId: null, requestId: 'test-setup' };

describe('audit log (e2e)', () => {
  let gateway: TestGateway;
  let prisma: PrismaService;
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    gateway = await startGateway({
      AUDIT_RETENTION_DAYS: String(RETENTION_DAYS),
      // Appends here wait on a held chain row for longer than the queue's limit, which is also the
      // default statement timeout: the statements may outlast it.
      DATABASE_QUERY_TIMEOUT_MS: '10000',
    });
    prisma = gateway.app.get(PrismaService);
    tenant = await createTenant(gateway);
    other = await createTenant(gateway);
  });
  afterAll(async () => {
    await gateway.close();
  });

  const auditor = (who: TestTenant = tenant) => bearer(who.keys.auditor);

  /** Every event the query matches, walking nextCursor page by page. */
  async function listAll(key: string, query: Record<string, string> = {}, limit = 200): Promise<AuditItem[]> {
    const items: AuditItem[] = [];
    let cursor: string | null = null;
    do {
      const page = await gateway.http
        .get('/v1/audit')
        .set(bearer(key))
        .query({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) })
        .expect(200);
      expect(page.body.items.length).toBeLessThanOrEqual(limit);
      items.push(...(page.body.items as AuditItem[]));
      cursor = page.body.nextCursor as string | null;
    } while (cursor !== null);
    return items;
  }

  async function verify(who: TestTenant = tenant): Promise<Record<string, unknown>> {
    return (await gateway.http.get('/v1/audit/verify').set(auditor(who)).expect(200)).body;
  }

  /** Events appended through the service, as the gateway's own writers do. */
  async function appendEvents(tenantId: string, count: number): Promise<void> {
    await prisma.$transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        await gateway.app.get(AuditService).append(tx, testActor, {
          tenantId,
          action: plantedAction('test.event'),
          target: `item:${i}`,
          outcome: 'succeeded',
          details: { i },
        });
      }
    });
  }

  /**
   * Writes `count` correctly chained events straight into the table, continuing the tenant's chain;
   * far faster than appending one by one when a test needs a large or backdated log.
   */
  async function seedChain(tenantId: string, count: number, at: (index: number) => Date): Promise<void> {
    const chain = await prisma.auditChain.findUnique({ where: { tenantId } });
    const chainKeys = gateway.app.get(AuditChainKeys);
    let seq = chain?.lastSeq ?? 0;
    let prevHash = chain?.lastHash ?? GENESIS_HASH;
    let prevDigest =
      (await gateway.app.get(AuditEventsRepository).chainHead(tenantId))?.digest ?? GENESIS_HASH;
    for (let index = 0; index < count;) {
      const rows = [];
      for (const end = Math.min(count, index + 10_000); index < end; index++) {
        seq += 1;
        const event = {
          tenantId,
          seq,
          at: at(index),
          actor: 'key:seed',
          onBehalfOf: null,
          action: 'seed.event',
          target: `item:${seq}`,
          requestId: `seed-${seq}`,
          outcome: 'succeeded',
          httpStatus: 200,
          details: { seq, note: 'seeded' },
          prevHash,
        };
        prevHash = auditEventHash(event, chainKeys, chainKeys.activeVersion)!;
        const digest = auditEventDigest(event, prevDigest);
        rows.push({ ...event, hash: prevHash, chainKey: chainKeys.activeVersion, prevDigest, digest });
        prevDigest = digest;
      }
      await prisma.$executeRawUnsafe(
        `INSERT INTO audit_events (tenant_id, seq, at, actor, on_behalf_of, action, target, request_id,
           outcome, http_status, details, prev_hash, hash, chain_key, prev_digest, digest)
         SELECT "tenantId", seq, at, actor, "onBehalfOf", action, target, "requestId", outcome, "httpStatus",
           details, "prevHash", hash, "chainKey", "prevDigest", digest
         FROM jsonb_to_recordset($1::jsonb) AS r("tenantId" uuid, seq int, at timestamptz, actor text,
           "onBehalfOf" text, action text, target text, "requestId" text, outcome text, "httpStatus" int,
           details jsonb, "prevHash" text, hash text, "chainKey" text, "prevDigest" text, digest text)`,
        JSON.stringify(rows),
      );
    }
    await prisma.auditChain.upsert({
      where: { tenantId },
      create: { tenantId, lastSeq: seq, lastHash: prevHash, startSeq: 1, startHash: GENESIS_HASH },
      update: { lastSeq: seq, lastHash: prevHash },
    });
  }

  /**
   * Reads an NDJSON response as it streams in, one parsed event at a time; `lines` counts the
   * events, `checkpoints` holds the JWS of the checkpoint lines.
   */
  async function readNdjson(
    response: Response,
    onEvent: (event: AuditItem) => void,
  ): Promise<{ chunks: number; lines: number; checkpoints: string[] }> {
    const decoder = new TextDecoder();
    let rest = '';
    let chunks = 0;
    let lines = 0;
    const checkpoints: string[] = [];
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      chunks += 1;
      const parts = (rest + decoder.decode(chunk, { stream: true })).split('\n');
      rest = parts.pop() ?? '';
      for (const line of parts) {
        const record = JSON.parse(line) as AuditItem | { checkpoint: string };
        if ('checkpoint' in record) {
          checkpoints.push(record.checkpoint);
          continue;
        }
        onEvent(record);
        lines += 1;
      }
    }
    expect(rest).toBe('');
    return { chunks, lines, checkpoints };
  }

  const exportRequest = (who: TestTenant, query = '', headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}/v1/audit/export${query}`, { headers: { ...auditor(who), ...headers } });

  describe('what is recorded', () => {
    it('records keys, credentials and tenants with actor, on-behalf-of, target, request id and outcome', async () => {
      const person = 'alice@example.com';
      const admin = { ...bearer(tenant.keys.admin), 'X-On-Behalf-Of': person };
      const rid = (name: string) => `${name}-${randomUUID()}`;
      const ids = {
        keyCreate: rid('key-create'),
        keyRevoke: rid('key-revoke'),
        credCreate: rid('cred-create'),
        credRotate: rid('cred-rotate'),
        credDelete: rid('cred-delete'),
        tenantCreate: rid('tenant-create'),
      };

      const key = await gateway.http
        .post('/v1/keys')
        .set({ ...admin, 'X-Request-Id': ids.keyCreate })
        .send({ name: 'audited', roles: ['viewer'] })
        .expect(201);
      await gateway.http
        .delete(`/v1/keys/${key.body.id}`)
        .set({ ...admin, 'X-Request-Id': ids.keyRevoke })
        .expect(200);
      const credential = await gateway.http
        .post('/v1/credentials')
        .set({ ...admin, 'X-Request-Id': ids.credCreate })
        .send({
          kind: 'pipes',
          name: 'audited',
          organizationId: randomUUID(),
          keyId: 'KEY-1',
          keySecret: 'S1',
        })
        .expect(201);
      await gateway.http
        .post(`/v1/credentials/${credential.body.id}/rotate`)
        .set({ ...admin, 'X-Request-Id': ids.credRotate })
        .send({ keySecret: 'S2' })
        .expect(200);
      await gateway.http
        .delete(`/v1/credentials/${credential.body.id}`)
        .set({ ...admin, 'X-Request-Id': ids.credDelete })
        .expect(204);

      const events = await listAll(tenant.keys.auditor);
      const byRequest = (requestId: string) => events.filter((event) => event.requestId === requestId);
      const keyActor = `key:${tenant.keyIds.admin}`;
      const expected = [
        [ids.keyCreate, 'key.create', `key:${key.body.id}`, 201],
        [ids.keyRevoke, 'key.revoke', `key:${key.body.id}`, 200],
        [ids.credCreate, 'credential.create', `credential:${credential.body.id}`, 201],
        [ids.credRotate, 'credential.rotate', `credential:${credential.body.id}`, 200],
        [ids.credDelete, 'credential.delete', `credential:${credential.body.id}`, 204],
      ] as const;
      for (const [requestId, action, target, httpStatus] of expected) {
        expect(byRequest(requestId)).toEqual([
          expect.objectContaining({
            tenantId: tenant.id,
            actor: keyActor,
            onBehalfOf: person,
            action,
            target,
            requestId,
            outcome: 'succeeded',
            httpStatus,
          }),
        ]);
      }
      expect(Object.keys(events[0]).sort()).toEqual(ITEM_FIELDS);

      const created = await gateway.http
        .post('/v1/admin/tenants')
        .set({ ...platformAuth, 'X-On-Behalf-Of': person, 'X-Request-Id': ids.tenantCreate })
        .send({ name: `audited-${randomUUID().slice(0, 8)}` })
        .expect(201);
      const reviewer = await gateway.http
        .post(`/v1/admin/tenants/${created.body.id}/keys`)
        .set(platformAuth)
        .send({ name: 'reviewer', roles: ['auditor'] })
        .expect(201);
      const tenantEvents = await listAll(reviewer.body.key);
      expect(tenantEvents.find((event) => event.seq === 1)).toMatchObject({
        tenantId: created.body.id,
        actor: 'platform',
        onBehalfOf: person,
        action: 'tenant.create',
        target: `tenant:${created.body.id}`,
        requestId: ids.tenantCreate,
        outcome: 'succeeded',
        httpStatus: 201,
        details: { name: created.body.name },
      });
    });

    it('records an on-behalf-of name sent as UTF-8 as the same characters', async () => {
      const person = 'Michał Żółw 佐藤';
      const requestId = `utf8-person-${randomUUID()}`;
      const key = await gateway.http
        .post('/v1/keys')
        .set(bearer(tenant.keys.admin))
        .send({ name: 'utf8-person', roles: ['viewer'] })
        .expect(201);
      // The name's UTF-8 bytes on the wire: without a body, Node's client writes each char of a
      // header value as one byte.
      const onTheWire = Buffer.from(person, 'utf8').toString('latin1');
      await gateway.http
        .delete(`/v1/keys/${key.body.id}`)
        .set({ ...bearer(tenant.keys.admin), 'X-On-Behalf-Of': onTheWire, 'X-Request-Id': requestId })
        .expect(200);
      const events = await listAll(tenant.keys.auditor);
      expect(events.filter((event) => event.requestId === requestId)).toEqual([
        expect.objectContaining({ action: 'key.revoke', onBehalfOf: person }),
      ]);
    });

    it('keeps seq gap-free under concurrent writers', async () => {
      const busy = await createTenant(gateway);
      const before = (await listAll(busy.keys.auditor)).length;
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          gateway.http
            .post('/v1/keys')
            .set(bearer(busy.keys.admin))
            .send({ name: `parallel-${i}`, roles: ['viewer'] }),
        ),
      );
      // Every writer queues on the tenant's chain row. On a loaded machine a writer can give up
      // waiting for a database connection (a 5xx problem); it must then leave no event and no gap.
      const created = responses.filter((response) => response.status === 201).length;
      for (const response of responses.filter((r) => r.status !== 201)) {
        expect(response.status).toBeGreaterThanOrEqual(500);
        expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      }
      expect(created).toBeGreaterThan(0);
      expect(
        await prisma.gatewayKey.count({ where: { tenantId: busy.id, name: { startsWith: 'parallel-' } } }),
      ).toBe(created);
      const seqs = (await listAll(busy.keys.auditor)).map((event) => event.seq).sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: before + created }, (_, i) => i + 1));
      expect(await verify(busy)).toEqual({
        ok: true,
        legacyEvents: 0,
        checked: before + created,
        lastSeq: before + created,
        lastHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
    });

    it("queues a tenant's appends in process and sends the queued ones in one statement, but never one inside a transaction", async () => {
      const busy = await createTenant(gateway);
      const audit = gateway.app.get(AuditService);
      const before = (await listAll(busy.keys.auditor)).length;
      const entry = (i: number) => ({
        tenantId: busy.id,
        action: plantedAction('test.append'),
        outcome: 'succeeded' as const,
        target: `t:${i}`,
      });
      let queued: Promise<unknown>[] = [];
      let waitingOnChainRow: number | null = null;
      let queuedMetric: string | undefined;
      await prisma.$transaction(
        async (tx) => {
          // This transaction holds the tenant's chain row, so appends from outside must wait for it.
          await audit.append(tx, testActor, entry(0));
          queued = Array.from({ length: 6 }, (_, i) => audit.append(prisma, testActor, entry(i + 1)));
          await new Promise((resolve) => setTimeout(resolve, 300));
          queuedMetric = /^gateway_audit_appends_queued (\d+)$/m.exec(
            await gateway.app.get(MetricsService).render(),
          )?.[1];
          if (postgresConfigured()) {
            const [row] = await prisma.$queryRaw<{ sessions: number }[]>`
              SELECT count(*)::int AS sessions FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND query LIKE '%FROM audit_chains WHERE tenant_id%'
                AND datname = current_database()`;
            waitingOnChainRow = row.sessions;
          }
          // Its own second append goes straight to the database: queued behind the appends that
          // wait for this very transaction, it would never run.
          await audit.append(tx, testActor, entry(7));
        },
        { timeout: 10_000 },
      );
      await Promise.all(queued);
      if (postgresConfigured()) expect(waitingOnChainRow).toBe(1);
      // Six sent, one at the database: the metric counts the five held back.
      expect(queuedMetric).toBe('5');
      const events = (await listAll(busy.keys.auditor)).filter(
        (event) => event.action === plantedAction('test.append'),
      );
      expect(events).toHaveLength(8);
      expect(await verify(busy)).toMatchObject({ ok: true, checked: before + 8 });
      // Rows written by one statement share its transaction id: the transaction's two events, the one
      // sent at once, and the five held back, together.
      const transactions = await prisma.$queryRaw<{ target: string; xid: string }[]>`
        SELECT target, xmin::text AS xid FROM audit_events
        WHERE tenant_id = ${busy.id}::uuid AND action = 'test.append' ORDER BY seq`;
      const groups = new Map<string, string[]>();
      for (const { target, xid } of transactions) groups.set(xid, [...(groups.get(xid) ?? []), target]);
      expect([...groups.values()].map((targets) => targets.sort())).toEqual(
        expect.arrayContaining([['t:0', 't:7'], ['t:1'], ['t:2', 't:3', 't:4', 't:5', 't:6']]),
      );
      expect(groups.size).toBe(3);
    });

    itWithPostgres(
      'sends each kind of batch as one prepared statement, whatever its number of events',
      async () => {
        const busy = await createTenant(gateway);
        const audit = gateway.app.get(AuditService);
        const appends: { text: string; name?: string; events: number }[] = [];
        const query = Client.prototype.query as (...args: unknown[]) => unknown;
        const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (
          this: Client,
          ...args: unknown[]
        ) {
          const sent = args[0] as { text?: string; name?: string; values?: unknown[] };
          if (typeof sent === 'object' && sent.text?.includes('INSERT INTO audit_events')) {
            appends.push({ text: sent.text, name: sent.name, events: appendedEvents(sent.values ?? []) });
          }
          return query.apply(this, args);
        });
        try {
          // The first goes alone; the five queued behind it go together.
          await Promise.all(
            Array.from({ length: 6 }, (_, i) =>
              audit.append(prisma, testActor, {
                tenantId: busy.id,
                action: plantedAction('test.append'),
                outcome: 'succeeded',
                target: `t:${i}`,
              }),
            ),
          );
        } finally {
          spy.mockRestore();
        }
        expect(appends.map((append) => append.events)).toEqual([1, 5]);
        expect(new Set(appends.map((append) => append.text)).size).toBe(1);
        expect(appends.every((append) => append.name !== undefined && append.name === appends[0].name)).toBe(
          true,
        );
        expect(await verify(busy)).toMatchObject({ ok: true });
      },
    );

    it('fails only the append whose own write fails when queued appends go together', async () => {
      const busy = await createTenant(gateway);
      const audit = gateway.app.get(AuditService);
      const before = (await verify(busy)).checked as number;
      const entry = (i: number) => ({
        tenantId: busy.id,
        action: plantedAction('test.append'),
        outcome: 'succeeded' as const,
        target: `t:${i}`,
      });
      // No such tenant: the write breaks its foreign key.
      const failingChange: TableWrite = {
        insert: 'idempotent_requests',
        values: {
          tenant_id: Prisma.sql`${randomUUID()}::uuid`,
          operation: Prisma.sql`'pipe.create'`,
          key: Prisma.sql`'failing'`,
          fingerprint: Prisma.sql`'x'`,
        },
      };
      let settled: Promise<PromiseSettledResult<unknown>[]> = Promise.resolve([]);
      await prisma.$transaction(
        async (tx) => {
          await audit.append(tx, testActor, entry(0));
          // One goes at once; the other five wait and go together, the fourth of them with a write that fails.
          settled = Promise.allSettled(
            [1, 2, 3, 4, 5, 6].map((i) =>
              audit.append(prisma, testActor, entry(i), i === 5 ? failingChange : undefined),
            ),
          );
          await new Promise((resolve) => setTimeout(resolve, 300));
        },
        { timeout: 10_000 },
      );
      const results = await settled;
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      const targets = (await listAll(busy.keys.auditor))
        .filter((event) => event.action === plantedAction('test.append'))
        .map((event) => event.target)
        .sort();
      expect(targets).toEqual(['t:0', 't:1', 't:2', 't:3', 't:4', 't:6']);
      expect(await verify(busy)).toMatchObject({ ok: true, checked: before + 6 });
    });

    it('stores the texts of queued events and their writes as given: quotes, backslashes, control characters, beyond the BMP', async () => {
      const busy = await createTenant(gateway);
      const audit = gateway.app.get(AuditService);
      const text = (i: number) => `t:${i} "quoted" \\ back\\slash\nline\ttab {a,b} 'single' NULL 😀 Żółw`;
      const kept = (i: number): TableWrite => ({
        insert: 'idempotent_requests',
        values: {
          tenant_id: Prisma.sql`${busy.id}::uuid`,
          operation: Prisma.sql`'pipe.create'`,
          key: Prisma.sql`${text(i)}`,
          fingerprint: Prisma.sql`${`fingerprint-${i}`}`,
          response: Prisma.sql`${{ status: 201, body: { name: text(i), list: [text(i), null] } }}::jsonb`,
        },
      });
      // The first goes alone; the three queued behind it go together, in one statement.
      await Promise.all(
        [0, 1, 2, 3].map((i) =>
          audit.append(
            prisma,
            testActor,
            {
              tenantId: busy.id,
              action: plantedAction('test.append'),
              outcome: 'succeeded',
              target: text(i),
              details: { note: text(i) },
            },
            kept(i),
          ),
        ),
      );
      const events = (await listAll(busy.keys.auditor)).filter(
        (event) => event.action === plantedAction('test.append'),
      );
      expect(events.map((event) => [event.target, event.details]).sort()).toEqual(
        [0, 1, 2, 3].map((i) => [text(i), { note: text(i) }]),
      );
      const rows = await prisma.$queryRaw<{ key: string; response: unknown }[]>`
        SELECT key, response FROM idempotent_requests WHERE tenant_id = ${busy.id}::uuid ORDER BY fingerprint`;
      expect(rows).toEqual(
        [0, 1, 2, 3].map((i) => ({
          key: text(i),
          response: { status: 201, body: { name: text(i), list: [text(i), null] } },
        })),
      );
      expect(await verify(busy)).toMatchObject({ ok: true });
    });

    it('answers 503 for an append that waits in the queue longer than a connection would be waited for', async () => {
      const busy = await createTenant(gateway);
      const audit = gateway.app.get(AuditService);
      const entry = {
        tenantId: busy.id,
        action: plantedAction('test.append'),
        outcome: 'succeeded' as const,
      };
      const settled: Promise<PromiseSettledResult<unknown>[]>[] = [];
      await prisma.$transaction(
        async (tx) => {
          await audit.append(tx, testActor, entry);
          // One goes to the database and waits on the row this transaction holds; the others wait in the queue.
          const appends = Array.from({ length: 3 }, () => audit.append(prisma, testActor, entry));
          settled.push(Promise.allSettled(appends));
          await new Promise((resolve) => setTimeout(resolve, 5_500));
        },
        { timeout: 10_000 },
      );
      const [first, ...queued] = await settled[0];
      expect(first.status).toBe('fulfilled');
      for (const append of queued) {
        expect(append).toMatchObject({
          status: 'rejected',
          reason: { problem: { status: 503, type: 'database-unavailable' } },
        });
      }
      expect(await verify(busy)).toMatchObject({ ok: true });
    });

    it('fails closed: when the event cannot be written the action fails with 503 and changes nothing', async () => {
      const victim = await createTenant(gateway);
      const keysBefore = await prisma.gatewayKey.count({ where: { tenantId: victim.id } });
      const headBefore = await prisma.auditChain.findUnique({ where: { tenantId: victim.id } });
      // Scoped to this tenant: on Postgres other suites share the database.
      await prisma.$executeRawUnsafe(`
        CREATE OR REPLACE FUNCTION audit_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'audit store unavailable' USING ERRCODE = '57P03';
        END $$`);
      await prisma.$executeRawUnsafe(`
        CREATE TRIGGER audit_test_refuse BEFORE INSERT ON audit_events FOR EACH ROW
        WHEN (NEW.action = 'key.create' AND NEW.tenant_id = '${victim.id}'::uuid)
        EXECUTE FUNCTION audit_test_refuse()`);
      try {
        const refused = await gateway.http
          .post('/v1/keys')
          .set(bearer(victim.keys.admin))
          .set('X-Request-Id', 'fail-closed-1')
          .send({ name: 'never', roles: ['viewer'] })
          .expect(503);
        expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
        expect(refused.headers['x-request-id']).toBe('fail-closed-1');
        expect(refused.body).toMatchObject({ status: 503, requestId: 'fail-closed-1' });
      } finally {
        await prisma.$executeRawUnsafe('DROP TRIGGER IF EXISTS audit_test_refuse ON audit_events');
        await prisma.$executeRawUnsafe('DROP FUNCTION IF EXISTS audit_test_refuse()');
      }
      expect(await prisma.gatewayKey.count({ where: { tenantId: victim.id } })).toBe(keysBefore);
      expect(await prisma.gatewayKey.count({ where: { tenantId: victim.id, name: 'never' } })).toBe(0);
      expect(await prisma.auditChain.findUnique({ where: { tenantId: victim.id } })).toEqual(headBefore);
      await gateway.http
        .post('/v1/keys')
        .set(bearer(victim.keys.admin))
        .send({ name: 'after', roles: ['viewer'] })
        .expect(201);
      expect(await verify(victim)).toMatchObject({ ok: true });
    });
  });

  describe('GET /v1/audit', () => {
    it('walks every page once, newest first, with no duplicates or gaps', async () => {
      const everything = await listAll(tenant.keys.auditor);
      const paged = await listAll(tenant.keys.auditor, {}, 3);
      expect(paged.length).toBeGreaterThan(3 * 3);
      expect(paged.map((event) => event.seq)).toEqual(everything.map((event) => event.seq));
      const seqs = paged.map((event) => event.seq);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0] - i));
      expect(seqs[seqs.length - 1]).toBe(1);
    });

    it('narrows by each filter and pages within the filter', async () => {
      await gateway.app.get(AuditService).record(
        { actor: 'key:someone-else', onBehalfOf: null, keyId: null, requestId: 'denied-1' },
        {
          tenantId: tenant.id,
          action: 'key.create',
          target: 'key:nobody',
          outcome: 'denied',
          httpStatus: 403,
        },
      );
      const everything = await listAll(tenant.keys.auditor);
      const narrowed = async (query: Record<string, string>, keep: (event: AuditItem) => boolean) => {
        const items = await listAll(tenant.keys.auditor, query, 2);
        const expected = everything.filter(keep);
        expect(items.map((event) => event.seq)).toEqual(expected.map((event) => event.seq));
        expect(items.length).toBeGreaterThan(0);
        expect(items.length).toBeLessThan(everything.length);
      };
      const keyActor = `key:${tenant.keyIds.admin}`;
      const someTarget = everything.find((event) => event.action === 'credential.rotate')!.target!;
      await narrowed({ action: 'key.create' }, (event) => event.action === 'key.create');
      await narrowed({ actor: keyActor }, (event) => event.actor === keyActor);
      await narrowed({ target: someTarget }, (event) => event.target === someTarget);
      await narrowed({ outcome: 'denied' }, (event) => event.outcome === 'denied');
      await narrowed({ action: 'key.create', outcome: 'succeeded' }, (event) => {
        return event.action === 'key.create' && event.outcome === 'succeeded';
      });

      // from is inclusive, to exclusive; both compare the event's time.
      const middle = everything[Math.floor(everything.length / 2)];
      const at = new Date(middle.at).getTime();
      await narrowed({ from: middle.at }, (event) => new Date(event.at).getTime() >= at);
      await narrowed({ to: middle.at }, (event) => new Date(event.at).getTime() < at);
      const window = await listAll(tenant.keys.auditor, {
        from: middle.at,
        to: new Date(at + 1).toISOString(),
      });
      expect(window.map((event) => event.seq)).toContain(middle.seq);
      expect(window.every((event) => event.at === middle.at)).toBe(true);
    });

    it.each([
      [{ from: 'yesterday' }, 'from'],
      [{ from: '2026-01-01' }, 'from'],
      [{ to: '2026-01-01T00:00:00' }, 'to'],
      [{ to: '2026-13-01T00:00:00Z' }, 'to'],
      [{ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'to'],
      [{ action: 'DROP TABLE' }, 'action'],
      [{ action: '' }, 'action'],
      [{ actor: '' }, 'actor'],
      [{ target: 'x'.repeat(201) }, 'target'],
      [{ outcome: 'maybe' }, 'outcome'],
      [{ limit: '0' }, 'limit'],
      [{ limit: '201' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ cursor: 'garbage' }, 'cursor'],
      [{ cursor: encodeCursor({ at: new Date().toISOString(), id: 'not-a-seq' }) }, 'cursor'],
      [{ surprise: '1' }, 'surprise'],
    ])('answers 400 naming the field for %j', async (query, field) => {
      const response = await gateway.http.get('/v1/audit').set(auditor()).query(query).expect(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(field);
    });

    it('refuses a repeated filter and bad export filters the same way', async () => {
      const repeated = await gateway.http.get('/v1/audit?action=key.create&action=key.revoke').set(auditor());
      expect(repeated.status).toBe(400);
      expect(repeated.body.errors.map((error: { path: string }) => error.path)).toContain('action');
      const exported = await gateway.http.get('/v1/audit/export?outcome=maybe').set(auditor()).expect(400);
      expect(exported.body.errors.map((error: { path: string }) => error.path)).toEqual(['outcome']);
      await gateway.http.get('/v1/audit/export?limit=5').set(auditor()).expect(400);
    });
  });

  describe('access', () => {
    it.each(['/v1/audit', '/v1/audit/export', '/v1/audit/verify'])(
      'lets only auditor keys read %s',
      async (path) => {
        for (const role of ['admin', 'operator', 'viewer'] as const) {
          const refused = await gateway.http.get(path).set(bearer(tenant.keys[role])).expect(403);
          expect(refused.body.detail).toMatch(/auditor/);
        }
        await gateway.http.get(path).expect(401);
        await gateway.http.get(path).set(platformAuth).expect(401);
        await gateway.http.get(path).set(auditor()).expect(200);
      },
    );

    it("never shows another tenant's events", async () => {
      const mine = await listAll(tenant.keys.auditor);
      const theirs = await listAll(other.keys.auditor);
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.every((event) => event.tenantId === other.id)).toBe(true);
      const myRequests = new Set(mine.map((event) => event.requestId));
      expect(theirs.filter((event) => myRequests.has(event.requestId))).toEqual([]);
      const filtered = await listAll(other.keys.auditor, { actor: `key:${tenant.keyIds.admin}` });
      expect(filtered).toEqual([]);

      const lines: AuditItem[] = [];
      await readNdjson(await exportRequest(other), (event) => lines.push(event));
      expect(lines.map((event) => event.seq)).toEqual(theirs.map((event) => event.seq).reverse());
      expect((await verify(other)).checked).toBe(theirs.length);
    });
  });

  describe('GET /v1/audit/verify', () => {
    async function tenantWithEvents(): Promise<TestTenant> {
      const fresh = await createTenant(gateway);
      await appendEvents(fresh.id, 5);
      expect(await verify(fresh)).toEqual({
        ok: true,
        checked: 10,
        lastSeq: 10,
        lastHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        legacyEvents: 0,
      });
      return fresh;
    }
    const tamper = (sql: string, tenantId: string) => prisma.$executeRawUnsafe(sql, tenantId);

    it.each([
      [
        'details edited',
        'UPDATE audit_events SET details = \'{"i": 99}\' WHERE tenant_id = $1::uuid AND seq = 7',
        7,
        'hash mismatch',
      ],
      [
        'outcome edited',
        "UPDATE audit_events SET outcome = 'failed' WHERE tenant_id = $1::uuid AND seq = 4",
        4,
        'hash mismatch',
      ],
      [
        'event deleted in the middle',
        'DELETE FROM audit_events WHERE tenant_id = $1::uuid AND seq = 6',
        6,
        'missing event',
      ],
      [
        'two events swapped',
        `UPDATE audit_events a SET at = b.at, actor = b.actor, on_behalf_of = b.on_behalf_of, action = b.action,
           target = b.target, request_id = b.request_id, outcome = b.outcome, http_status = b.http_status,
           details = b.details, prev_hash = b.prev_hash, hash = b.hash
         FROM audit_events b
         WHERE a.tenant_id = $1::uuid AND b.tenant_id = $1::uuid
           AND ((a.seq = 8 AND b.seq = 9) OR (a.seq = 9 AND b.seq = 8))`,
        8,
        'prevHash mismatch',
      ],
      [
        'last event deleted',
        'DELETE FROM audit_events WHERE tenant_id = $1::uuid AND seq = 10',
        10,
        'head mismatch',
      ],
    ])('detects %s', async (_case, sql, firstBadSeq, reason) => {
      const victim = await tenantWithEvents();
      expect(await tamper(sql, victim.id)).toBeGreaterThan(0);
      expect(await verify(victim)).toEqual({ ok: false, checked: firstBadSeq - 1, firstBadSeq, reason });
    });

    it('reports a chain whose head no longer matches its last event', async () => {
      const victim = await tenantWithEvents();
      await tamper(
        "UPDATE audit_chains SET last_hash = repeat('a', 64) WHERE tenant_id = $1::uuid",
        victim.id,
      );
      expect(await verify(victim)).toEqual({
        ok: false,
        checked: 10,
        firstBadSeq: 10,
        reason: 'head mismatch',
      });
    });
  });

  describe('GET /v1/audit/export', () => {
    it('streams every event as NDJSON in seq order, holding one batch at a time', async () => {
      const seeded = postgresConfigured() ? 100_000 : 20_000;
      const big = await createTenant(gateway);
      const head = (await prisma.auditChain.findUnique({ where: { tenantId: big.id } }))!.lastSeq;
      await seedChain(big.id, seeded, () => new Date());
      const total = head + seeded;

      collectGarbage();
      const baseline = process.memoryUsage().heapUsed;
      let held = 0;
      let expectedSeq = 1;
      const response = await exportRequest(big, '', { 'X-Request-Id': 'export-big-1' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      expect(response.headers.get('x-request-id')).toBe('export-big-1');
      expect(response.headers.get('content-length')).toBeNull();
      const read = await readNdjson(response, (event) => {
        if (event.seq !== expectedSeq || event.tenantId !== big.id) {
          throw new Error(`line ${expectedSeq} is seq ${event.seq} of ${event.tenantId}`);
        }
        if (expectedSeq % 5000 === 0) {
          collectGarbage();
          held = Math.max(held, process.memoryUsage().heapUsed - baseline);
        }
        expectedSeq += 1;
      });
      expect(read.lines).toBe(total);
      expect(read.checkpoints).toHaveLength(1);
      expect(read.chunks).toBeGreaterThan(10);
      // Reading everything at once would hold memory in proportion to the log; a batch of 1,000 events
      // is about 1 MB, and the bound allows a few.
      expect(held).toBeLessThan(8 * 1024 * 1024);
    }, 120_000);

    it('applies the same filters as the list, oldest first', async () => {
      const lines: AuditItem[] = [];
      await readNdjson(await exportRequest(tenant, '?action=key.create'), (event) => lines.push(event));
      const listed = await listAll(tenant.keys.auditor, { action: 'key.create' });
      expect(lines).toEqual([...listed].reverse());
    });
  });

  describe('retention', () => {
    // Pruning runs as of a day RETENTION_DAYS - 5 days ahead, so only events backdated by 10 days
    // expire: the scheduled run (as of now) leaves them alone, and so does this run every other
    // suite's fresh events in a shared database.
    const asOf = () => new Date(Date.now() + (RETENTION_DAYS - 5) * DAY_MS);

    async function tenantWithBackdatedEvents(old: number, recent: number): Promise<string> {
      const id = randomUUID();
      await prisma.tenant.create({ data: { id, name: `retained-${id.slice(0, 8)}` } });
      const tenDaysAgo = Date.now() - 10 * DAY_MS;
      await seedChain(
        id,
        old + recent,
        (index) => new Date(index < old ? tenDaysAgo + index * 1000 : Date.now()),
      );
      return id;
    }

    async function auditorFor(tenantId: string): Promise<TestTenant> {
      const key = await gateway.http
        .post(`/v1/admin/tenants/${tenantId}/keys`)
        .set(platformAuth)
        .send({ name: 'reviewer', roles: ['auditor'] })
        .expect(201);
      return { id: tenantId, name: '', keys: { auditor: key.body.key }, keyIds: {} } as TestTenant;
    }

    it('prunes expired events, records the checkpoint, and the chain still verifies', async () => {
      const id = await tenantWithBackdatedEvents(6, 4);
      const retention = gateway.app.get(AuditRetentionService);
      const now = asOf();
      const results = await retention.pruneExpired(now);
      expect(results.filter((result) => result.tenantId === id)).toEqual([
        { tenantId: id, removed: 6, startSeq: 7 },
      ]);

      const chain = await prisma.auditChain.findUnique({ where: { tenantId: id } });
      const firstKept = await prisma.auditEvent.findUnique({
        where: { tenantId_seq: { tenantId: id, seq: 7 } },
      });
      expect(chain).toMatchObject({
        startSeq: 7,
        startHash: firstKept!.prevHash,
        lastSeq: 11,
        prunedAt: now,
      });

      const reviewer = await auditorFor(id);
      const events = await listAll(reviewer.keys.auditor);
      expect(events.map((event) => event.seq)).toEqual([12, 11, 10, 9, 8, 7]);
      expect(events.find((event) => event.action === 'audit.prune')).toMatchObject({
        seq: 11,
        actor: 'gateway',
        target: `tenant:${id}`,
        outcome: 'succeeded',
        details: { removed: 6, startSeq: 7, retentionDays: RETENTION_DAYS },
      });
      expect(await verify(reviewer)).toEqual({
        ok: true,
        legacyEvents: 0,
        checked: 6,
        lastSeq: 12,
        lastHash: expect.any(String),
      });

      expect((await retention.pruneExpired(now)).filter((result) => result.tenantId === id)).toEqual([]);
      expect(await prisma.auditEvent.count({ where: { tenantId: id } })).toBe(6);
    });

    it('prunes the kept checkpoints that sign only pruned events, and keeps those over events still kept', async () => {
      const id = await tenantWithBackdatedEvents(6, 4);
      const signed: string[] = [];
      for (const seq of [3, 6, 7, 10]) {
        const { digest } = (await prisma.auditEvent.findUnique({
          where: { tenantId_seq: { tenantId: id, seq } },
        }))!;
        const line = await gateway.app.get(AuditCheckpointService).exportEnd(id, { seq, digest: digest! });
        signed.push((JSON.parse(line) as { checkpoint: string }).checkpoint);
      }
      expect(
        (await gateway.app.get(AuditRetentionService).pruneExpired(asOf())).filter((r) => r.tenantId === id),
      ).toEqual([{ tenantId: id, removed: 6, startSeq: 7 }]);
      const left = await prisma.auditCheckpoint.findMany({
        where: { jws: { in: signed } },
        orderBy: { id: 'asc' },
      });
      expect(left.map((checkpoint) => checkpoint.seq)).toEqual([7, 10]);
    });

    it('always keeps the newest event', async () => {
      const id = await tenantWithBackdatedEvents(3, 0);
      expect(
        (await gateway.app.get(AuditRetentionService).pruneExpired(asOf())).filter((r) => r.tenantId === id),
      ).toEqual([{ tenantId: id, removed: 2, startSeq: 3 }]);
      const reviewer = await auditorFor(id);
      const events = await listAll(reviewer.keys.auditor);
      expect(events.map((event) => [event.seq, event.action])).toEqual([
        [5, 'key.create'],
        [4, 'audit.prune'],
        [3, 'seed.event'],
      ]);
      expect(await verify(reviewer)).toMatchObject({ ok: true, checked: 3, lastSeq: 5 });
    });
  });

  it('shows no planted secret in any audit response or export line', async () => {
    await gateway.http
      .post('/v1/credentials')
      .set(bearer(tenant.keys.admin))
      .send({
        kind: 'pipes',
        name: 'canary',
        organizationId: randomUUID(),
        keyId: 'KEY-canary',
        keySecret: CANARY,
      })
      .expect(201);
    await gateway.app.get(AuditService).record(testActor, {
      tenantId: tenant.id,
      action: plantedAction('test.canary'),
      outcome: 'succeeded',
      details: { password: CANARY, nested: { token: CANARY }, url: `postgres://u:${CANARY}@h/db` },
    });

    const listed = JSON.stringify(await listAll(tenant.keys.auditor, {}, 50));
    const exported = await (await exportRequest(tenant)).text();
    const verified = await gateway.http.get('/v1/audit/verify').set(auditor()).expect(200);
    for (const text of [listed, exported, verified.text]) expect(text).not.toContain(CANARY);
    expect(gateway.logs.text()).not.toContain(CANARY);

    // Details come out exactly as stored: redacted once, when the event was written.
    const planted = (await listAll(tenant.keys.auditor, { action: plantedAction('test.canary') }))[0];
    expect(planted.details).toEqual({
      password: '[redacted]',
      nested: { token: '[redacted]' },
      url: 'postgres://u:[redacted]@h/db',
    });
    const stored = await prisma.auditEvent.findUnique({
      where: { tenantId_seq: { tenantId: tenant.id, seq: planted.seq } },
    });
    expect(planted.details).toEqual(stored!.details);
    expect(exported).toContain(JSON.stringify(planted));
    expect(verified.body).toMatchObject({ ok: true });
  });
});
