/**
 * Text callers write that the gateway keeps and shows again: X-On-Behalf-Of and the names of
 * tenants, keys, credentials and group mappings. A gateway key (or another secret) planted there
 * is refused before anything is written, so no answer, log line, audit event, export, key's
 * createdBy or database row ever holds it; text that would read as something else is refused too.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { PrismaService } from '../../src/database/prisma.service';
import { bearer, createTenant, platformAuth, type TestTenant } from '../support/fixtures';
import { startGateway, type TestGateway } from '../support/gateway';

/** A header value as a client sends it: UTF-8 bytes, which Node's client writes one byte per char. */
const onTheWire = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('text callers write: X-On-Behalf-Of and names (e2e)', () => {
  let gateway: TestGateway;
  let tenant: TestTenant;
  let planted: [string, string][];

  beforeAll(async () => {
    gateway = await startGateway();
    tenant = await createTenant(gateway);
    const jwt = [{ alg: 'RS256' }, { sub: 'alice' }].map((part) =>
      Buffer.from(JSON.stringify(part)).toString('base64url'),
    );
    planted = [
      ['a live gateway key', tenant.keys.viewer],
      ['a JWT', `${jwt.join('.')}.${randomBytes(32).toString('base64url')}`],
      ['a Bearer value', `Bearer ${randomBytes(16).toString('hex')}`],
      ['a Basic value', `Basic ${Buffer.from(`alice:${randomUUID()}`).toString('base64')}`],
      ['a URL with a password', `https://alice:${randomUUID()}@db.example.com/orders`],
      ['a long random token', randomBytes(32).toString('base64url')],
    ];
  });
  afterAll(() => gateway?.close());

  const HEADER_CALLS: [
    string,
    (headers: Record<string, string>) => Promise<{ status: number; text: string; body: any }>,
  ][] = [
    [
      'a key issued by an admin',
      (headers) =>
        gateway.http
          .post('/v1/keys')
          .set(headers)
          .send({ name: 'k', roles: ['viewer'] })
          .then((r) => r),
    ],
    [
      'a read',
      (headers) =>
        gateway.http
          .get('/v1/credentials')
          .set(headers)
          .then((r) => r),
    ],
    [
      'a tenant made by the platform',
      (headers) =>
        gateway.http
          .post('/v1/admin/tenants')
          .set({ ...headers, ...platformAuth })
          .send({ name: `t-${randomUUID().slice(0, 8)}` })
          .then((r) => r),
    ],
  ];

  it('refuses each secret shape in X-On-Behalf-Of with 400, before anything is written', async () => {
    for (const [what, secret] of planted) {
      for (const [call, send] of HEADER_CALLS) {
        const response = await send({ ...bearer(tenant.keys.admin), 'X-On-Behalf-Of': secret });
        expect([what, call, response.status]).toEqual([what, call, 400]);
        expect(response.body.errors).toEqual([
          {
            path: 'header:X-On-Behalf-Of',
            message: expect.stringMatching(/^must not hold a secret \(it looks like /),
          },
        ]);
        expect(response.text).not.toContain(secret);
      }
    }
  });

  it.each([
    ['a right-to-left override', 'alice\u202e@example.com'],
    ['a zero-width space', 'al\u200bice@example.com'],
    ['a zero-width joiner', 'ali\u200dce'],
    ['a left-to-right isolate', '\u2066alice'],
    ['a byte order mark', '\ufeffalice'],
  ])('refuses X-On-Behalf-Of with %s', async (_what, text) => {
    const response = await gateway.http
      .get('/v1/credentials')
      .set(bearer(tenant.keys.viewer))
      .set('X-On-Behalf-Of', onTheWire(text))
      .expect(400);
    expect(response.body.errors).toEqual([
      {
        path: 'header:X-On-Behalf-Of',
        message: 'must not contain control, bidirectional-override or invisible characters',
      },
    ]);
  });

  it('refuses each secret shape, and invisible text, in every name people give things', async () => {
    const admin = bearer(tenant.keys.admin);
    const NAMES: [string, string, (value: string) => Promise<{ status: number; text: string; body: any }>][] =
      [
        [
          'tenant',
          'name',
          (name) =>
            gateway.http
              .post('/v1/admin/tenants')
              .set(platformAuth)
              .send({ name })
              .then((r) => r),
        ],
        [
          'key',
          'name',
          (name) =>
            gateway.http
              .post('/v1/keys')
              .set(admin)
              .send({ name, roles: ['viewer'] })
              .then((r) => r),
        ],
        [
          'key issued by the platform',
          'name',
          (name) =>
            gateway.http
              .post(`/v1/admin/tenants/${tenant.id}/keys`)
              .set(platformAuth)
              .send({ name, roles: ['viewer'] })
              .then((r) => r),
        ],
        [
          'credential',
          'name',
          (name) =>
            gateway.http
              .post('/v1/credentials')
              .set(admin)
              .send({ kind: 'dashboards', name, token: `t-${randomUUID()}` })
              .then((r) => r),
        ],
        [
          'group mapping',
          'group',
          (group) =>
            gateway.http
              .post('/v1/group-mappings')
              .set(admin)
              .send({ group, roles: ['viewer'] })
              .then((r) => r),
        ],
      ];
    // Tenant names allow only letters, digits, ".", "_" and "-": a gateway key fits, so it is planted too.
    const values = [...planted.map(([, secret]) => secret), 'pay\u202ements', 'pay\u200bments'];
    for (const [thing, field, create] of NAMES) {
      for (const value of values) {
        const response = await create(value);
        expect([thing, value.slice(0, 12), response.status]).toEqual([thing, value.slice(0, 12), 400]);
        expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(field);
        expect(response.text).not.toContain(value);
      }
    }
  });

  it('keeps none of it: audit log, export, keys, logs and every database row are searched', async () => {
    // A person named plainly is recorded, so the searches below would find what they look for.
    const person = `alice-${randomUUID().slice(0, 8)}@example.com`;
    const issued = await gateway.http
      .post('/v1/keys')
      .set({ ...bearer(tenant.keys.admin), 'X-On-Behalf-Of': person })
      .send({ name: 'for alice', roles: ['viewer'] })
      .expect(201);
    expect(issued.body.createdBy).toBe(`key:${tenant.keyIds.admin} for ${person}`);

    const auditor = bearer(tenant.keys.auditor);
    const audit = (await gateway.http.get('/v1/audit?limit=200').set(auditor).expect(200)).text;
    const exported = (await gateway.http.get('/v1/audit/export').set(auditor).expect(200)).text;
    const keys = (await gateway.http.get('/v1/keys?limit=200').set(bearer(tenant.keys.admin)).expect(200))
      .text;
    const prisma = gateway.app.get(PrismaService);
    const TABLES = [
      'tenants',
      'gateway_keys',
      'credentials',
      'group_mappings',
      'audit_events',
      'audit_chains',
      'pipe_spec_records',
    ];
    const asText = (tables: unknown[]) =>
      JSON.stringify(tables, (_key, value: unknown) =>
        value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : value,
      );
    // Every row of the run is searched for the planted secrets; other suites share the database and
    // may store invisible characters of their own, so that search covers only this tenant's rows.
    const rows = asText(
      await Promise.all(TABLES.map((table) => prisma.$queryRawUnsafe(`SELECT * FROM ${table}`))),
    );
    const tenantRows = asText(
      await Promise.all(
        TABLES.map((table) =>
          prisma.$queryRawUnsafe(
            `SELECT * FROM ${table} WHERE ${table === 'tenants' ? 'id' : 'tenant_id'} = $1::uuid`,
            tenant.id,
          ),
        ),
      ),
    );
    for (const text of [audit, exported, keys, rows, tenantRows]) expect(text).toContain(person);

    const places = { audit, exported, keys, rows, logs: gateway.logs.text() };
    for (const [what, secret] of planted) {
      for (const [place, text] of Object.entries(places)) {
        expect([what, place, text.includes(secret)]).toEqual([what, place, false]);
      }
    }
    const ownPlaces = { audit, exported, keys, tenantRows, logs: gateway.logs.text() };
    for (const [place, text] of Object.entries(ownPlaces)) {
      expect([place, /[\u200b\u202e]/.test(text)]).toEqual([place, false]);
    }
  });
});
