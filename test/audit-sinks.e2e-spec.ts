/**
 * The audit sinks against real receivers: Debian's rsyslogd (plain TCP and TLS) and an HTTP
 * collector in the test. What they receive is compared, byte for byte, with the NDJSON export.
 * Log lines outside a request reach only the first gateway of a test file (nestjs-pino keeps one
 * such logger per process), so the sinks' log lines are tested in audit-sink-logs.e2e-spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { AuditEventsRepository } from '../src/audit/audit-events.repository';
import { AuditRetentionService } from '../src/audit/audit-retention.service';
import { PrismaService } from '../src/database/prisma.service';
import { bearer, createTenant, platformAuth, TestTenant } from './support/fixtures';
import { startGateway, testGatewayEnv, TestGateway } from './support/gateway';
import { finished, launch } from './support/process';
import {
  Collector,
  Delivery,
  QUICK,
  signatureValid,
  waitFor,
  WEBHOOK_SECRET,
} from './support/audit-sink-receivers';
import { hasRsyslog, makeCertificates, NO_RSYSLOG, Rsyslog, SYSLOG_LINE } from './support/rsyslog';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { describeIf, itIf, NEEDS_POSTGRES, postgresConfigured } from './support/skip';

const VERIFIER = join(__dirname, '..', 'tools', 'verify-audit-log.mjs');

/** What a signed checkpoint (a compact JWS) says: its payload, read without checking it. */
function signedPayload(jws: string): { tenantId: string; seq: number; at: string } {
  return JSON.parse(Buffer.from(jws.split('.')[1], 'base64url').toString('utf8'));
}

/** A tenant's lines among those received: its events, and the checkpoints signed over its chain. */
function linesOf(lines: string[], tenantIds: string[]): string[] {
  return lines.filter((line) => {
    const record = JSON.parse(line) as { tenantId?: string; checkpoint?: string };
    return tenantIds.includes(
      record.checkpoint ? signedPayload(record.checkpoint).tenantId : record.tenantId!,
    );
  });
}

/** Runs tools/verify-audit-log.mjs on `lines` with the keys GET /v1/audit/signing-keys publishes. */
async function verifyOffline(
  gateway: TestGateway,
  lines: string[],
): Promise<{ status: number | null; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pgw-received-'));
  try {
    const keys = (await gateway.http.get('/v1/audit/signing-keys').expect(200)).body;
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify(keys));
    writeFileSync(join(dir, 'received.ndjson'), lines.map((line) => `${line}\n`).join(''));
    const run = spawnSync(
      process.execPath,
      [VERIFIER, join(dir, 'received.ndjson'), '--keys', join(dir, 'jwks.json')],
      { encoding: 'utf8' },
    );
    return { status: run.status, out: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `lines` with the tenant's event `seq` changed after it was received. */
function tamperedWith(lines: string[], tenantId: string, seq: number): string[] {
  return lines.map((line) => {
    const record = JSON.parse(line) as { tenantId?: string; seq?: number };
    return record.tenantId === tenantId && record.seq === seq
      ? JSON.stringify({ ...record, outcome: 'failed' })
      : line;
  });
}

/** The tenant's events as the export gives them, one line each. */
async function exportLines(gateway: TestGateway, tenant: TestTenant): Promise<string[]> {
  const answer = await gateway.http
    .get('/v1/audit/export')
    .set(bearer(tenant.keys.auditor))
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => done(null, text));
    });
  expect(answer.status).toBe(200);
  return (answer.body as string).split('\n').filter((line) => line !== '' && 'action' in JSON.parse(line));
}

/** A few audited writes in the tenant, one of them a secret credential holding `canary`. */
async function auditedWrites(gateway: TestGateway, tenant: TestTenant, canary: string): Promise<void> {
  await gateway.http
    .post('/v1/credentials')
    .set(bearer(tenant.keys.admin))
    .send({ kind: 'secret', name: `canary-${randomUUID().slice(0, 6)}`, value: canary })
    .expect(201);
  for (let index = 0; index < 3; index++) {
    await gateway.http
      .post('/v1/admin/tenants/' + tenant.id + '/keys')
      .set(platformAuth)
      .send({ name: `extra-${index}`, roles: ['viewer'] })
      .expect(201);
  }
}

