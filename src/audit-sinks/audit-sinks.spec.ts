import { createHmac } from 'node:crypto';
import { ConfigError, loadConfig } from '../config/app-config';
import { allot, readyCheckpoints } from './sink-shipper';
import { octetCounted, syslogMessage } from './syslog-transport';
import { webhookSignature, WebhookTransport } from './webhook-transport';

const SECRET = 'whsec-0123456789abcdef0123456789abcdef';
const record = {
  kind: 'event' as const,
  tenantId: '3f1e2d4c-0000-4000-8000-000000000000',
  seq: 7,
  at: new Date('2026-01-02T03:04:05.678Z'),
  line: '{"seq":7,"action":"credential.create","note":"é"}',
};

describe('syslog messages', () => {
  it('are RFC 5424 with the tenant and seq as structured data and the line as the message', () => {
    expect(syslogMessage(record, 'gw-1')).toBe(
      '<110>1 2026-01-02T03:04:05.678Z gw-1 pipes-gateway - audit ' +
        `[audit@32473 tenantId="${record.tenantId}" seq="7"] ${record.line}`,
    );
  });

  it('carry a checkpoint under MSGID checkpoint, with its tenant and the seq it signs', () => {
    const line = '{"checkpoint":"eyJh.eyJ0.c2ln"}';
    expect(syslogMessage({ ...record, kind: 'checkpoint', line }, 'gw-1')).toBe(
      '<110>1 2026-01-02T03:04:05.678Z gw-1 pipes-gateway - checkpoint ' +
        `[checkpoint@32473 tenantId="${record.tenantId}" seq="7"] ${line}`,
    );
  });

  it('are framed by their length in bytes, not characters', () => {
    const framed = octetCounted(['é1', 'abc', '']);
    expect(framed.toString('utf8')).toBe('3 é13 abc0 ');
    expect(framed.length).toBe(Buffer.byteLength('3 é13 abc0 '));
  });
});

describe('webhook signatures', () => {
  it('are t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const body = `${record.line}\n`;
    const expected = createHmac('sha256', SECRET).update(`1700000000.${body}`).digest('hex');
    expect(webhookSignature(SECRET, 1700000000, body)).toBe(`t=1700000000,v1=${expected}`);
    expect(webhookSignature(SECRET, 1700000000, Buffer.from(body))).toBe(`t=1700000000,v1=${expected}`);
  });

  it('show an address without user-info or query', () => {
    const transport = new WebhookTransport('https://u:p@collector.example:8443/in?token=t0p', SECRET, 1000);
    expect(transport.address).toBe('https://collector.example:8443/in');
  });
});

describe('a batch', () => {
  it('gives each tenant with a backlog its turn, in seq order, up to the batch size', () => {
    const backlog = [
      { tenantId: 'a', after: 10, lastSeq: 100 },
      { tenantId: 'b', after: 0, lastSeq: 1 },
      { tenantId: 'c', after: 5, lastSeq: 50 },
    ];
    expect(allot(backlog, 6)).toEqual([
      { tenantId: 'a', after: 10, through: 13 },
      { tenantId: 'b', after: 0, through: 1 },
      { tenantId: 'c', after: 5, through: 7 },
    ]);
  });
});

describe('checkpoints in a batch', () => {
  const checkpoint = (id: number, tenantId: string, seq: number, deliveredThrough: number) => ({
    id: BigInt(id),
    tenantId,
    seq,
    at: new Date(0),
    jws: `jws-${id}`,
    deliveredThrough,
  });

  it('go once the sink has, or the batch brings, the events they sign; the first that waits holds back the rest', () => {
    const pending = [
      checkpoint(1, 'a', 3, 3),
      checkpoint(2, 'b', 5, 2),
      checkpoint(3, 'a', 9, 3),
      checkpoint(4, 'b', 6, 2),
    ];
    expect(readyCheckpoints(pending, new Map()).map((each) => each.id)).toEqual([1n]);
    expect(readyCheckpoints(pending, new Map([['b', 5]])).map((each) => each.id)).toEqual([1n, 2n]);
    expect(
      readyCheckpoints(
        pending,
        new Map([
          ['a', 9],
          ['b', 6],
        ]),
      ).map((each) => each.id),
    ).toEqual([1n, 2n, 3n, 4n]);
  });
});

describe('audit sink settings', () => {
  const load = (env: Record<string, string>) => () => loadConfig(env);

  it('are off unless a sink URL is set', () => {
    expect(loadConfig({}).auditSinks).toMatchObject({ syslog: null, webhook: null, batchSize: 500 });
  });

  it.each([
    ['AUDIT_SYSLOG_URL', { AUDIT_SYSLOG_URL: 'udp://siem:514' }],
    ['AUDIT_SYSLOG_URL', { AUDIT_SYSLOG_URL: 'tcp://siem' }],
    ['AUDIT_SYSLOG_CA', { AUDIT_SYSLOG_URL: 'tls://siem:6514', AUDIT_SYSLOG_CA: '/no/such/ca.pem' }],
    [
      'AUDIT_SYSLOG_CA',
      { AUDIT_SYSLOG_URL: 'tls://siem:6514', AUDIT_SYSLOG_CA: '-----BEGIN CERTIFICATE-----\nno\n' },
    ],
    ['AUDIT_WEBHOOK_SECRET', { AUDIT_WEBHOOK_URL: 'https://collector.example/in' }],
    [
      'AUDIT_WEBHOOK_SECRET',
      { AUDIT_WEBHOOK_URL: 'https://collector.example/in', AUDIT_WEBHOOK_SECRET: 'short' },
    ],
    ['AUDIT_WEBHOOK_SECRET', { AUDIT_WEBHOOK_SECRET: SECRET }],
    [
      'AUDIT_WEBHOOK_URL',
      {
        NODE_ENV: 'production',
        AUDIT_WEBHOOK_URL: 'http://collector.example/in',
        AUDIT_WEBHOOK_SECRET: SECRET,
      },
    ],
  ])('refuse a bad %s, naming it', (variable, env) => {
    expect(load(env)).toThrow(ConfigError);
    expect(load(env)).toThrow(new RegExp(`^${variable} `));
  });

  it('take plain http to loopback in production, and never repeat the URL in an error', () => {
    const production = { NODE_ENV: 'production', AUDIT_WEBHOOK_SECRET: SECRET };
    expect(
      loadConfig({ ...production, AUDIT_WEBHOOK_URL: 'http://127.0.0.1:9000/in' }).auditSinks.webhook,
    ).toEqual({ url: 'http://127.0.0.1:9000/in', secret: SECRET });
    expect(load({ ...production, AUDIT_WEBHOOK_URL: 'http://u:pa55word@collector.example/in' })).toThrow(
      /^(?!.*pa55word)/s,
    );
  });
});
