import { ConfigError } from './config/app-config';
import { KeyRingError } from './crypto/key-ring';

/**
 * The one line a failed start prints to stderr, `program` first: a setting's error as a
 * configuration error, anything else as a failed start. Never a stack: each message names the
 * setting or the holder and the fix, and a line of its own would bury it.
 */
export function startFailureLine(program: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const kind =
    error instanceof ConfigError || error instanceof KeyRingError ? 'configuration error' : 'failed to start';
  return `${program}: ${kind}: ${message.replace(/\s*\n\s*/g, ' ').trim()}`;
}
