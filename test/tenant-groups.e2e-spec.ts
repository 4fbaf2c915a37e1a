/**
 * Groups belong to tenants (docs/sign-in.md): the platform assigns the identity provider's groups
 * to tenants, a tenant's admin maps roles only to its own groups, and no tenant's mappings change
 * what another tenant's people can do. Real sign-ins against the sandbox's OIDC issuer.
 */
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../src/database/prisma.service';
import { startOidcIssuer, startPipesSimulator, type OidcIssuer, type PipesSimulator } from '../sandbox';
import { openStream } from './support/event-stream';
import {
  bearer,
  createTenant,
  platformAuth,
  storePipesCredential,
  type TestTenant,
} from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';

const NOT_ASSIGNED = /\/group-not-assigned$/;

describe('groups assigned to tenants (e2e)', () => {
  let issuer: OidcIssuer;
  let pipes: PipesSimulator;
  let gateway: TestGateway;
  let tenantA: TestTenant;
  let tenantB: TestTenant;
  // Group names are unique to this run: assignments are global.
  const run = randomUUID().slice(0, 8);
  const aOperators = `A-operators-${run}`;
  const pipesKey = { keyId: `keyid-${run}`, keySecret: `secret-${randomUUID()}` };

  const person = async (groups: string[], email = `person-${run}@example.com`) =>
    bearer(await issuer.mint({ email, groups }));
  const assign = (tenant: TestTenant, group: string) =>
    gateway.http.post(`/v1/admin/tenants/${tenant.id}/groups`).set(platformAuth).send({ group });
  const assignedGroups = async (tenant: TestTenant) =>
    (await gateway.http.get(`/v1/admin/tenants/${tenant.id}/groups?limit=200`).set(platformAuth).expect(200))
      .body.items as { id: string; group: string }[];
  const auditOf = async (tenant: TestTenant) =>
    (await gateway.http.get('/v1/audit?limit=200').set(bearer(tenant.keys.auditor)).expect(200)).body
      .items as { action: string; target: string; actor: string; details: Record<string, unknown> }[];

  beforeAll(async () => {
    issuer = await startOidcIssuer({ audience: 'pipes-gateway-test' });
    pipes = await startPipesSimulator({ keys: [pipesKey] });
    gateway = await startGateway({
      OIDC_ISSUER: issuer.url,
      OIDC_AUDIENCE: issuer.audience,
      PIPES_API_URL: pipes.url,
      PIPE_STREAM_RECHECK_MS: '1000',
      PIPE_STREAM_MAX_MS: '3600000',
    });
    tenantA = await createTenant(gateway);
    tenantB = await createTenant(gateway);
    await assign(tenantA, aOperators).expect(201);
    await gateway.http
      .post('/v1/group-mappings')
      .set(bearer(tenantA.keys.admin))
      .send({ group: aOperators, roles: ['operator'] })
      .expect(201);
  });
  afterAll(async () => {
    await gateway?.close();
    await pipes?.close();
    await issuer?.close();
  });

  describe("another tenant's admin", () => {
    const bAdmin = (caller: string) =>
      caller === 'key'
        ? Promise.resolve(bearer(tenantB.keys.admin))
        : person([`b-admins-${run}`], `b-admin-${run}@example.com`);
    beforeAll(async () => {
      await gateway.http
        .post(`/v1/admin/tenants/${tenantB.id}/group-mappings`)
        .set(platformAuth)
        .send({ group: `b-admins-${run}`, roles: ['admin'] })
        .expect(201);
    });

    it.each(['key', 'signed-in person'])(
      "cannot map A's group in B (B's admin by %s): 403 naming the rule; A's operator is unaffected",
      async (caller) => {
        const admin = await bAdmin(caller);
        const refused = await gateway.http
          .post('/v1/group-mappings')
          .set(admin)
          .send({ group: aOperators, roles: ['operator'] })
          .expect(403);
        expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(refused.body.type).toMatch(NOT_ASSIGNED);
        expect(refused.body.detail).toBe(
          `The group "${aOperators}" is not assigned to this tenant: a tenant maps roles only to its own ` +
            `groups, and the platform operator assigns them (POST /v1/admin/tenants/${tenantB.id}/groups).`,
        );
        // Whether another tenant has the group is not B's to know.
        expect(refused.text).not.toContain(tenantA.id);
        const mappingsOfB = await gateway.http.get('/v1/group-mappings').set(admin).expect(200);
        expect(mappingsOfB.body.items.map((item: { group: string }) => item.group)).not.toContain(aOperators);

        const operator = await person([aOperators]);
        await gateway.http.get('/v1/credentials').set(operator).expect(200);
        const me = await gateway.http.get('/v1/me').set(operator).expect(200);
        expect(me.body.tenants).toEqual([expect.objectContaining({ id: tenantA.id, name: tenantA.name })]);
      },
    );

    it('cannot map a group assigned to no tenant either (403)', async () => {
      const refused = await gateway.http
        .post('/v1/group-mappings')
        .set(bearer(tenantB.keys.admin))
        .send({ group: `nobody-s-${run}`, roles: ['viewer'] })
        .expect(403);
      expect(refused.body.type).toMatch(NOT_ASSIGNED);
      expect(await assignedGroups(tenantB)).not.toContainEqual(
        expect.objectContaining({ group: `nobody-s-${run}` }),
      );
    });

    it("gives A's people nothing through a mapping of A's group kept from before groups were assigned", async () => {
      // As the migration leaves a group two tenants had mapped: assigned to the first, inert in the other.
      const prisma = gateway.app.get(PrismaService);
      await prisma.groupMapping.create({
        data: {
          id: randomUUID(),
          tenantId: tenantB.id,
          group: aOperators,
          roles: ['admin'],
          createdBy: 'legacy',
        },
      });
      const operator = await person([aOperators], `inert-${run}@example.com`);
      await gateway.http.get('/v1/credentials').set(operator).expect(200);
      const me = await gateway.http.get('/v1/me').set(operator).expect(200);
      expect(me.body.tenants.map((tenant: { id: string }) => tenant.id)).toEqual([tenantA.id]);
      await gateway.http.get('/v1/credentials').set(operator).set('X-Tenant-Id', tenantB.id).expect(403);
    });
  });

  describe('the platform', () => {
    it('assigns a group (201 {id, group, createdAt}), lists it, and the admin then maps it', async () => {
      const group = `b-viewers-${run}`;
      const created = await assign(tenantB, group).expect(201);
      expect(Object.keys(created.body)).toEqual(['id', 'group', 'createdAt']);
      expect(created.body).toMatchObject({ id: expect.any(String), group });
      expect(await assignedGroups(tenantB)).toContainEqual(created.body);

      const mapped = await gateway.http
        .post('/v1/group-mappings')
        .set(bearer(tenantB.keys.admin))
        .send({ group, roles: ['viewer'] })
        .expect(201);
      const viewer = await person([group], `b-viewer-${run}@example.com`);
      await gateway.http.get('/v1/credentials').set(viewer).expect(200);

      const audit = await auditOf(tenantB);
      expect(audit).toContainEqual(
        expect.objectContaining({
          action: 'group.assign',
          target: `group:${created.body.id}`,
          actor: 'platform',
          details: expect.objectContaining({ group }),
        }),
      );
      expect(audit).toContainEqual(
        expect.objectContaining({
          action: 'group-mapping.create',
          target: `group-mapping:${mapped.body.id}`,
        }),
      );
    });

    it('assigns a group to one tenant at most: 409 naming the tenant that has it', async () => {
      const again = await assign(tenantA, aOperators).expect(409);
      expect(again.body.detail).toMatch(
        new RegExp(`already assigned to this tenant \\(assignment [0-9a-f-]{36}\\)`),
      );
      const elsewhere = await assign(tenantB, aOperators).expect(409);
      expect(elsewhere.body).toMatchObject({
        type: expect.stringMatching(/\/conflict$/),
        tenantId: tenantA.id,
      });
      expect(elsewhere.body.detail).toContain(`assigned to tenant ${tenantA.id}`);
      // Its mapping route too: it maps a free group (assigning it), never another tenant's.
      const mapped = await gateway.http
        .post(`/v1/admin/tenants/${tenantB.id}/group-mappings`)
        .set(platformAuth)
        .send({ group: aOperators, roles: ['viewer'] })
        .expect(409);
      expect(mapped.body.tenantId).toBe(tenantA.id);
      await assign({ ...tenantA, id: randomUUID() }, `lost-${run}`).expect(404);
    });

    it('assigns a free group when it maps it, audited as group.assign', async () => {
      const group = `b-implicit-${run}`;
      await gateway.http
        .post(`/v1/admin/tenants/${tenantB.id}/group-mappings`)
        .set(platformAuth)
        .send({ group, roles: ['viewer'] })
        .expect(201);
      const assignment = (await assignedGroups(tenantB)).find((item) => item.group === group);
      expect(assignment).toBeDefined();
      expect(await auditOf(tenantB)).toContainEqual(
        expect.objectContaining({ action: 'group.assign', target: `group:${assignment!.id}` }),
      );
    });

    it("unassigns a group: the tenant's mapping goes with it, and a member's open stream ends", async () => {
      const group = `b-leaving-${run}`;
      const assignment = (await assign(tenantB, group).expect(201)).body;
      const mapping = (
        await gateway.http
          .post('/v1/group-mappings')
          .set(bearer(tenantB.keys.admin))
          .send({ group, roles: ['viewer'] })
          .expect(201)
      ).body;
      const organizationId = randomUUID();
      await storePipesCredential(gateway, tenantB, organizationId, pipesKey);
      const member = await person([group], `leaving-${run}@example.com`);
      await gateway.http.get('/v1/credentials').set(member).expect(200);
      const stream = await openStream(
        gateway.url,
        `/v1/organizations/${organizationId}/services/${randomUUID()}/pipes/events`,
        member,
      );
      try {
        expect(stream.status).toBe(200);
        await gateway.http
          .delete(`/v1/admin/tenants/${tenantB.id}/groups/${assignment.id}`)
          .set(platformAuth)
          .expect(204);
        const end = await stream.next((event) => event.event === 'stream.end', 6_000);
        expect(end.data).toEqual({ reason: 'role-withdrawn' });
      } finally {
        stream.close();
      }
      const refused = await gateway.http.get('/v1/credentials').set(member).expect(403);
      expect(refused.body.detail).toMatch(/none of your groups is mapped/);
      const mappings = await gateway.http.get('/v1/group-mappings?limit=200').set(bearer(tenantB.keys.admin));
      expect(mappings.body.items.map((item: { id: string }) => item.id)).not.toContain(mapping.id);
      expect(await assignedGroups(tenantB)).not.toContainEqual(expect.objectContaining({ group }));
      const audit = await auditOf(tenantB);
      expect(audit).toContainEqual(
        expect.objectContaining({
          action: 'group.unassign',
          target: `group:${assignment.id}`,
          actor: 'platform',
        }),
      );
      expect(audit).toContainEqual(
        expect.objectContaining({ action: 'group-mapping.delete', target: `group-mapping:${mapping.id}` }),
      );
      // Gone: in this tenant, and never reachable through another.
      await gateway.http
        .delete(`/v1/admin/tenants/${tenantB.id}/groups/${assignment.id}`)
        .set(platformAuth)
        .expect(404);
      const [ofA] = await assignedGroups(tenantA);
      await gateway.http
        .delete(`/v1/admin/tenants/${tenantB.id}/groups/${ofA.id}`)
        .set(platformAuth)
        .expect(404);
    });

    it('lists assignments oldest first in keyset pages', async () => {
      const tenant = await createTenant(gateway);
      const groups = [`page-1-${run}`, `page-2-${run}`, `page-3-${run}`];
      for (const group of groups) await assign(tenant, group).expect(201);
      const first = await gateway.http
        .get(`/v1/admin/tenants/${tenant.id}/groups?limit=2`)
        .set(platformAuth)
        .expect(200);
      expect(first.body.items.map((item: { group: string }) => item.group)).toEqual(groups.slice(0, 2));
      const rest = await gateway.http
        .get(`/v1/admin/tenants/${tenant.id}/groups`)
        .query({ limit: 2, cursor: first.body.nextCursor })
        .set(platformAuth)
        .expect(200);
      expect(rest.body).toEqual({ items: [expect.objectContaining({ group: groups[2] })], nextCursor: null });
    });
  });

  describe('bad input', () => {
    it.each([
      [{}, 'group', 'is required'],
      [{ group: '' }, 'group', 'must not be empty'],
      [{ group: 'x'.repeat(257) }, 'group', 'must be at most 256 characters long'],
      [
        { group: 'a\u202eb' },
        'group',
        'must not contain control, bidirectional-override or invisible characters',
      ],
      [
        { group: `pgw_AbCdEfGhIjKl_${'x'.repeat(43)}` },
        'group',
        'must not hold a secret (it looks like a gateway key)',
      ],
      [{ group: 'g', roles: ['admin'] }, 'roles', 'is not a known field'],
    ])('refuses an assignment of %j with 400 naming the field', async (body, path, message) => {
      const response = await gateway.http
        .post(`/v1/admin/tenants/${tenantB.id}/groups`)
        .set(platformAuth)
        .send(body)
        .expect(400);
      expect(response.body.errors).toEqual([{ path, message }]);
    });

    it('refuses a tenant or assignment id that is not a UUID, and a bad cursor, with 400', async () => {
      await gateway.http
        .post('/v1/admin/tenants/tenant-b/groups')
        .set(platformAuth)
        .send({ group: 'g' })
        .expect(400);
      await gateway.http.delete(`/v1/admin/tenants/${tenantB.id}/groups/g`).set(platformAuth).expect(400);
      await gateway.http
        .get(`/v1/admin/tenants/${tenantB.id}/groups?cursor=nope`)
        .set(platformAuth)
        .expect(400);
      await gateway.http.get(`/v1/admin/tenants/${tenantB.id}/groups?limit=0`).set(platformAuth).expect(400);
    });
  });
});
