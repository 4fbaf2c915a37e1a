import { randomUUID } from 'node:crypto';
import { validCreateBody } from '../src/pipes/schema/test-support/pipe-bodies';
import { bearer, createTenant } from './support/fixtures';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';

describe('write slots shared fairly between tenants (e2e)', () => {
  let world: UpstreamWorld;

  beforeAll(async () => {
    world = await startUpstreamWorld({ MAX_WRITES_IN_FLIGHT: '4', TENANT_WRITE_SHARE: '1' });
  });
  afterAll(() => world?.close());

  it("keeps a tenant whose writes pile up on a slow upstream from taking another tenant's share", async () => {
    const { gateway } = world;
    // A second tenant with a credential of its own for another organization on the same service.
    const other = await createTenant(gateway);
    const otherOrganization = randomUUID();
    await gateway.http
      .post('/v1/credentials')
      .set(bearer(other.keys.admin))
      .send({ kind: 'pipes', name: 'pipes', organizationId: otherOrganization, ...world.pipesKey })
      .expect(201);
    const pipesOf = (organizationId: string) =>
      `/v1/organizations/${organizationId}/services/${world.serviceId}/pipes`;

    // The first tenant's organization answers slowly; its writes hold their slots meanwhile.
    world.pipes.faults.add({
      kind: 'latency',
      ms: 1_500,
      pathPrefix: `/v1/organizations/${world.organizationId}/`,
    });
    const slow = Array.from({ length: 6 }, () =>
      gateway.http
        .post(pipesOf(world.organizationId))
        .set(bearer(world.tenant.keys.operator))
        .send(validCreateBody('kafka'))
        .then((response) => response),
    );
    for (let i = 0; i < 100 && world.pipes.requests().length < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // The first tenant holds three of the four slots at most: one share stays free for anyone else,
    // so the other tenant's creates go through while those writes wait.
    for (let i = 0; i < 3; i++) {
      await gateway.http
        .post(pipesOf(otherOrganization))
        .set(bearer(other.keys.operator))
        .send(validCreateBody('kafka'))
        .expect(200);
    }
    expect(
      world.pipes.requests().filter((call) => call.path.startsWith(pipesOf(otherOrganization))),
    ).toHaveLength(3);

    const answers = await Promise.all(slow);
    expect(answers.filter((response) => response.status === 200)).toHaveLength(3);
    const refused = answers.filter((response) => response.status === 503);
    expect(refused).toHaveLength(3);
    for (const response of refused) {
      expect(response.body.type).toMatch(/overloaded$/);
      expect(response.body.detail).toMatch(/more than its share of 1 writes/);
      expect(response.headers['retry-after']).toBe('1');
    }
  });
});
