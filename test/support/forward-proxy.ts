import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** One request the proxy carried: `CONNECT host:port` for a tunnel, else the method and absolute URL. */
export interface ProxiedRequest {
  method: string;
  target: string;
}

/**
 * A small HTTP forward proxy on loopback, as an operator's egress proxy would be: absolute-form
 * requests are forwarded, CONNECT opens a tunnel. It records what it carried.
 */
export class ForwardProxy {
  private readonly carried: ProxiedRequest[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {
    server.on('request', (incoming, outgoing) => {
      this.carried.push({ method: incoming.method ?? '', target: incoming.url ?? '' });
      const forwarded = httpRequest(
        incoming.url ?? '',
        { method: incoming.method, headers: incoming.headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    });
    server.on('connect', (incoming, client: Socket, head: Buffer) => {
      this.carried.push({ method: 'CONNECT', target: incoming.url ?? '' });
      const [host, port] = (incoming.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  static async start(): Promise<ForwardProxy> {
    const proxy = new ForwardProxy(createServer());
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  requests(): ProxiedRequest[] {
    return [...this.carried];
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
