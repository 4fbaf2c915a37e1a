/**
 * Failing polls of the pipe event streams in the log: one line per (tenant, service) per
 * PIPE_EVENTS_POLL_WARN_MS, however many polls fail. A file of its own: Nest's logger is one per
 * process, and here only this gateway writes to it.
 */
import { randomUUID } from 'node:crypto';
import { startPipesSimulator } from '../sandbox';
import { bearer, createTenant, storePipesCredential } from './support/fixtures';
import { startGateway } from './support/gateway';
import { openStream, type OpenStream } from './support/event-stream';

describe('failing polls in the log (e2e)', () => {
  it('logs one line per (tenant, service) per PIPE_EVENTS_POLL_WARN_MS, naming both, with the count left out', async () => {
    const pipesKey = { keyId: `keyid-${randomUUID().slice(0, 8)}`, keySecret: `secret-${randomUUID()}` };
    const pipes = await startPipesSimulator({ keys: [pipesKey] });
    const gateway = await startGateway({
      PIPES_API_URL: pipes.url,
      DATABASE_URL: '',
      PIPE_EVENTS_POLL_MS: '500',
      PIPE_EVENTS_IDLE_POLL_MS: '500',
      PIPE_EVENTS_POLL_WARN_MS: '2000',
      PIPE_STREAM_MAX_MS: '3600000',
    });
    const streams: OpenStream[] = [];
    try {
      const tenant = await createTenant(gateway);
      const organizationId = randomUUID();
      await storePipesCredential(gateway, tenant, organizationId, pipesKey);
      const services: string[] = [randomUUID(), randomUUID()];
      for (const serviceId of services) {
        // Every call for the service fails, as every poll does once a credential's budget is spent.
        pipes.markServiceIdle(serviceId);
        const path = `/v1/organizations/${organizationId}/services/${serviceId}/pipes/events`;
        streams.push(await openStream(gateway.url, path, bearer(tenant.keys.viewer)));
      }
      await new Promise((resolve) => setTimeout(resolve, 4_500));
      const failedPolls = pipes
        .requests()
        .filter((sent) => sent.method === 'GET' && services.some((id) => sent.path.includes(id)));
      expect(failedPolls.length).toBeGreaterThanOrEqual(12);
      const warnings = gateway.logs
        .entries()
        .filter((entry) => entry.msg === "polling a service's pipes failed");
      for (const serviceId of services) {
        const lines = warnings.filter((entry) => entry.serviceId === serviceId);
        // At 0, 2 and 4 s: three at most, of some nine failures each.
        expect(lines.length).toBeGreaterThanOrEqual(2);
        expect(lines.length).toBeLessThanOrEqual(3);
        for (const line of lines) {
          expect(line).toMatchObject({ tenantId: tenant.id, organizationId });
          expect(line.reason).toMatch(/^424 /);
        }
        expect(lines[1].notLoggedSince).toBeGreaterThanOrEqual(2);
      }
    } finally {
      for (const stream of streams) stream.close();
      await gateway.close();
      await pipes.close();
    }
  }, 60_000);
});
