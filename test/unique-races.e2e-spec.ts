/**
 * Requests racing for one unique value: twenty at once through the real gateway. Exactly one
 * wins; every other one gets the 409 problem a duplicate gets, never a 500, and nothing is logged
 * as an unhandled error. docs/architecture.md lists every unique constraint of the schema.
 */
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import type { Test } from 'supertest';
import { validDashboardBody } from './fixtures/dashboard-bodies';
import { validCreateBody } from './fixtures/pipe-bodies';
import { bearer, platformAuth } from './support/fixtures';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';

const RACERS = 20;
const PROBLEM_JSON = /^application\/problem\+json/;

describe('requests racing for a unique value (e2e)', () => {
  let world: UpstreamWorld;
  const admin = () => bearer(world.tenant.keys.admin);
  const operator = () => bearer(world.tenant.keys.operator);

  beforeAll(async () => {
    world = await startUpstreamWorld();
  });
  afterAll(async () => {
    await world.close();
  });
  const unhandledErrors = () =>
    world.gateway.logs.entries().filter((entry) => entry.msg === 'unhandled error').length;
  let unhandledBefore = 0;
  beforeEach(() => {
    unhandledBefore = unhandledErrors();
  });
  afterEach(() => {
    expect(unhandledErrors() - unhandledBefore).toBe(0);
  });

  /** `send`, RACERS times at once. */
  const race = (send: () => Test): Promise<Response[]> =>
    Promise.all(Array.from({ length: RACERS }, () => send()));

  /** One `status` answer; every other one the 409 `type` problem whose detail matches `detail`. */
  function expectOneWinner(answers: Response[], detail: string | RegExp, status = 201): Response {
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      status,
      ...Array<number>(RACERS - 1).fill(409),
    ]);
    for (const loser of answers.filter((answer) => answer.status === 409)) {
      expect(loser.headers['content-type']).toMatch(PROBLEM_JSON);
      expect(loser.body).toMatchObject({ status: 409, type: expect.stringMatching(/\/conflict$/) });
      expect(loser.body.detail).toMatch(detail);
    }
    return answers.find((answer) => answer.status === status)!;
  }

  it('for a tenant name: one tenant, 409 for the others', async () => {
    const name = `racing-${randomUUID().slice(0, 8)}`;
    const answers = await race(() =>
      world.gateway.http.post('/v1/admin/tenants').set(platformAuth).send({ name }),
    );
    const winner = expectOneWinner(answers, `A tenant named "${name}" already exists`);
    for (const loser of answers.filter((answer) => answer.status === 409)) {
      expect(loser.body).toMatchObject({
        detail: `A tenant named "${name}" already exists (tenant ${winner.body.id}).`,
        tenantId: winner.body.id,
      });
    }
  });

  it.each([
    ['a tenant admin', () => '/v1/group-mappings', () => admin()],
    ['the platform', () => `/v1/admin/tenants/${world.tenant.id}/group-mappings`, () => platformAuth],
  ])('for a group mapping made by %s: one mapping, 409 naming it for the others', async (by, path, auth) => {
    const group = `racing-${randomUUID().slice(0, 8)}`;
    // A tenant's admin maps only groups assigned to the tenant; the platform's mapping assigns it.
    if (by === 'a tenant admin') {
      await world.gateway.http
        .post(`/v1/admin/tenants/${world.tenant.id}/groups`)
        .set(platformAuth)
        .send({ group })
        .expect(201);
    }
    const answers = await race(() =>
      world.gateway.http
        .post(path())
        .set(auth())
        .send({ group, roles: ['viewer'] }),
    );
    const winner = expectOneWinner(answers, `The group "${group}" is already mapped in this tenant`);
    for (const loser of answers.filter((answer) => answer.status === 409)) {
      expect(loser.body.detail).toContain(`(mapping ${winner.body.id})`);
    }
  });

  it('for a group assigned to tenants: one tenant has it, 409 naming that tenant for the others', async () => {
    const group = `racing-${randomUUID().slice(0, 8)}`;
    const tenants = await Promise.all(
      Array.from({ length: RACERS }, async (_, index) => {
        const name = `racing-${index}-${randomUUID().slice(0, 8)}`;
        return (
          await world.gateway.http.post('/v1/admin/tenants').set(platformAuth).send({ name }).expect(201)
        ).body.id as string;
      }),
    );
    const answers = await Promise.all(
      tenants.map((tenantId) =>
        world.gateway.http.post(`/v1/admin/tenants/${tenantId}/groups`).set(platformAuth).send({ group }),
      ),
    );
    const winner = tenants[answers.findIndex((answer) => answer.status === 201)];
    expectOneWinner(answers, `The group "${group}" is assigned to tenant ${winner} (assignment `);
    for (const loser of answers.filter((answer) => answer.status === 409)) {
      expect(loser.body.tenantId).toBe(winner);
    }
  });

  it('for a vault secret name: one secret, 409 for the others', async () => {
    const name = `racing-${randomUUID().slice(0, 8)}`;
    const answers = await race(() =>
      world.gateway.http
        .post('/v1/credentials')
        .set(admin())
        .send({ kind: 'secret', name, value: 'racing-value' }),
    );
    expectOneWinner(answers, `This tenant already has a secret named "${name}"; rotate it instead.`);
  });

  it("for an organization's pipes credential: one credential, 409 for the others", async () => {
    const organizationId = randomUUID();
    const answers = await race(() =>
      world.gateway.http.post('/v1/credentials').set(admin()).send({
        kind: 'pipes',
        name: 'racing',
        organizationId,
        keyId: 'KEYID-racing',
        keySecret: 'racing-secret',
      }),
    );
    expectOneWinner(
      answers,
      `This tenant already has a pipes credential for organization ${organizationId}; rotate it instead.`,
    );
  });

  /** Each answer is the first create's (replayed) or 409 in progress; the upstream got one create. */
  function expectOneCreate(answers: Response[], status: number, upstreamCreates: number): void {
    const created = answers.filter((answer) => answer.status === status);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const answer of created) expect(answer.body).toEqual(created[0].body);
    for (const answer of answers.filter((each) => each.status !== status)) {
      expect(answer.headers['content-type']).toMatch(PROBLEM_JSON);
      expect({ status: answer.status, type: answer.body.type }).toEqual({
        status: 409,
        type: expect.stringMatching(/\/idempotent-request-in-progress$/),
      });
    }
    expect(upstreamCreates).toBe(1);
  }

  it('for a pipe create Idempotency-Key: one create upstream, its answer or 409 in progress', async () => {
    const key = randomUUID();
    const body = validCreateBody('kinesis');
    const path = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`;
    const before = world.pipes.requests().filter((request) => request.method === 'POST').length;
    const answers = await race(() =>
      world.gateway.http.post(path).set(operator()).set('Idempotency-Key', key).send(body),
    );
    const after = world.pipes.requests().filter((request) => request.method === 'POST').length;
    expectOneCreate(answers, 200, after - before);
  });

  it('for a dashboard create Idempotency-Key: one create upstream, its answer or 409 in progress', async () => {
    const key = randomUUID();
    const body = { ...validDashboardBody(), name: `racing ${key}` };
    const before = world.dashboards.requests().filter((request) => request.method === 'POST').length;
    const answers = await race(() =>
      world.gateway.http.post('/v1/dashboards').set(operator()).set('Idempotency-Key', key).send(body),
    );
    const after = world.dashboards.requests().filter((request) => request.method === 'POST').length;
    expectOneCreate(answers, 201, after - before);
  });
});
