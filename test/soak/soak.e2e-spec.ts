import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { bearer } from '../support/fixtures';
import { startUpstreamWorld } from '../support/upstreams';

// `npm run test:soak`: a steady load for SOAK_SECONDS (default 300) with RSS and open handles sampled.
const seconds = Number(process.env.SOAK_SECONDS ?? 300);
const rate = Number(process.env.SOAK_RATE ?? 200);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

describe('soak', () => {
  it(
    `holds ${rate} req/s for ${seconds} s with flat memory and handles`,
    async () => {
      const world = await startUpstreamWorld();
      try {
        const settings = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes/${randomUUID()}/settings`;
        const samples: { rss: number; handles: number }[] = [];
        const handles = () =>
          (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().length;
        const sampler = setInterval(
          () => samples.push({ rss: process.memoryUsage().rss, handles: handles() }),
          5_000,
        );
        const result = await autocannon({
          url: `${world.gateway.url}${settings}`,
          headers: bearer(world.tenant.keys.viewer),
          connections: 10,
          overallRate: rate,
          duration: seconds,
        });
        clearInterval(sampler);

        // Every answer is the upstream's 404 passed through: no errors, timeouts or 5xx.
        expect(result.errors).toBe(0);
        expect(result.timeouts).toBe(0);
        expect(result['5xx']).toBe(0);
        expect(result['4xx']).toBeGreaterThan(rate * seconds * 0.9);
        const window = Math.max(1, Math.floor(samples.length / 5));
        const early = median(samples.slice(window, 2 * window).map((s) => s.rss));
        const late = median(samples.slice(-window).map((s) => s.rss));
        console.log(
          `soak: ${result.requests.sent} requests, p99 ${result.latency.p99} ms, RSS ${Math.round(early / 1e6)} → ${Math.round(late / 1e6)} MB`,
        );
        expect(late).toBeLessThan(early * 1.2 + 20e6);
        expect(samples.at(-1)!.handles).toBeLessThanOrEqual(samples[window].handles + 10);
      } finally {
        await world.close();
      }
    },
    (seconds + 120) * 1000,
  );
});
