import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface CannedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface CannedReply {
  status: number;
  body?: unknown;
}

/**
 * An upstream that is not the sandbox: a bare HTTP server answering each `METHOD path` with a reply
 * set by the test, as the real services document them, and recording what it was sent. It checks
 * the gateway's wiring (path, method, body, auth) against something that shares no code with it.
 */
export class CannedUpstream {
  readonly requests: CannedRequest[] = [];
  private readonly replies = new Map<string, CannedReply>();
  private readonly server: Server;

  private constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const path = new URL(request.url ?? '/', 'http://upstream').pathname;
        this.requests.push({
          method: request.method ?? 'GET',
          path,
          headers: request.headers,
          body: text === '' ? undefined : (JSON.parse(text) as unknown),
        });
        const reply = this.replies.get(`${request.method} ${path}`) ?? {
          status: 404,
          body: { error: 'no reply set' },
        };
        response.writeHead(
          reply.status,
          reply.body === undefined ? {} : { 'content-type': 'application/json' },
        );
        response.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
      });
    });
  }

  static async start(): Promise<CannedUpstream> {
    const upstream = new CannedUpstream();
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
    return upstream;
  }

  get url(): string {
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  reply(method: string, path: string, reply: CannedReply): void {
    this.replies.set(`${method} ${path}`, reply);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
