/**
 * A client that sends its request slowly holds a connection only as long as HEADERS_TIMEOUT_MS
 * (its headers) and REQUEST_TIMEOUT_MS (the whole request) allow: then 408 and the connection
 * closes. Answers that take long, as event streams do, are not cut. Raw sockets against a real
 * gateway, with small settings.
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { startPipesSimulator, type PipesSimulator } from '../sandbox';
import { bearer, createTenant, storePipesCredential } from './support/fixtures';
import { openStream } from './support/event-stream';
import { startGateway, type TestGateway } from './support/gateway';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_500;
// Node looks for late requests once a second; the rest is room for a loaded machine.
const LATEST_MS = 1_000 + 1_500;

interface Ended {
  /** What the gateway wrote before it closed the connection. */
  answer: string;
  /** From the first byte sent to the close. */
  ms: number;
}

/**
 * Opens a connection to `url`, writes `chunks` one every `everyMs` (and nothing after the last),
 * and answers once the gateway has closed the connection.
 */
function sendSlowly(url: string, chunks: string[], everyMs: number): Promise<Ended> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answer = '';
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    const socket = connect(Number(port), hostname, () => {
      started = Date.now();
      const next = (index: number): void => {
        if (index >= chunks.length || socket.destroyed) return;
        socket.write(chunks[index]);
        timer = setTimeout(() => next(index + 1), everyMs);
      };
      next(0);
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answer, ms: Date.now() - started });
    });
  });
}

/** The status and problem of a raw HTTP answer. */
function parsed(answer: string): { status: number; body: Record<string, unknown> } {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)![1]), body: JSON.parse(body) };
}

describe('slow clients (e2e)', () => {
  let pipes: PipesSimulator;
  let gateway: TestGateway;
  const pipesKey = { keyId: `slow-${randomUUID().slice(0, 8)}`, keySecret: randomUUID() };

  beforeAll(async () => {
    pipes = await startPipesSimulator({ keys: [pipesKey] });
    gateway = await startGateway({
      PIPES_API_URL: pipes.url,
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      PIPE_STREAM_HEARTBEAT_MS: '1000',
      PIPE_STREAM_MAX_MS: '3600000',
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await pipes?.close();
  });

  it('answers 408 and closes a connection whose headers are still coming after HEADERS_TIMEOUT_MS', async () => {
    // One header byte every 200 ms: each keeps the connection busy, none extends the bound.
    const header = 'x-slow: ' + 'a'.repeat(60);
    const ended = await sendSlowly(
      gateway.url,
      ['GET /health/live HTTP/1.1\r\nhost: gateway\r\n', ...header],
      200,
    );
    expect(ended.ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(ended.ms).toBeLessThan(HEADERS_TIMEOUT_MS + LATEST_MS);
    expect(parsed(ended.answer)).toMatchObject({
      status: 408,
      body: { status: 408, detail: 'The request was not received in time.' },
    });
  });

  it('closes a connection that sends nothing at all after HEADERS_TIMEOUT_MS', async () => {
    const ended = await sendSlowly(gateway.url, [], 0);
    expect(ended.ms).toBeLessThan(HEADERS_TIMEOUT_MS + LATEST_MS);
  });

  it('answers a kept-alive connection that was idle past HEADERS_TIMEOUT_MS between two requests', async () => {
    const request = 'GET /health/live HTTP/1.1\r\nhost: gateway\r\n\r\n';
    const closing = 'GET /health/live HTTP/1.1\r\nhost: gateway\r\nconnection: close\r\n\r\n';
    const ended = await sendSlowly(gateway.url, [request, closing], HEADERS_TIMEOUT_MS + LATEST_MS);
    expect(ended.answer.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
  });

  it('answers 408 and closes a connection whose body stalls, after REQUEST_TIMEOUT_MS', async () => {
    const body = JSON.stringify({ name: `slow-${randomUUID()}` });
    const ended = await sendSlowly(
      gateway.url,
      [
        'POST /v1/admin/tenants HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\n' +
          `content-length: ${body.length}\r\n\r\n`,
        body.slice(0, 5),
      ],
      200,
    );
    // The headers came in time: only the whole request's bound ends it.
    expect(ended.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(ended.ms).toBeLessThan(REQUEST_TIMEOUT_MS + LATEST_MS);
    expect(parsed(ended.answer)).toMatchObject({ status: 408, body: { status: 408 } });
  });

  it('keeps an event stream open well past REQUEST_TIMEOUT_MS: the request was received', async () => {
    const tenant = await createTenant(gateway);
    const organizationId = randomUUID();
    await storePipesCredential(gateway, tenant, organizationId, pipesKey);
    const stream = await openStream(
      gateway.url,
      `/v1/organizations/${organizationId}/services/${randomUUID()}/pipes/events`,
      bearer(tenant.keys.viewer),
    );
    try {
      expect(stream.status).toBe(200);
      let ended = false;
      void stream.ended.then(() => (ended = true));
      await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS + LATEST_MS));
      const heartbeats = stream.comments;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(ended).toBe(false);
      expect(stream.comments).toBeGreaterThan(heartbeats);
    } finally {
      stream.close();
    }
  });
});
