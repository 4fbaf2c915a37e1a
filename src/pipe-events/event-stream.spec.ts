import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { EventStream } from './event-stream';

/** A response whose reader takes nothing: everything written stays buffered. */
class UnreadResponse extends EventEmitter {
  writableLength = 0;
  destroyed = false;

  write(text: string): boolean {
    this.writableLength += Buffer.byteLength(text);
    return false;
  }

  end(): void {}

  destroy(): void {
    this.destroyed = true;
  }
}

const KiB = 1024;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('EventStream', () => {
  let response: UnreadResponse;
  let dropped: boolean[];
  let stream: EventStream;

  beforeEach(() => {
    response = new UnreadResponse();
    dropped = [];
    stream = new EventStream(response as unknown as ServerResponse, 256 * KiB, 60_000, 60_000, (cut) =>
      dropped.push(cut),
    );
  });
  afterEach(() => stream.end('shutting-down'));

  it('keeps a reader to whom one turn wrote more than the bound at once', () => {
    for (let event = 0; event < 3; event++) stream.write('x'.repeat(200 * KiB));
    expect(response.destroyed).toBe(false);
    expect(stream.open).toBe(true);
  });

  it('cuts a reader that left more than the bound of earlier turns unread', async () => {
    for (let event = 0; event < 3; event++) stream.write('x'.repeat(200 * KiB));
    await nextTurn();
    stream.write(':\n\n');
    expect(response.destroyed).toBe(true);
    expect(dropped).toEqual([true]);
  });

  it('keeps a reader whose earlier turns left less than the bound unread', async () => {
    stream.write('x'.repeat(100 * KiB));
    await nextTurn();
    stream.write('x'.repeat(100 * KiB));
    await nextTurn();
    stream.write(':\n\n');
    expect(response.destroyed).toBe(false);
  });
});
