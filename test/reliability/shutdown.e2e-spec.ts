import { randomUUID } from 'node:crypto';
import { closeGracefully } from '../../src/bootstrap';
import { bearer } from '../support/fixtures';
import { startUpstreamWorld } from '../support/upstreams';

describe('graceful shutdown (e2e)', () => {
  it('lets in-flight requests finish before the gateway closes', async () => {
    const world = await startUpstreamWorld();
    try {
      const settings = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes/${randomUUID()}/settings`;
      // Warm the credential cache so every request is past the database when shutdown begins.
      await world.gateway.http.get(settings).set(bearer(world.tenant.keys.viewer)).expect(404);
      world.pipes.faults.add({ kind: 'latency', ms: 1_000 });
      const inFlight = Array.from({ length: 10 }, () =>
        world.gateway.http
          .get(settings)
          .set(bearer(world.tenant.keys.viewer))
          .then(
            (r) => r.status,
            (e: Error) => e.message,
          ),
      );
      // Shut down once every request has reached the (slowed) upstream: all are truly in flight.
      for (let i = 0; i < 100 && world.pipes.requests().length < 11; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const closing = closeGracefully(world.gateway.app);
      expect(await Promise.all(inFlight)).toEqual(Array(10).fill(404));
      await closing;
    } finally {
      await world.pipes.close();
      await world.dashboards.close();
    }
  });
});
