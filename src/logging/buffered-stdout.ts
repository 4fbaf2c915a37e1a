import pino from 'pino';

/** How long a line may wait in the buffer on a quiet gateway, in ms. */
const LOG_FLUSH_MS = 1_000;

/**
 * stdout written 4 KiB at a time, and at least once a second: a write per line cost more than
 * the line itself. The writes are synchronous, as Node's own are to pipes and files: handed to
 * libuv's thread pool instead, each one's round trip between threads cost the gateway more CPU
 * than the lines it carried (bench/README.md, "What the code's choices buy"). What is left is
 * written out when the process exits, a crash included (pino does that only for streams written in the pool).
 */
export function bufferedStdout(): pino.DestinationStream {
  const stdout = pino.destination({ dest: 1, minLength: 4096, periodicFlush: LOG_FLUSH_MS, sync: true });
  process.once('exit', () => {
    try {
      stdout.flushSync();
    } catch {
      // stdout closed (its reader gone): there is nowhere left to write the lines to.
    }
  });
  return stdout;
}
