import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Message } from '../lib/processes';
import type { SinkReceiversReady, SinkTally } from '../lib/scenario';
import { serveChild } from './child';

/**
 * Where the benchmark gateways deliver their audit log: an HTTP collector that answers every POST
 * 200, as a webhook receiver would, and a syslog receiver on TCP that reads octet-counted messages
 * until the sender closes, then closes too, as rsyslog does. Both count what they receive, so a run
 * can say whether the sinks kept up with the writes.
 */
serveChild(async () => {
  const tally = { webhookRecords: 0, syslogRecords: 0 };

  const webhook = createHttpServer((request, response) => {
    let lines = 0;
    request.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    });
    request.on('end', () => {
      tally.webhookRecords += lines;
      response.writeHead(200).end();
    });
  });
  webhook.keepAliveTimeout = 30_000;

  const syslog = createTcpServer((socket: Socket) => {
    const frames = new OctetCountedFrames();
    socket.on('data', (chunk: Buffer) => (tally.syslogRecords += frames.count(chunk)));
    // The sender counts a batch delivered once this side closes after reading all of it.
    socket.on('end', () => socket.end());
    socket.on('error', () => socket.destroy());
  });

  await Promise.all([
    new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve)),
    new Promise<void>((resolve) => syslog.listen(0, '127.0.0.1', resolve)),
  ]);
  const ready: SinkReceiversReady = {
    type: 'ready',
    webhookUrl: `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/audit`,
    syslogUrl: `tcp://127.0.0.1:${(syslog.address() as AddressInfo).port}`,
  };
  return {
    ready,
    stop: async () => {
      webhook.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => webhook.close(resolve)),
        new Promise((resolve) => syslog.close(resolve)),
      ]);
    },
    handle: (message: Message) => {
      if (message.type !== 'sink-tally') return Promise.reject(new Error(`unknown request ${message.type}`));
      return Promise.resolve<SinkTally>({ type: 'sink-tally', ...tally });
    },
  };
});

/** Counts the messages of an octet-counted stream (`<length> <message>`…), across chunk boundaries. */
class OctetCountedFrames {
  private length = 0;
  private skipping = 0;

  count(chunk: Buffer): number {
    let messages = 0;
    for (let at = 0; at < chunk.length;) {
      if (this.skipping > 0) {
        const taken = Math.min(this.skipping, chunk.length - at);
        this.skipping -= taken;
        at += taken;
        if (this.skipping === 0) messages += 1;
        continue;
      }
      const byte = chunk[at++];
      if (byte === 0x20) {
        this.skipping = this.length;
        this.length = 0;
      } else {
        this.length = this.length * 10 + (byte - 0x30);
      }
    }
    return messages;
  }
}
