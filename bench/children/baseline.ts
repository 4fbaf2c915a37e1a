import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaselineReady, UpstreamsReady } from '../lib/scenario';
import { pipesAuthorization } from '../lib/scenario';
import { serveChild } from './child';

/**
 * The floor a proxy can reach here: node:http, a keep-alive agent, the upstream's auth header
 * injected and nothing else. Paths are the upstreams' own; `/api/` is the dashboards API.
 */
serveChild(async () => {
  const upstreams = JSON.parse(process.argv[2]) as UpstreamsReady;
  const pipes = { url: new URL(upstreams.pipesUrl), authorization: pipesAuthorization(upstreams.pipesKey) };
  const dashboards = {
    url: new URL(upstreams.dashboardsUrl),
    authorization: `Bearer ${upstreams.dashboardsToken}`,
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });

  const server = createServer((incoming, outgoing) => {
    const upstream = incoming.url?.startsWith('/api/') ? dashboards : pipes;
    const forwarded = request(
      {
        agent,
        host: upstream.url.hostname,
        port: upstream.url.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.url.host, authorization: upstream.authorization },
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    forwarded.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forwarded);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const ready: BaselineReady = {
    type: 'ready',
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
  return {
    ready,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
});