/** Each tenant's deliveries with the repeats dropped as a receiver drops them: by (tenantId, seq). */
function firstOfEach(deliveries: Delivery[], tenantId: string): { lines: string[]; repeats: Delivery[] } {
  const seen = new Map<number, string>();
  const repeats: Delivery[] = [];
  for (const delivery of deliveries.filter((each) => each.tenantId === tenantId)) {
    const earlier = seen.get(delivery.seq);
    if (earlier === undefined) seen.set(delivery.seq, delivery.line);
    else {
      // A redelivery is byte-identical.
      expect(delivery.line).toBe(earlier);
      repeats.push(delivery);
    }
  }
  return { lines: [...seen.values()], repeats };
}

interface SyslogMessage {
  msgId: 'audit' | 'checkpoint';
  tenantId: string;
  seq: number;
  /** The MSG part: the export's line for the event or checkpoint. */
  msg: string;
}

/** What rsyslog received, in order of arrival: events (MSGID audit) and checkpoints. */
function syslogMessages(rsyslog: Rsyslog): SyslogMessage[] {
  return rsyslog.messages().map((message) => {
    const match = SYSLOG_LINE.exec(message);
    if (!match) throw new Error(`not an audit syslog message: ${message}`);
    const [, timestamp, , msgId, sdName, tenantId, seq, msg] = match;
    expect(sdName).toBe(msgId);
    const body = JSON.parse(msg) as { tenantId: string; seq: number; at: string; checkpoint?: string };
    // The header and the structured data agree with the event, or with what the checkpoint signs.
    const said = msgId === 'checkpoint' ? signedPayload(body.checkpoint!) : body;
    expect([timestamp, tenantId, Number(seq)]).toEqual([said.at, said.tenantId, said.seq]);
    return { msgId: msgId as SyslogMessage['msgId'], tenantId, seq: Number(seq), msg };
  });
}

/** The events rsyslog received, in order of arrival. */
function syslogDeliveries(rsyslog: Rsyslog): Delivery[] {
  return syslogMessages(rsyslog)
    .filter((message) => message.msgId === 'audit')
    .map(({ tenantId, seq, msg }) => ({ tenantId, seq, line: msg }));
}

// On Postgres the run's database holds every suite's events, which a sink ships too while the
// other suites keep writing: this file's gateways share a database of its own.
let fileDatabase: ScratchDatabase | null = null;
beforeAll(async () => {
  if (postgresConfigured()) fileDatabase = await createScratchDatabase();
});
afterAll(() => fileDatabase?.drop());

/** A gateway of this file, on its database. */
function startSinkGateway(env: Record<string, string>): Promise<TestGateway> {
  return startGateway({ ...fileDatabase?.env, ...env });
}

async function sinkState(gateway: TestGateway, kind: string): Promise<Record<string, unknown>> {
  const answer = await gateway.http.get('/v1/admin/audit-sinks').set(platformAuth).expect(200);
  return (answer.body.sinks as Record<string, unknown>[]).find((sink) => sink.kind === kind)!;
}

