import pino from 'pino';

/** How long a line may wait in the buffer on a quiet gateway, in ms. */
const LOG_FLUSH_MS = 1_000;

/**
 * stdout written 4 KiB at a time, and at least once a second: a write per line cost more than
 * the line itself. pino writes out what is left when the process exits, a crash included.
 */
export function bufferedStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, minLength: 4096, periodicFlush: LOG_FLUSH_MS });
}
