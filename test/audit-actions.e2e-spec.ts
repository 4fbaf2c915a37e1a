/**
 * The audit action catalogue as frontends get it (GET /v1/audit/actions), and the action filter's
 * prefixes (`credential.`) that the catalogue expands, on the list and the export alike.
 */
import Ajv from 'ajv';
import { randomUUID } from 'node:crypto';
import { AUDIT_ACTIONS } from '../src/audit/audit-actions';
import { bearer, createTenant, type TestTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';

describe('audit actions (e2e)', () => {
  let gateway: TestGateway;
  let tenant: TestTenant;

  beforeAll(async () => {
    gateway = await startGateway();
    tenant = await createTenant(gateway);
    // One of each credential action a tenant admin makes, and a key revoked: other subjects.
    const created = await gateway.http
      .post('/v1/credentials')
      .set(bearer(tenant.keys.admin))
      .send({ kind: 'dashboards', name: 'main', token: 'tok-1' })
      .expect(201);
    await gateway.http
      .post(`/v1/credentials/${created.body.id}/rotate`)
      .set(bearer(tenant.keys.admin))
      .send({ token: 'tok-2' })
      .expect(200);
    await gateway.http
      .delete(`/v1/credentials/${created.body.id}`)
      .set(bearer(tenant.keys.admin))
      .expect(204);
    await gateway.http.delete(`/v1/keys/${tenant.keyIds.viewer}`).set(bearer(tenant.keys.admin)).expect(200);
  });
  afterAll(() => gateway.close());

  const actionsOf = async (action: string): Promise<string[]> => {
    const page = await gateway.http
      .get('/v1/audit')
      .set(bearer(tenant.keys.auditor))
      .query({ action, limit: '200' })
      .expect(200);
    return page.body.items.map((item: { action: string }) => item.action);
  };

  it('answers every action of the catalogue with its meaning, target kind and whether it waits on an upstream', async () => {
    const answer = await gateway.http.get('/v1/audit/actions').set(bearer(tenant.keys.auditor)).expect(200);
    expect(answer.body.items).toEqual(
      Object.entries(AUDIT_ACTIONS).map(([action, info]) => ({ action, ...info })),
    );
    expect(answer.body.items).toContainEqual({
      action: 'credential.rotate',
      meaning: "A credential's value was replaced by a new version.",
      target: 'credential',
      upstream: false,
    });
    expect(answer.body.items.find((item: { action: string }) => item.action === 'pipe.create')).toMatchObject(
      {
        target: 'pipe-spec',
        upstream: true,
      },
    );
    expect(
      answer.body.items.find((item: { action: string }) => item.action === 'vault.value-echo'),
    ).toMatchObject({ target: null });
  });

  it('answers as its OpenAPI schema says, and the event list names actions the schema lists', async () => {
    const document = (await gateway.http.get('/docs-json').expect(200)).body;
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    const fits = (component: string, body: unknown) => {
      const check = ajv.compile({
        $ref: `#/components/schemas/${component}`,
        components: document.components,
      });
      return check(body) ? [] : check.errors;
    };
    const actions = await gateway.http.get('/v1/audit/actions').set(bearer(tenant.keys.auditor)).expect(200);
    expect(fits('AuditActionListView', actions.body)).toEqual([]);
    const events = await gateway.http.get('/v1/audit').set(bearer(tenant.keys.auditor)).expect(200);
    expect(events.body.items.length).toBeGreaterThan(0);
    expect(fits('AuditEventListView', events.body)).toEqual([]);
    // A name outside the catalogue does not fit: the schema really lists them.
    const outside = { ...events.body, items: [{ ...events.body.items[0], action: 'made.up' }] };
    expect(fits('AuditEventListView', outside)).not.toEqual([]);
  });

  it('is the auditors’, like the log', async () => {
    await gateway.http.get('/v1/audit/actions').set(bearer(tenant.keys.admin)).expect(403);
    await gateway.http.get('/v1/audit/actions').expect(401);
  });

  it('filters by an exact action, or with a trailing dot by every action that starts with it', async () => {
    expect(await actionsOf('credential.rotate')).toEqual(['credential.rotate']);
    expect(await actionsOf('credential.')).toEqual([
      'credential.delete',
      'credential.rotate',
      'credential.create',
    ]);
    expect(await actionsOf('key.')).toEqual(['key.revoke', ...Array(4).fill('key.create')]);
    // A prefix is whole segments: `key.` is not `key-` and matches no `group-mapping.`.
    expect(await actionsOf('group-mapping.')).toEqual([]);
    expect(await actionsOf('nothing.')).toEqual([]);
    expect(await actionsOf('nothing.here')).toEqual([]);
  });

  it('filters the export by a prefix too', async () => {
    const exported = await gateway.http
      .get('/v1/audit/export')
      .set(bearer(tenant.keys.auditor))
      .query({ action: 'credential.' })
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => done(null, text));
      })
      .expect(200);
    const lines = (exported.body as string)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action?: string; checkpoint?: string });
    expect(lines.filter((line) => line.checkpoint === undefined).map((line) => line.action)).toEqual([
      'credential.create',
      'credential.rotate',
      'credential.delete',
    ]);
  });

  it.each([
    ['credential', 'no dot'],
    ['credential..', 'an empty segment'],
    ['.credential', 'a leading dot'],
    ['Credential.', 'upper case'],
    ['credential.%', 'a LIKE wildcard'],
    ['credential._', 'a LIKE wildcard'],
  ])('refuses the action filter %p (%s) with a 400 naming the field', async (action) => {
    const answer = await gateway.http
      .get('/v1/audit')
      .set(bearer(tenant.keys.auditor))
      .query({ action })
      .expect(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.body.errors).toEqual([
      {
        path: 'action',
        message:
          'must be a dotted lower-case name such as credential.rotate, or a prefix such as credential.',
      },
    ]);
  });

  it("keeps another tenant's events out of a prefix's matches", async () => {
    const other = await createTenant(gateway, `other-${randomUUID().slice(0, 8)}`);
    await gateway.http
      .post('/v1/credentials')
      .set(bearer(other.keys.admin))
      .send({ kind: 'dashboards', name: 'theirs', token: 'tok-3' })
      .expect(201);
    expect(await actionsOf('credential.')).toEqual([
      'credential.delete',
      'credential.rotate',
      'credential.create',
    ]);
  });
});
