import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Logger, LoggerService } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { generateKeyText, KEY_BYTES, KeyRing, KeyRingError, KEYS_VARIABLE, parseKeyRing } from './key-ring';

export const DEV_KEY_FILE = 'master.key';

/** Works from any folder, before the gateway is built. */
export const GENERATE_KEY_COMMAND =
  "node -e \"console.log('v1:' + require('crypto').randomBytes(32).toString('base64'))\"";

export interface KeyRingSettings {
  /** The raw GATEWAY_ENCRYPTION_KEYS text, or null when it is not set. */
  keysText: string | null;
  env: AppConfig['env'];
  dataDir: string;
}

/**
 * The key ring the gateway runs with. Configured keys always win. Without them, production stops
 * here, because a generated key would silently make every stored credential unreadable on the
 * next host; elsewhere a key is generated once into the data folder so local data survives
 * restarts, or kept in memory when the database is in memory too.
 */
export function loadKeyRing(
  settings: KeyRingSettings,
  logger: Pick<LoggerService, 'warn'> = new Logger('CryptoModule'),
): KeyRing {
  if (settings.keysText !== null) return parseKeyRing(settings.keysText);
  if (settings.env === 'production') {
    throw new KeyRingError(
      KEYS_VARIABLE,
      `must be set in production, e.g. ${KEYS_VARIABLE}=v1:<base64 of 32 random bytes>; ` +
        `make a key with: ${GENERATE_KEY_COMMAND}`,
    );
  }
  if (settings.dataDir.startsWith('memory://')) {
    return new KeyRing([{ version: 'v1', key: randomBytes(KEY_BYTES) }]);
  }

  const path = resolve(settings.dataDir, DEV_KEY_FILE);
  const created = createKeyFileOnce(path);
  logger.warn(
    `${created ? 'Generated' : 'Using'} the development master key ${path}: for development only. ` +
      `Set ${KEYS_VARIABLE}=v1:<base64 of 32 random bytes> (make one with: ${GENERATE_KEY_COMMAND}); ` +
      'production refuses to start without it.',
  );
  return parseKeyRing(
    readFileSync(path, 'utf8'),
    `The development key file ${path} (used because ${KEYS_VARIABLE} is not set)`,
  );
}

function createKeyFileOnce(path: string): boolean {
  mkdirSync(dirname(path), { recursive: true });
  try {
    // 'wx' never overwrites: replacing an existing key would orphan everything sealed with it,
    // and it lets two processes starting at once agree on the first one's key.
    writeFileSync(path, `${generateKeyText('v1')}\n`, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
