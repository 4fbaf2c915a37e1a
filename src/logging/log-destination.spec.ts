import { PassThrough } from 'node:stream';
import pino from 'pino';
import { logDestination, readableLines } from './log-destination';

/** A stdout stand-in that keeps what is written to it. */
function terminal(isTTY: boolean): PassThrough & { isTTY: boolean; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return Object.assign(stream, { text: () => text });
}

describe('logDestination', () => {
  it('writes readable lines in development and tests on a terminal', () => {
    for (const env of ['development', 'test'] as const) {
      const stdout = terminal(true);
      pino(logDestination(env, stdout)).info('hello');
      expect(stdout.text()).toMatch(/INFO.*hello/);
      expect(() => JSON.parse(stdout.text()) as unknown).toThrow();
    }
  });

  it('keeps JSON in production, and wherever stdout is not a terminal', () => {
    for (const [env, isTTY] of [
      ['production', true],
      ['development', false],
    ] as const) {
      const stdout = terminal(isTTY);
      const destination = logDestination(env, stdout);
      // JSON goes to the process's own stdout, never through the prettifier.
      expect(stdout.text()).toBe('');
      expect(destination).not.toBeInstanceOf(PassThrough);
      expect(typeof (destination as { flushSync?: unknown }).flushSync).toBe('function');
    }
  });
});

describe('readableLines', () => {
  it('puts each event on one line: time, level, context, message, then its fields', () => {
    const out = terminal(true);
    const logger = pino(readableLines(out, false));
    logger.warn(
      { context: 'UpstreamHttp', upstream: 'pipes', address: 'http://127.0.0.1:9', requestId: 'r-1' },
      'upstream connection failed',
    );
    logger.info('second');
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: \[UpstreamHttp\] upstream connection failed \{.*"upstream":"pipes".*"requestId":"r-1".*\}$/,
    );
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: second$/);
  });
});
