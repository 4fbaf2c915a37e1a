import { Writable } from 'node:stream';

/**
 * A log destination that keeps every line the gateway writes, so tests can search all log
 * output for planted secrets and check the log format.
 */
export class LogCapture extends Writable {
  private chunks: string[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.chunks.push(chunk.toString());
    callback();
  }

  text(): string {
    return this.chunks.join('');
  }

  /** Log lines parsed as JSON. */
  entries(): Record<string, unknown>[] {
    return this.text()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}
