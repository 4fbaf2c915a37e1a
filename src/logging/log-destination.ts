import type { Writable } from 'node:stream';
import type pino from 'pino';
import type { AppConfig } from '../config/app-config';
import { bufferedStdout } from './buffered-stdout';

/**
 * Where the gateway's log goes when no destination is given: JSON lines on stdout, or, outside
 * production when stdout is a terminal, one readable line per event for the person watching it.
 */
export function logDestination(
  env: AppConfig['env'],
  stdout: Pick<NodeJS.WriteStream, 'isTTY'> & Writable = process.stdout,
): pino.DestinationStream {
  return env !== 'production' && stdout.isTTY ? readableLines(stdout) : bufferedStdout();
}

/** Each event on one line: time, level, context and message, then its other fields. */
export function readableLines(destination: Writable, colorize = true): pino.DestinationStream {
  // Loaded only here: a gateway that logs JSON never carries it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pretty = require('pino-pretty') as typeof import('pino-pretty');
  return pretty.build({
    destination,
    colorize,
    singleLine: true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
  });
}
