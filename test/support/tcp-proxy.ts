import { createServer, Server, Socket, connect } from 'node:net';

// Enough of a client's first bytes to tell its connection by (a Redis SUBSCRIBE, a Postgres LISTEN).
const SENT_KEPT = 4096;

/**
 * A TCP pass-through that can be cut or frozen: `cut()` drops every open connection and refuses
 * new ones; `freeze()` keeps every connection open but passes nothing either way (a server that
 * stopped answering without closing anything); `holdReplies(sent)` does so to the server's bytes
 * on the connections whose client has sent `sent` (one of several connections falling behind);
 * `restore()` lets traffic through again. Used to take the database or Redis away from a running
 * gateway.
 */
export class CuttableProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();
  private readonly held = new Set<Socket>();
  /** What each client has sent so far (its first bytes), to tell its connection by. */
  private readonly sent = new Map<Socket, string>();
  private readonly holding = new Set<[Socket, Socket]>();
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

  /** Holds what the server sends on connections whose client has sent `text` (case-insensitive). */
  holdReplies(text: string): number {
    for (const pair of this.pairs) {
      const [client, upstream] = pair;
      if (!this.sent.get(client)?.toLowerCase().includes(text.toLowerCase())) continue;
      upstream.unpipe(client);
      upstream.pause();
      this.holding.add(pair);
    }
    return this.holding.size;
  }

  restore(): void {
    // A freeze re-pipes every connection below.
    if (this.state !== 'frozen') for (const [client, upstream] of this.holding) upstream.pipe(client);
    this.holding.clear();
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
    this.sent.set(client, '');
    client.on('data', (chunk: Buffer) => {
      const sent = this.sent.get(client);
      if (sent !== undefined && sent.length < SENT_KEPT)
        this.sent.set(client, sent + chunk.toString('latin1'));
    });
    client.pipe(upstream).pipe(client);
    const end = () => {
      this.pairs.delete(pair);
      this.holding.delete(pair);
      this.sent.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  }
}
