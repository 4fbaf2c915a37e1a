import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { closedLoop, fixedRate, fixedRateAgent, LoadTally, type LoadRequest } from './load';

// The sockets the server has accepted, and the requests each has carried.
const requestsBySocket = new Map<Socket, number>();

/** Every third request is refused with 503, the rest answered 200. */
function startServer(): Promise<Server> {
  let served = 0;
  const server = createServer({ keepAliveTimeout: 10_000 }, (request, response) => {
    requestsBySocket.set(request.socket, (requestsBySocket.get(request.socket) ?? 0) + 1);
    served += 1;
    response.statusCode = served % 3 === 0 ? 503 : 200;
    response.end('{}');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const REQUEST: LoadRequest = { method: 'GET', path: () => '/', headers: {} };

describe('load slices', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = await startServer();
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('adds every slice at a fixed rate to one tally: answers, refusals and time', async () => {
    const tally = new LoadTally();
    await fixedRate(url, REQUEST, { rate: 150, seconds: 1 }, tally);
    const result = await fixedRate(url, REQUEST, { rate: 150, seconds: 1 }, tally);

    expect(result.ok + result.failed).toBe(300);
    expect(result.failed).toBe(100);
    expect(result.statuses).toEqual({ 503: 100 });
    expect(tally.seconds).toBeGreaterThanOrEqual(2);
    expect(result.rps).toBeCloseTo(200 / tally.seconds, 5);
  });

  it('keeps the connections of the agent it is given from one slice to the next', async () => {
    const agent = fixedRateAgent();
    await fixedRate(url, REQUEST, { rate: 20, seconds: 1, agent });
    const afterFirst = new Map(requestsBySocket);
    await fixedRate(url, REQUEST, { rate: 20, seconds: 1, agent });
    agent.destroy();

    // A stalled event loop may make the second slice burst and open a socket more; what matters is
    // that the first slice's sockets carry on, where a fresh agent would leave them all idle.
    const carriedOn = [...afterFirst].filter(([socket, before]) => requestsBySocket.get(socket)! > before);
    expect(carriedOn.length).toBeGreaterThan(0);
  });

  it('records how far the sender fell behind its schedule while its event loop was held', async () => {
    const tally = new LoadTally();
    setTimeout(() => {
      const until = performance.now() + 200;
      while (performance.now() < until);
    }, 300);
    const result = await fixedRate(url, REQUEST, { rate: 100, seconds: 1 }, tally);

    expect(result.ok + result.failed).toBe(100);
    expect(result.maxSendLagMs).toBeGreaterThanOrEqual(150);
    expect(result.maxSendLagMs).toBeLessThan(1_000);
  });

  it('adds every closed-loop slice to one tally', async () => {
    const tally = new LoadTally();
    const first = await closedLoop(url, REQUEST, { connections: 2, seconds: 1 }, tally);
    const firstOk = first.ok;
    const both = await closedLoop(url, REQUEST, { connections: 2, seconds: 1 }, tally);

    expect(both.ok).toBeGreaterThan(firstOk);
    expect(both.ok).toBe(tally.latencies.length);
    expect(both.statuses['503']).toBe(both.failed);
    expect(tally.seconds).toBeGreaterThanOrEqual(1.9);
    expect(both.rps).toBeCloseTo(both.ok / tally.seconds, 5);
  });
});
