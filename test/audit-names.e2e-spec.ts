/**
 * The audit log as people search it: names beside the ids events hold (keys, people, credentials,
 * pipes, dashboards), an actor filter given as an address or a key's name, the actors and targets
 * a filter may choose from, and a failed upstream write's reason, scrubbed of secrets.
 */
import { randomUUID } from 'node:crypto';
import { startOidcIssuer, type OidcIssuer } from '../sandbox';
import { validCreateBody } from './fixtures/pipe-bodies';
import { bearer, platformAuth } from './support/fixtures';
import { canaryOf, startUpstreamWorld, type UpstreamWorld } from './support/upstreams';

interface Event {
  seq: number;
  actor: string;
  action: string;
  target: string | null;
  outcome: string;
  requestId: string;
  details: Record<string, unknown> | null;
}
interface EventList {
  items: Event[];
  nextCursor: string | null;
  names: Record<string, string>;
  actorsLookedFor?: string[];
}

describe('audit names and filters (e2e)', () => {
  let issuer: OidcIssuer;
  let world: UpstreamWorld;
  let canary: string;
  let pipeId: string;
  let historyId: string;
  let dashboardId: string;
  let secretId: string;
  let deletedSecretId: string;
  const email = `dana-${randomUUID().slice(0, 8)}@example.com`;

  const auditor = () => bearer(world.tenant.keys.auditor);
  const pipesPath = (suffix = '') =>
    `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes${suffix}`;
  const list = async (query: Record<string, string> = {}): Promise<EventList> =>
    (
      await world.gateway.http
        .get('/v1/audit')
        .set(auditor())
        .query({ limit: '200', ...query })
        .expect(200)
    ).body;

  beforeAll(async () => {
    issuer = await startOidcIssuer({ audience: 'pipes-gateway-names' });
    world = await startUpstreamWorld({ OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: issuer.audience });
    canary = canaryOf(world);
    const { gateway, tenant } = world;
    const operator = bearer(tenant.keys.operator);
    const admin = bearer(tenant.keys.admin);

    // A person signed in with a verified address stores a secret: events by `user:<email>`.
    const group = `names-admins-${randomUUID().slice(0, 8)}`;
    await gateway.http
      .post(`/v1/admin/tenants/${tenant.id}/group-mappings`)
      .set(platformAuth)
      .send({ group, roles: ['admin'] })
      .expect(201);
    const person = bearer(await issuer.mint({ email, groups: [group] }));
    secretId = (
      await gateway.http
        .post('/v1/credentials')
        .set(person)
        .send({ kind: 'secret', name: 'kafka prod', value: 'v1' })
        .expect(201)
    ).body.id;
    deletedSecretId = (
      await gateway.http
        .post('/v1/credentials')
        .set(admin)
        .send({ kind: 'secret', name: 'old registry', value: 'v1' })
        .expect(201)
    ).body.id;
    await gateway.http.delete(`/v1/credentials/${deletedSecretId}`).set(admin).expect(204);

    // A pipe created, then renamed through the gateway.
    const created = await gateway.http
      .post(pipesPath())
      .set(operator)
      .send(validCreateBody('kafka', { secret: canary }))
      .expect(200);
    pipeId = created.body.result.id;
    await gateway.http
      .patch(pipesPath(`/${pipeId}`))
      .set(operator)
      .send({ name: 'orders, renamed' })
      .expect(200);
    const history = await gateway.http.get('/v1/history/pipe-specs').set(auditor()).expect(200);
    historyId = history.body.items.find((item: { pipeId: string }) => item.pipeId === pipeId).id;

    // A dashboard replaced under a new name.
    dashboardId = world.dashboards.seedDashboard({ name: 'Checkout', tags: [], tiles: [] }).id;
    await gateway.http
      .put(`/v1/dashboards/${dashboardId}`)
      .set(operator)
      .send({ name: 'Checkout service', tags: [], tiles: [] })
      .expect(200);
  });
  afterAll(async () => {
    await world?.close();
    await issuer?.close();
  });

  describe('names beside ids', () => {
    it("names the page's actors and targets from the gateway's own records", async () => {
      const page = await list();
      const { tenant } = world;
      expect(page.names).toMatchObject({
        [`key:${tenant.keyIds.admin}`]: 'admin-key',
        [`key:${tenant.keyIds.operator}`]: 'operator-key',
        [`user:${email}`]: email,
        [`credential:${secretId}`]: 'kafka prod',
        // Deleted: the name its events recorded.
        [`credential:${deletedSecretId}`]: 'old registry',
        [`pipe-spec:${historyId}`]: 'kafka to orders',
        // Renamed through the gateway: the newest name.
        [`pipe:${pipeId}`]: 'orders, renamed',
        [`dashboard:${dashboardId}`]: 'Checkout service',
        [`tenant:${tenant.id}`]: tenant.name,
      });
      // Every name is for something the page shows, and every shown id the gateway knows is named.
      const shown = new Set(page.items.flatMap((item) => [item.actor, item.target]));
      expect(Object.keys(page.names).every((reference) => shown.has(reference))).toBe(true);
    });

    it('names nothing a page does not show, and leaves out what it does not know', async () => {
      const page = await list({ action: 'pipe.update' });
      expect(Object.keys(page.names).sort()).toEqual(
        [`key:${world.tenant.keyIds.operator}`, `pipe:${pipeId}`].sort(),
      );
      const gone = await list({ target: `pipe:${randomUUID()}` });
      expect(gone).toMatchObject({ items: [], names: {} });
    });

    it('keeps names out of the export, whose lines stay as the chain signed them', async () => {
      const exported = await world.gateway.http.get('/v1/audit/export').set(auditor()).expect(200);
      expect(exported.text).not.toContain('"names"');
    });
  });

  describe('the actor filter', () => {
    it('finds a person by the address alone, and says which actors it looked for', async () => {
      const page = await list({ actor: email });
      expect(page.actorsLookedFor).toEqual([`user:${email}`, `user-sub:${email}`]);
      expect(page.items.length).toBeGreaterThan(0);
      expect(new Set(page.items.map((item) => item.actor))).toEqual(new Set([`user:${email}`]));
    });

    it('finds a key by its name, in any case, or by its id', async () => {
      const operatorActor = `key:${world.tenant.keyIds.operator}`;
      for (const actor of ['operator-key', 'OPERATOR-KEY', world.tenant.keyIds.operator]) {
        const page = await list({ actor });
        expect(page.actorsLookedFor).toContain(operatorActor);
        expect(page.items.length).toBeGreaterThan(0);
        expect(new Set(page.items.map((item) => item.actor))).toEqual(new Set([operatorActor]));
      }
    });

    it('takes an actor written in full as it is, exactly', async () => {
      expect(await list({ actor: `user:${email}` })).toMatchObject({ actorsLookedFor: [`user:${email}`] });
      const other = await list({ actor: `user-sub:${email}` });
      expect(other).toMatchObject({ items: [], actorsLookedFor: [`user-sub:${email}`] });
      expect((await list()).actorsLookedFor).toBeUndefined();
    });

    it('filters the export the same way', async () => {
      const exported = await world.gateway.http
        .get('/v1/audit/export')
        .set(auditor())
        .query({ actor: email })
        .expect(200);
      const actors = exported.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { actor?: string })
        .flatMap((line) => (line.actor === undefined ? [] : [line.actor]));
      expect(actors.length).toBeGreaterThan(0);
      expect(new Set(actors)).toEqual(new Set([`user:${email}`]));
    });
  });

  describe('GET /v1/audit/actors and /v1/audit/targets', () => {
    /** Every item, one page of `limit` at a time. */
    async function walk(path: string, query: Record<string, string>): Promise<unknown[]> {
      const items: unknown[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { items: unknown[]; nextCursor: string | null } } = await world.gateway.http
          .get(path)
          .set(auditor())
          .query({ ...query, ...(cursor ? { cursor } : {}) })
          .expect(200);
        items.push(...page.body.items);
        cursor = page.body.nextCursor;
      } while (cursor !== null);
      return items;
    }

    it('lists each actor of the log once, with its name, page by page', async () => {
      const events = await list();
      const actors = [...new Set(events.items.map((item) => item.actor))];
      const all = await walk('/v1/audit/actors', { limit: '200' });
      expect(all).toHaveLength(actors.length);
      expect(all).toEqual(
        expect.arrayContaining([
          { actor: `key:${world.tenant.keyIds.admin}`, name: 'admin-key' },
          { actor: `user:${email}`, name: email },
          { actor: 'platform', name: null },
        ]),
      );
      expect(await walk('/v1/audit/actors', { limit: '1' })).toEqual(all);
    });

    it('lists the targets of one kind with their names', async () => {
      expect(await walk('/v1/audit/targets', { kind: 'pipe' })).toEqual([
        { target: `pipe:${pipeId}`, name: 'orders, renamed' },
      ]);
      const credentials = await walk('/v1/audit/targets', { kind: 'credential', limit: '1' });
      expect(credentials).toEqual(
        expect.arrayContaining([
          { target: `credential:${secretId}`, name: 'kafka prod' },
          { target: `credential:${deletedSecretId}`, name: 'old registry' },
        ]),
      );
      expect(
        (credentials as { target: string }[]).every((item) => item.target.startsWith('credential:')),
      ).toBe(true);
      const all = await walk('/v1/audit/targets', {});
      expect(all.length).toBeGreaterThan(credentials.length);
    });

    it('refuses a cursor it did not issue and a kind the catalogue does not have', async () => {
      const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      for (const cursor of ['not-a-cursor', forged(['a\u0000']), forged('key:'), forged([7])]) {
        const badCursor = await world.gateway.http
          .get('/v1/audit/actors')
          .set(auditor())
          .query({ cursor })
          .expect(400);
        expect(badCursor.body.errors).toEqual([
          { path: 'cursor', message: 'is not one this gateway issued' },
        ]);
      }
      const badKind = await world.gateway.http
        .get('/v1/audit/targets')
        .set(auditor())
        .query({ kind: 'pipe%' })
        .expect(400);
      expect(badKind.body.errors[0].path).toBe('kind');
    });

    it('is the auditors’', async () => {
      for (const path of ['/v1/audit/actors', '/v1/audit/targets']) {
        await world.gateway.http.get(path).set(bearer(world.tenant.keys.admin)).expect(403);
        await world.gateway.http.get(path).expect(401);
      }
    });
  });

  describe('a failed upstream write', () => {
    it("records the upstream's reason as the caller got it, scrubbed of the secrets the request carried", async () => {
      world.pipes.faults.add({
        kind: 'status',
        status: 400,
        times: 1,
        body: {
          status: 400,
          error: `kafka login failed for password ${canary}-kafka at postgres://svc:${canary}@db:5432/x`,
          requestId: randomUUID(),
        },
      });
      const refused = await world.gateway.http
        .post(pipesPath())
        .set(bearer(world.tenant.keys.operator))
        .set('X-Request-Id', 'names-refused-create')
        .send(validCreateBody('kafka', { secret: `${canary}-kafka` }))
        .expect(400);
      const failed = (await list({ action: 'pipe.create', outcome: 'failed' })).items.find(
        (item) => item.requestId === 'names-refused-create',
      );
      expect(failed!.details).toMatchObject({
        problem: 'upstream-rejected-request',
        upstreamStatus: 400,
        detail: refused.body.detail,
      });
      expect(failed!.details!.detail).toMatch(/^The pipes API refused: kafka login failed for password /);
      expect(JSON.stringify(failed)).not.toContain(canary);
    });
  });
});
