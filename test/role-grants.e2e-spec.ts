/**
 * Nobody grants a role they do not hold: a key or a signed-in person issues keys and maps groups
 * only with roles it holds itself (an admin holds operator and viewer too, never auditor); the
 * platform token grants any.
 */
import { randomUUID } from 'node:crypto';
import type { Role } from '../src/auth/roles';
import { startOidcIssuer, type OidcIssuer } from '../sandbox';
import { bearer, createTenant, platformAuth, type TestTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';

describe('granting roles (e2e)', () => {
  let issuer: OidcIssuer;
  let gateway: TestGateway;
  let tenant: TestTenant;
  /** A key holding admin and auditor. */
  let adminAuditorKey: string;
  const run = randomUUID().slice(0, 8);
  const groups = { admins: `admins-${run}`, adminAuditors: `admin-auditors-${run}` };

  beforeAll(async () => {
    issuer = await startOidcIssuer({ audience: 'pipes-gateway-test' });
    gateway = await startGateway({ OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: issuer.audience });
    tenant = await createTenant(gateway);
    const key = await gateway.http
      .post(`/v1/admin/tenants/${tenant.id}/keys`)
      .set(platformAuth)
      .send({ name: 'admin and auditor', roles: ['admin', 'auditor'] })
      .expect(201);
    adminAuditorKey = key.body.key;
    for (const [group, roles] of [
      [groups.admins, ['admin']],
      [groups.adminAuditors, ['admin', 'auditor']],
    ] as const) {
      await gateway.http
        .post(`/v1/admin/tenants/${tenant.id}/group-mappings`)
        .set(platformAuth)
        .send({ group, roles })
        .expect(201);
    }
  });
  afterAll(async () => {
    await gateway?.close();
    await issuer?.close();
  });

  const person = async (group: string) =>
    bearer(await issuer.mint({ email: `${group}@example.com`, groups: [group] }));
  const callers: [
    string,
    () => Promise<{ Authorization: string }>,
    () => Promise<{ Authorization: string }>,
  ][] = [
    [
      'a key',
      () => Promise.resolve(bearer(tenant.keys.admin)),
      () => Promise.resolve(bearer(adminAuditorKey)),
    ],
    ['a signed-in person', () => person(groups.admins), () => person(groups.adminAuditors)],
  ];
  const issueKey = (auth: { Authorization: string }, roles: Role[]) =>
    gateway.http
      .post('/v1/keys')
      .set(auth)
      .send({ name: `granted-${randomUUID().slice(0, 8)}`, roles });
  /** Maps a group the platform assigned to the tenant first: a tenant maps only its own groups. */
  const mapGroup = async (auth: { Authorization: string }, roles: Role[]) => {
    const group = `granted-${randomUUID()}`;
    await gateway.http
      .post(`/v1/admin/tenants/${tenant.id}/groups`)
      .set(platformAuth)
      .send({ group })
      .expect(201);
    return gateway.http.post('/v1/group-mappings').set(auth).send({ group, roles });
  };

  describe.each(callers)('%s holding admin only', (_caller, adminOnly) => {
    it.each([
      ['issue a key', issueKey],
      ['map a group', mapGroup],
    ])('cannot %s with auditor (403 naming it), and nothing is made', async (_what, grant) => {
      const auth = await adminOnly();
      const keysBefore = await gateway.http.get('/v1/keys?limit=200').set(auth).expect(200);
      const mappingsBefore = await gateway.http.get('/v1/group-mappings?limit=200').set(auth).expect(200);
      for (const roles of [['auditor'], ['viewer', 'auditor']] as Role[][]) {
        const refused = await grant(auth, roles);
        expect(refused.status).toBe(403);
        expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(refused.body.type).toMatch(/\/forbidden$/);
        expect(refused.body.detail).toMatch(/\(admin\) do not include auditor: only roles the caller holds/);
      }
      const keysAfter = await gateway.http.get('/v1/keys?limit=200').set(auth).expect(200);
      const mappingsAfter = await gateway.http.get('/v1/group-mappings?limit=200').set(auth).expect(200);
      expect(keysAfter.body.items).toEqual(keysBefore.body.items);
      expect(mappingsAfter.body.items).toEqual(mappingsBefore.body.items);
    });

    it.each([
      ['issue a key', issueKey],
      ['map a group', mapGroup],
    ])('can %s with admin and the roles admin holds too (operator, viewer)', async (_what, grant) => {
      const auth = await adminOnly();
      for (const roles of [
        ['admin'],
        ['operator'],
        ['viewer'],
        ['admin', 'operator', 'viewer'],
      ] as Role[][]) {
        const granted = await grant(auth, roles);
        expect(granted.status).toBe(201);
        expect(granted.body.roles).toEqual(roles);
      }
    });
  });

  describe.each(callers)('%s holding admin and auditor', (_caller, _adminOnly, adminAuditor) => {
    it('can issue a key with auditor, which reads the audit log', async () => {
      const granted = await issueKey(await adminAuditor(), ['auditor']).expect(201);
      await gateway.http.get('/v1/audit').set(bearer(granted.body.key)).expect(200);
    });

    it('can map a group to auditor', async () => {
      expect((await mapGroup(await adminAuditor(), ['admin', 'auditor'])).status).toBe(201);
    });
  });

  it('a key holding admin only cannot reach the audit log by a key it issues', async () => {
    await gateway.http.get('/v1/audit').set(bearer(tenant.keys.admin)).expect(403);
    await issueKey(bearer(tenant.keys.admin), ['auditor']).expect(403);
  });

  it('a key issued with delegate: false issues only keys that may not act for people either', async () => {
    const restricted = await gateway.http
      .post(`/v1/admin/tenants/${tenant.id}/keys`)
      .set(platformAuth)
      .send({ name: 'no delegation', roles: ['admin'], delegate: false })
      .expect(201);
    const auth = bearer(restricted.body.key);
    for (const body of [{}, { delegate: true }]) {
      const refused = await gateway.http
        .post('/v1/keys')
        .set(auth)
        .send({ name: `granted-${randomUUID().slice(0, 8)}`, roles: ['viewer'], ...body })
        .expect(403);
      expect(refused.body.detail).toMatch(/issued with delegate: false.*send delegate: false/);
    }
    const granted = await gateway.http
      .post('/v1/keys')
      .set(auth)
      .send({ name: `granted-${randomUUID().slice(0, 8)}`, roles: ['viewer'], delegate: false })
      .expect(201);
    expect(granted.body.delegate).toBe(false);
    // A person and a delegating key may still issue delegating keys.
    await issueKey(bearer(tenant.keys.admin), ['viewer']).expect(201);
    await issueKey(await person(groups.admins), ['viewer']).expect(201);
  });

  it('the platform token grants any role, to keys and to groups', async () => {
    const key = await gateway.http
      .post(`/v1/admin/tenants/${tenant.id}/keys`)
      .set(platformAuth)
      .send({ name: 'platform-made', roles: ['auditor'] })
      .expect(201);
    await gateway.http.get('/v1/audit').set(bearer(key.body.key)).expect(200);
    await gateway.http
      .post(`/v1/admin/tenants/${tenant.id}/group-mappings`)
      .set(platformAuth)
      .send({ group: `platform-made-${run}`, roles: ['admin', 'operator', 'viewer', 'auditor'] })
      .expect(201);
  });
});
