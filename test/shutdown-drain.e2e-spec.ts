/**
 * A stop the platform asks for (SIGTERM, drainAndClose): readiness fails at once, every request is
 * still served (each closing its connection) for the drain, then open event streams end with
 * `stream.end` and the server closes. The signal's wiring in main.ts runs in the cluster test.
 */
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { drainAndClose } from '../src/bootstrap';
import { bearer } from './support/fixtures';
import { openStream } from './support/event-stream';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';

// Long enough for the checks made during it on a busy machine.
const DRAIN_MS = 3_000;
// Longer than the drain: a request sent before it is still in flight when the server closes.
const SLOW_UPSTREAM_MS = 4_500;

/** The status of a GET sent on a kept-alive connection of `agent`. */
function get(url: string, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers, agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

describe('draining before a stop (e2e)', () => {
  let world: UpstreamWorld;

  beforeAll(async () => {
    world = await startUpstreamWorld({ PIPE_STREAM_MAX_MS: '3600000', UPSTREAM_TIMEOUT_MS: '10000' });
  });
  const agent = new Agent({ keepAlive: true });
  afterAll(async () => {
    agent.destroy();
    await world.pipes.close();
    await world.dashboards.close();
  });

  it('fails readiness at once, serves through the drain, then ends streams and closes once answered', async () => {
    const { gateway, tenant } = world;
    const viewer = bearer(tenant.keys.viewer);
    const events = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes/events`;
    await gateway.http.get('/health/ready').expect(200);
    const stream = await openStream(gateway.url, events, viewer);
    expect(stream.status).toBe(200);
    // Kept alive, and in flight from before the drain until after the close began.
    world.dashboards.faults.add({ kind: 'latency', ms: SLOW_UPSTREAM_MS, method: 'GET' });
    const slow = get(
      `${gateway.url}/v1/dashboards/65f0c0ffee0000000000abcd`,
      bearer(tenant.keys.admin),
      agent,
    );
    await sleep(100);

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
    expect(await slow).toBe(404);
    await stopped;
    // Its connection, kept alive, closed once it was answered: not after the keep-alive timeout.
    expect(Date.now() - started).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(Date.now() - started).toBeLessThan(SLOW_UPSTREAM_MS + 5_000);
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
