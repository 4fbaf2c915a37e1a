import { createServer, Server, Socket, connect } from 'node:net';

/**
 * A TCP pass-through that can be cut or frozen: `cut()` drops every open connection and refuses
 * new ones; `freeze()` keeps every connection open but passes nothing either way (a server that
 * stopped answering without closing anything); `restore()` lets traffic through again. Used to
 * take the database away from a running gateway.
 */
export class CuttableProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();
  private readonly held = new Set<Socket>();
  private state: 'open' | 'cut' | 'frozen' = 'open';

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => {
      this.track(client);
      if (this.state === 'cut') client.destroy();
      else if (this.state === 'frozen') this.held.add(client);
      else this.forward(client);
    });
  }

  static async start(target: { host: string; port: number }): Promise<CuttableProxy> {
    const proxy = new CuttableProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  cut(): void {
    this.state = 'cut';
    for (const socket of this.sockets) socket.destroy();
  }

  freeze(): void {
    this.state = 'frozen';
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  restore(): void {
    if (this.state === 'frozen') {
      for (const [client, upstream] of this.pairs) {
        client.pipe(upstream);
        upstream.pipe(client);
      }
      for (const client of this.held) if (!client.destroyed) this.forward(client);
      this.held.clear();
    }
    this.state = 'open';
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  private forward(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    this.track(upstream);
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    client.pipe(upstream).pipe(client);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  }
}
