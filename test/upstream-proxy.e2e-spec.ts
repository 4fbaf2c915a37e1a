import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { bearer } from './support/fixtures';
import { ForwardProxy } from './support/forward-proxy';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';

/** HTTP(S)_PROXY, ALL_PROXY and NO_PROXY, read as axios reads them, for every upstream call. */
describe('upstream calls through a forward proxy from the environment (e2e)', () => {
  let proxy: ForwardProxy;
  const worlds: UpstreamWorld[] = [];

  beforeAll(async () => {
    proxy = await ForwardProxy.start();
  });
  afterAll(async () => {
    await Promise.all(worlds.map((world) => world.close()));
    await proxy.close();
  });

  async function world(env: Record<string, string>): Promise<UpstreamWorld> {
    const started = await startUpstreamWorld(env);
    worlds.push(started);
    return started;
  }
  const settingsPath = (w: UpstreamWorld) =>
    `/v1/organizations/${w.organizationId}/services/${w.serviceId}/pipes/${randomUUID()}/settings`;
  const readBoth = async (w: UpstreamWorld) => {
    const dashboardId = w.dashboards.seedDashboard({ name: 'ops', tiles: [], tags: [] }).id;
    const settings = await w.gateway.http.get(settingsPath(w)).set(bearer(w.tenant.keys.viewer));
    const dashboard = await w.gateway.http
      .get(`/v1/dashboards/${dashboardId}`)
      .set(bearer(w.tenant.keys.viewer));
    return { settings, dashboard, dashboardId };
  };
  const carriedTo = (simulatorUrl: string) =>
    proxy.requests().filter((request) => request.target.startsWith(simulatorUrl));
  const deadPort = () =>
    new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });

  it('sends every call for an http upstream through HTTP_PROXY', async () => {
    const w = await world({ HTTP_PROXY: proxy.url });
    const { settings, dashboard, dashboardId } = await readBoth(w);
    // The pipe does not exist: the simulator's own 404, carried back through the proxy.
    expect([settings.status, dashboard.status]).toEqual([404, 200]);
    expect(carriedTo(w.pipes.url)).toEqual([{ method: 'GET', target: expect.stringMatching(/\/settings$/) }]);
    expect(carriedTo(w.dashboards.url)).toEqual([
      { method: 'GET', target: `${w.dashboards.url}/api/v2/dashboards/${dashboardId}` },
    ]);
    expect(w.dashboards.requests()).toHaveLength(1);
  });

  it('goes straight to a host in NO_PROXY (lower-case names too), even when the proxy is down', async () => {
    const w = await world({
      http_proxy: `http://127.0.0.1:${await deadPort()}`,
      no_proxy: 'localhost,127.0.0.1',
    });
    const { settings, dashboard } = await readBoth(w);
    expect([settings.status, dashboard.status]).toEqual([404, 200]);
  });

  it('fails as unreachable when the proxy it must use is down', async () => {
    const w = await world({ HTTP_PROXY: `http://127.0.0.1:${await deadPort()}`, NO_PROXY: 'localhost' });
    const { settings, dashboard } = await readBoth(w);
    for (const response of [settings, dashboard]) {
      expect([response.status, response.body.type]).toEqual([
        502,
        expect.stringMatching(/upstream-unreachable$/),
      ]);
    }
  });

  describe('HTTPS_PROXY', () => {
    let notTls: Server;
    let port: number;
    beforeAll(async () => {
      // Where the https baseUrl points: it speaks no TLS, so the handshake through the tunnel fails.
      notTls = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => notTls.listen(0, '127.0.0.1', resolve));
      port = (notTls.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => notTls.close(resolve));
    });

    it('tunnels an https upstream through CONNECT, so the proxy sees the host and nothing of the call', async () => {
      const w = await world({ HTTPS_PROXY: proxy.url, DASHBOARDS_ALLOWED_HOSTS: `127.0.0.1:${port}` });
      const credential = await w.gateway.http
        .post('/v1/credentials')
        .set(bearer(w.tenant.keys.admin))
        .send({
          kind: 'dashboards',
          name: 'self-hosted',
          token: w.dashboardsToken,
          baseUrl: `https://127.0.0.1:${port}`,
        })
        .expect(201);
      const before = proxy.requests().length;
      const response = await w.gateway.http
        .get('/v1/dashboards/abc')
        .query({ credentialId: credential.body.id })
        .set(bearer(w.tenant.keys.viewer))
        .expect(502);
      expect(response.body.type).toMatch(/upstream-unreachable$/);
      const carried = proxy.requests().slice(before);
      // One tunnel per attempt (a GET is tried three times), and nothing else.
      expect(carried.map((request) => `${request.method} ${request.target}`)).toEqual(
        Array(3).fill(`CONNECT 127.0.0.1:${port}`),
      );
      expect(JSON.stringify(carried)).not.toContain(w.dashboardsToken);
    });

    it('leaves http upstreams alone: HTTPS_PROXY is for https targets only', async () => {
      const w = await world({ HTTPS_PROXY: proxy.url });
      const { settings, dashboard } = await readBoth(w);
      expect([settings.status, dashboard.status]).toEqual([404, 200]);
      expect([...carriedTo(w.pipes.url), ...carriedTo(w.dashboards.url)]).toEqual([]);
    });
  });
});
