/**
 * A stop the platform asks for (SIGTERM, drainAndClose): readiness fails at once, every request is
 * still served (each closing its connection) for the drain, then open event streams end with
 * `stream.end` and the server closes. The signal's wiring in main.ts runs in the cluster test.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { drainAndClose } from '../src/bootstrap';
import { bearer } from './support/fixtures';
import { openStream } from './support/event-stream';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';

const DRAIN_MS = 1_500;

describe('draining before a stop (e2e)', () => {
  let world: UpstreamWorld;

  beforeAll(async () => {
    world = await startUpstreamWorld({ PIPE_STREAM_MAX_MS: '3600000' });
  });
  afterAll(async () => {
    await world.pipes.close();
    await world.dashboards.close();
  });

  it('fails readiness at once, serves through the drain, then ends streams with stream.end', async () => {
    const { gateway, tenant } = world;
    const viewer = bearer(tenant.keys.viewer);
    const events = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes/events`;
    await gateway.http.get('/health/ready').expect(200);
    const stream = await openStream(gateway.url, events, viewer);
    expect(stream.status).toBe(200);

    const started = Date.now();
    const stopped = drainAndClose(gateway.app, DRAIN_MS);
    const ready = await gateway.http.get('/health/ready').expect(503);
    expect(ready.body).toMatchObject({ status: 503, detail: 'The gateway is stopping.' });
    await gateway.http.get('/health/live').expect(200);
    const read = await gateway.http.get('/v1/credentials').set(bearer(tenant.keys.admin)).expect(200);
    expect(read.headers.connection).toBe('close');
    // A stream opened during the drain is served too.
    const late = await openStream(gateway.url, events, viewer);
    expect(late.status).toBe(200);

    await sleep(DRAIN_MS / 2);
    expect(stream.events.map((event) => event.event)).not.toContain('stream.end');
    await stopped;
    expect(Date.now() - started).toBeGreaterThanOrEqual(DRAIN_MS);
    for (const open of [stream, late]) {
      await open.ended;
      expect(open.events.at(-1)).toEqual({
        id: null,
        event: 'stream.end',
        data: { reason: 'shutting-down' },
      });
    }
  });
});