describeIf(hasRsyslog, NO_RSYSLOG)('audit sinks: syslog to a real rsyslog', () => {
  let rsyslog: Rsyslog;
  let gateway: TestGateway;

  beforeAll(async () => {
    rsyslog = await Rsyslog.start();
    gateway = await startSinkGateway({ ...QUICK, AUDIT_SYSLOG_URL: `tcp://127.0.0.1:${rsyslog.port}` });
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await rsyslog?.remove();
  });

  it('delivers every event as RFC 5424 with the export line as its message, in order, with no secret', async () => {
    const canary = `canary-secret-${randomUUID()}`;
    const tenant = await createTenant(gateway);
    await auditedWrites(gateway, tenant, canary);
    const expected = await exportLines(gateway, tenant);
    const received = await waitFor('rsyslog to receive every event', () => {
      const lines = syslogDeliveries(rsyslog).filter((each) => each.tenantId === tenant.id);
      return lines.length >= expected.length && lines;
    });
    // In order per tenant: seq 1, 2, 3 ... as the export has them, each the export's own bytes.
    expect(received.map((each) => each.line)).toEqual(expected);
    expect(received.map((each) => each.seq)).toEqual(expected.map((_, index) => index + 1));
    expect(rsyslog.messages().join('\n')).not.toContain(canary);
    expect(gateway.logs.text()).not.toContain(canary);

    await waitFor(
      'the sink to catch up',
      async () => (await sinkState(gateway, 'syslog')).eventsBehind === 0,
    );
    const state = await sinkState(gateway, 'syslog');
    expect(state).toMatchObject({
      address: `tcp://127.0.0.1:${rsyslog.port}`,
      eventsBehind: 0,
      secondsBehind: 0,
      lastError: null,
    });
    expect(Date.parse(state.lastDeliveryAt as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('loses nothing while rsyslog is down, shows the lag, and keeps what it has not delivered from retention', async () => {
    await rsyslog.stop();
    const tenant = await createTenant(gateway);
    await auditedWrites(gateway, tenant, 'no-canary');
    const expected = await exportLines(gateway, tenant);

    const down = await waitFor('the sink to report its failure', async () => {
      const state = await sinkState(gateway, 'syslog');
      return (state.eventsBehind as number) >= expected.length && state.lastError !== null && state;
    });
    expect(down.lastError).toMatch(/ECONNREFUSED/);
    const metrics = await gateway.http.get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^gateway_audit_sink_events_behind\{sink="syslog"\} [1-9]\d*$/m);
    expect(metrics.text).toMatch(/^gateway_audit_sink_last_error_timestamp_seconds\{sink="syslog"\} \d/m);

    // Retention past every event's age removes none the sink has not delivered.
    const retention = gateway.app.get(AuditRetentionService, { strict: false });
    const farFuture = new Date(Date.now() + 1000 * 24 * 3_600_000);
    const pruned = await retention.pruneExpired(farFuture);
    expect(pruned.find((result) => result.tenantId === tenant.id)).toBeUndefined();

    await rsyslog.restart();
    const received = await waitFor('rsyslog to receive the backlog', () => {
      const { lines } = firstOfEach(syslogDeliveries(rsyslog), tenant.id);
      return lines.length >= expected.length && lines;
    });
    expect(received.slice(0, expected.length)).toEqual(expected);
    await waitFor(
      'the sink to catch up',
      async () => (await sinkState(gateway, 'syslog')).eventsBehind === 0,
    );
  }, 120_000);

  it('sends each signed checkpoint after the events it signs, and what rsyslog received verifies offline', async () => {
    // Signed while rsyslog is down: each checkpoint waits for the events it signs.
    await rsyslog.stop();
    const tenants = [await createTenant(gateway), await createTenant(gateway)];
    for (const tenant of tenants) await auditedWrites(gateway, tenant, 'no-canary');
    const checkpoints: { tenantId: string; seq: number; jws: string }[] = [];
    for (const tenant of tenants) {
      const answer = await gateway.http
        .get('/v1/audit/checkpoint')
        .set(bearer(tenant.keys.auditor))
        .expect(200);
      checkpoints.push(answer.body);
    }
    await rsyslog.restart();

    const line = (jws: string) => `{"checkpoint":"${jws}"}`;
    const messages = await waitFor('rsyslog to receive both checkpoints', () => {
      const all = syslogMessages(rsyslog);
      return checkpoints.every(({ jws }) => all.some((message) => message.msg === line(jws))) && all;
    });
    for (const checkpoint of checkpoints) {
      const at = messages.findIndex((message) => message.msg === line(checkpoint.jws));
      expect(messages[at]).toMatchObject({
        msgId: 'checkpoint',
        tenantId: checkpoint.tenantId,
        seq: checkpoint.seq,
      });
      const before = messages
        .slice(0, at)
        .filter((message) => message.msgId === 'audit' && message.tenantId === checkpoint.tenantId);
      expect(new Set(before.map((message) => message.seq))).toEqual(
        new Set(Array.from({ length: checkpoint.seq }, (_, index) => index + 1)),
      );
    }

    // The MSG parts of the two tenants' messages, as an auditor of each would take them.
    const received = linesOf(
      messages.map((message) => message.msg),
      tenants.map((tenant) => tenant.id),
    );
    const verdict = await verifyOffline(gateway, received);
    expect(verdict).toMatchObject({ status: 0 });
    for (const { tenantId, seq } of checkpoints)
      expect(verdict.out).toContain(`ok  tenant ${tenantId}: seq 1..${seq} (${seq} events)`);

    const tampered = await verifyOffline(gateway, tamperedWith(received, tenants[1].id, 2));
    expect(tampered.status).toBe(1);
    expect(tampered.out).toContain(`FAILED  tenant ${tenants[1].id}: seq 2 altered`);
  }, 120_000);
});

describeIf(hasRsyslog, NO_RSYSLOG)('audit sinks: syslog over TLS (RFC 5425) to a real rsyslog', () => {
  let dir: string;
  let rsyslog: Rsyslog;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pgw-tls-'));
    rsyslog = await Rsyslog.start(makeCertificates(dir));
  }, 120_000);
  afterAll(async () => {
    await rsyslog?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers over TLS to a receiver whose certificate a private CA signed (AUDIT_SYSLOG_CA, file or text)', async () => {
    for (const ca of [join(dir, 'ca.pem'), readFileSync(join(dir, 'ca.pem'), 'utf8')]) {
      const gateway = await startSinkGateway({
        ...QUICK,
        AUDIT_SYSLOG_URL: `tls://127.0.0.1:${rsyslog.port}`,
        AUDIT_SYSLOG_CA: ca,
      });
      try {
        const tenant = await createTenant(gateway);
        const expected = await exportLines(gateway, tenant);
        const received = await waitFor('rsyslog to receive over TLS', () => {
          const { lines } = firstOfEach(syslogDeliveries(rsyslog), tenant.id);
          return lines.length >= expected.length && lines;
        });
        expect(received).toEqual(expected);
      } finally {
        await gateway.close();
      }
    }
  }, 120_000);

  it('refuses a receiver its CA did not sign, and says so', async () => {
    const gateway = await startSinkGateway({ ...QUICK, AUDIT_SYSLOG_URL: `tls://127.0.0.1:${rsyslog.port}` });
    try {
      await createTenant(gateway);
      // On a database shared with the suite's other gateways, an earlier sink's error may be there first.
      const state = await waitFor('a delivery refused for its certificate', async () => {
        const sink = await sinkState(gateway, 'syslog');
        return /certificate/i.test(String(sink.lastError)) && sink;
      });
      expect(state.eventsBehind).toBeGreaterThan(0);
    } finally {
      await gateway.close();
    }
  });
});

describe('audit sinks: a webhook collector', () => {
  let collector: Collector;
  let url: string;

  beforeEach(async () => {
    collector = new Collector();
    url = await collector.listen();
  });
  afterEach(() => collector.close());

  it('posts signed NDJSON batches, retries refusals with growing pauses, and loses nothing', async () => {
    collector.answers.push(503, 500, 429);
    const token = `query-token-${randomUUID()}`;
    const gateway = await startSinkGateway({
      ...QUICK,
      AUDIT_WEBHOOK_URL: `http://ingest:pass-${token}@127.0.0.1:${new URL(url).port}/ingest?token=${token}`,
      AUDIT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    try {
      const canary = `canary-secret-${randomUUID()}`;
      const tenant = await createTenant(gateway);
      await auditedWrites(gateway, tenant, canary);
      const expected = await exportLines(gateway, tenant);
      const received = await waitFor('the collector to take every event', () => {
        const { lines } = firstOfEach(collector.deliveries(), tenant.id);
        return lines.length >= expected.length && lines;
      });
      expect(received).toEqual(expected);

      for (const request of collector.requests) {
        expect(request.headers['content-type']).toBe('application/x-ndjson');
        expect(request.headers.authorization).toBe(
          `Basic ${Buffer.from(`ingest:pass-${token}`).toString('base64')}`,
        );
        expect(
          signatureValid(request.headers['x-pipes-gateway-signature'], request.body, WEBHOOK_SECRET),
        ).toBe(true);
        expect(
          signatureValid(request.headers['x-pipes-gateway-signature'], request.body, `${WEBHOOK_SECRET}x`),
        ).toBe(false);
        expect(request.body).not.toContain(canary);
      }
      // The three refusals were retried after pauses doubling from AUDIT_SINK_RETRY_MIN_MS.
      expect(collector.requests.slice(0, 4).map((request) => request.answered)).toEqual([503, 500, 429, 200]);
      collector.requests.slice(1, 4).forEach((request, index) => {
        expect(request.at - collector.requests[index].at).toBeGreaterThanOrEqual(100 * 2 ** index);
      });

      // Neither the secret nor the URL's credentials show in the sink's state or the metrics (the
      // log lines: audit-sink-logs.e2e-spec.ts, whose gateway is its file's first and only one).
      const state = await sinkState(gateway, 'webhook');
      expect(state.address).toBe(`http://127.0.0.1:${new URL(url).port}/ingest`);
      expect(state.lastError).toBe('the webhook receiver answered HTTP 429');
      const metrics = (await gateway.http.get('/metrics').expect(200)).text;
      for (const secret of [WEBHOOK_SECRET, token, canary]) {
        expect(JSON.stringify(state)).not.toContain(secret);
        expect(metrics).not.toContain(secret);
      }
    } finally {
      await gateway.close();
    }
  }, 120_000);

  it('posts the checkpoints signed each AUDIT_CHECKPOINT_INTERVAL in the batches, and the bodies verify offline', async () => {
    const gateway = await startSinkGateway({
      ...QUICK,
      AUDIT_CHECKPOINT_INTERVAL: '1s',
      AUDIT_WEBHOOK_URL: `${url}/ingest`,
      AUDIT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    try {
      const tenant = await createTenant(gateway);
      await auditedWrites(gateway, tenant, 'no-canary');
      const head = (await gateway.app.get(AuditEventsRepository, { strict: false }).chainHead(tenant.id))!;
      const bodies = await waitFor('a checkpoint of the head to be posted', () => {
        const delivered = collector.requests.filter((request) => request.answered === 200);
        const signsHead = (text: string) =>
          text.startsWith('{"checkpoint":') &&
          signedPayload(JSON.parse(text).checkpoint).tenantId === tenant.id &&
          signedPayload(JSON.parse(text).checkpoint).seq === head.seq;
        return delivered.some((request) => request.body.split('\n').some(signsHead)) && delivered;
      });
      // A checkpoint line sits in a signed batch like the events.
      const withCheckpoint = bodies.filter((request) => request.body.includes('{"checkpoint":'));
      for (const request of withCheckpoint)
        expect(
          signatureValid(request.headers['x-pipes-gateway-signature'], request.body, WEBHOOK_SECRET),
        ).toBe(true);

      const received = linesOf(
        bodies
          .map((request) => request.body)
          .join('')
          .split('\n')
          .filter(Boolean),
        [tenant.id],
      );
      const verdict = await verifyOffline(gateway, received);
      expect(verdict).toMatchObject({ status: 0 });
      expect(verdict.out).toContain(`ok  tenant ${tenant.id}: seq 1..${head.seq} (${head.seq} events)`);

      const tampered = await verifyOffline(gateway, tamperedWith(received, tenant.id, 3));
      expect(tampered.status).toBe(1);
      expect(tampered.out).toContain(`FAILED  tenant ${tenant.id}: seq 3 altered`);
    } finally {
      await gateway.close();
    }
  }, 120_000);

  it('prunes the signed checkpoints of pruned events once the sink has delivered them, and never one over a kept event', async () => {
    // A database of its own: the sink delivers, and retention prunes, every tenant's events.
    const database = await createScratchDatabase();
    const gateway = await startGateway({
      ...database.env,
      ...QUICK,
      AUDIT_RETENTION_DAYS: '30',
      AUDIT_WEBHOOK_URL: `${url}/ingest`,
      AUDIT_WEBHOOK_SECRET: WEBHOOK_SECRET,
    });
    const prisma = gateway.app.get(PrismaService, { strict: false });
    const retention = gateway.app.get(AuditRetentionService, { strict: false });
    // Every event has expired as of then: only the sink's needs and the newest event keep any.
    const farFuture = () => new Date(Date.now() + 1000 * 24 * 3_600_000);
    const chainStart = async (tenant: TestTenant) =>
      (await prisma.auditChain.findUniqueOrThrow({ where: { tenantId: tenant.id } })).startSeq;
    const signHead = async (tenant: TestTenant) =>
      (await gateway.http.get('/v1/audit/checkpoint').set(bearer(tenant.keys.auditor)).expect(200)).body
        .jws as string;
    const kept = (jws: string) => prisma.auditCheckpoint.findFirst({ where: { jws } });
    const delivered = async (jws: string) => {
      const sink = await prisma.auditSink.findUnique({ where: { sink: 'webhook' } });
      return sink !== null && sink.deliveredCheckpointId >= (await kept(jws))!.id;
    };
    try {
      const tenant = await createTenant(gateway);
      await auditedWrites(gateway, tenant, 'no-canary');
      await waitFor(
        'the sink to catch up',
        async () => (await sinkState(gateway, 'webhook')).eventsBehind === 0,
      );

      // The collector refuses everything: the checkpoint signed now waits for the sink.
      collector.answers.push(...Array<number>(10_000).fill(503));
      const waiting = await signHead(tenant);
      // Twice: the first keeps the newest event, the one the checkpoint signs; the second keeps only
      // the first the sink has not delivered (the first prune's own event).
      for (let run = 0; run < 2; run++) await retention.pruneExpired(farFuture());
      expect(await chainStart(tenant)).toBeGreaterThan(signedPayload(waiting).seq);
      expect(await kept(waiting)).not.toBeNull();

      // Delivered, it goes with the next run; one over an event still kept stays, delivered or not.
      collector.answers.length = 0;
      await waitFor('the checkpoint to be delivered', () => delivered(waiting));
      await waitFor(
        'the sink to catch up',
        async () => (await sinkState(gateway, 'webhook')).eventsBehind === 0,
      );
      const overKept = await signHead(tenant);
      await waitFor('the newer checkpoint to be delivered', () => delivered(overKept));
      await retention.pruneExpired(farFuture());
      expect(await kept(waiting)).toBeNull();
      expect(await chainStart(tenant)).toBe(signedPayload(overKept).seq);
      expect(await kept(overKept)).not.toBeNull();
    } finally {
      await gateway.close();
      await database.drop();
    }
  }, 120_000);

  itIf(Boolean(process.env.DATABASE_URL), NEEDS_POSTGRES)(
    'a replica killed mid-batch loses nothing: another takes over the lease and sends that batch again',
    async () => {
      const database = await createScratchDatabase();
      const sinkEnv = {
        ...QUICK,
        AUDIT_SINK_LEASE_MS: '2000',
        AUDIT_SINK_TIMEOUT_MS: '30000',
        AUDIT_WEBHOOK_URL: `${url}/ingest`,
        AUDIT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      };
      // Configured as the replica beside it (startGateway), its development keys in memory.
      const child = launch(
        'src/main.ts',
        [],
        testGatewayEnv({ LOG_LEVEL: 'warn', ...database.env, ...sinkEnv }),
      );
      const exited = finished(child);
      const sql = new Client({ connectionString: database.env.DATABASE_URL });
      let gateway: TestGateway | undefined;
      try {
        await sql.connect();
        // The child replica holds the webhook's lease before the other starts.
        const leaseHolder = () =>
          sql
            .query<{ lease_holder: string }>(`SELECT lease_holder FROM audit_sinks WHERE sink = 'webhook'`)
            .then((result) => result.rows[0]?.lease_holder)
            // Until the child has migrated the database, there is no such table.
            .catch(() => undefined);
        await waitFor(
          'the child to hold the lease',
          async () => (await leaseHolder())?.includes(`:${child.pid}:`),
          60_000,
        );
        gateway = await startGateway({ ...database.env, ...sinkEnv });
        // The child's first batch is taken and never answered: the child dies while it waits.
        collector.answers.push('hold');
        collector.onRequest = () => {
          if (collector.requests.length === 1) child.kill('SIGKILL');
        };
        const tenant = await createTenant(gateway);
        await auditedWrites(gateway, tenant, 'no-canary');
        await exited;
        const expected = await exportLines(gateway, tenant);
        const { lines, repeats } = await waitFor(
          'the other replica to deliver everything',
          () => {
            const result = firstOfEach(
              [
                ...collector.deliveries(),
                ...collector.requests
                  .filter((r) => r.answered === 'held')
                  .flatMap((r) =>
                    r.body
                      .split('\n')
                      .filter(Boolean)
                      .map((line) => ({ ...(JSON.parse(line) as { tenantId: string; seq: number }), line })),
                  ),
              ],
              tenant.id,
            );
            return result.lines.length >= expected.length && result;
          },
          30_000,
        );
        expect(lines).toEqual(expected);
        // The only repeats are the killed replica's batch, sent again whole.
        const killedBatch = collector.requests[0].body.split('\n').filter(Boolean);
        expect(repeats.map((each) => each.line)).toEqual(
          killedBatch.filter((line) => JSON.parse(line).tenantId === tenant.id),
        );
        const state = await sinkState(gateway, 'webhook');
        expect(state.shippedBy).toMatch(new RegExp(`:${process.pid}:`));
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        await sql.end();
        await gateway?.close();
        await database.drop();
      }
    },
    120_000,
  );
});
