import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Logger, LoggerService } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import {
  AuditSigningKeys,
  datedKeyId,
  generateSigningKeyText,
  parseSigningKeys,
  SIGNING_KEYS_VARIABLE,
} from './audit-signing-keys';
import { generateKeyText, KEY_BYTES, KeyRing, KeyRingError, KEYS_VARIABLE, parseKeyRing } from './key-ring';

export const DEV_KEY_FILE = 'master.key';

/** Which key ring: where its keys are configured, and the file a development key is kept in. */
export interface KeyRingPurpose {
  variable: string;
  file: string;
  /** For people: "master key". */
  name: string;
}

export const MASTER_KEYS: KeyRingPurpose = {
  variable: KEYS_VARIABLE,
  file: DEV_KEY_FILE,
  name: 'master key',
};
export const AUDIT_CHAIN_KEYS: KeyRingPurpose = {
  variable: 'AUDIT_CHAIN_KEYS',
  file: 'audit-chain.key',
  name: 'audit chain key',
};

/** Works from any folder, before the gateway is built. */
export const GENERATE_KEY_COMMAND =
  "node -e \"console.log('v1:' + require('crypto').randomBytes(32).toString('base64'))\"";

export interface KeyRingSettings {
  /** The raw key ring text (GATEWAY_ENCRYPTION_KEYS by default), or null when it is not set. */
  keysText: string | null;
  env: AppConfig['env'];
  dataDir: string;
  purpose?: KeyRingPurpose;
}

/** A ring generated in memory for an in-memory database: it ends with the process. */
export function isEphemeralKeyRing(settings: KeyRingSettings): boolean {
  return (
    settings.keysText === null && settings.env !== 'production' && settings.dataDir.startsWith('memory://')
  );
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
  const { variable, file, name } = settings.purpose ?? MASTER_KEYS;
  if (settings.keysText !== null) return parseKeyRing(settings.keysText, variable);
  if (settings.env === 'production') {
    throw new KeyRingError(
      variable,
      `must be set in production, e.g. ${variable}=v1:<base64 of 32 random bytes>; ` +
        `make a key with: ${GENERATE_KEY_COMMAND}`,
    );
  }
  if (isEphemeralKeyRing(settings))
    return new KeyRing([{ version: 'v1', key: randomBytes(KEY_BYTES) }], variable);

  const path = resolve(settings.dataDir, file);
  const created = createKeyFileOnce(path, () => generateKeyText('v1'));
  logger.warn(
    `${created ? 'Generated' : 'Using'} the development ${name} ${path}: for development only. ` +
      `Set ${variable}=v1:<base64 of 32 random bytes> (make one with: ${GENERATE_KEY_COMMAND}); ` +
      'production refuses to start without it.',
  );
  return parseKeyRing(
    readFileSync(path, 'utf8'),
    `The development key file ${path} (used because ${variable} is not set)`,
  );
}

export const SIGNING_KEY_FILE = 'audit-signing.key';
const NEW_SIGNING_KEY_COMMAND = 'npm run cli -- keys new-signing-key';

/**
 * The keys that sign audit checkpoints, loaded as the key rings are: configured keys win,
 * production requires them, elsewhere one is generated into the data folder (or kept in memory
 * with an in-memory database).
 */
export function loadSigningKeys(
  settings: Omit<KeyRingSettings, 'purpose'>,
  logger: Pick<LoggerService, 'warn'> = new Logger('CryptoModule'),
): AuditSigningKeys {
  const variable = SIGNING_KEYS_VARIABLE;
  if (settings.keysText !== null) return new AuditSigningKeys(parseSigningKeys(settings.keysText));
  if (settings.env === 'production') {
    throw new KeyRingError(
      variable,
      `must be set in production, e.g. ${variable}=<key id>:<base64 of a PKCS#8 DER Ed25519 private key>; ` +
        `make one with: ${NEW_SIGNING_KEY_COMMAND}`,
    );
  }
  const generate = () => generateSigningKeyText(datedKeyId());
  if (isEphemeralKeyRing(settings)) return new AuditSigningKeys(parseSigningKeys(generate()), true);
  const path = resolve(settings.dataDir, SIGNING_KEY_FILE);
  const created = createKeyFileOnce(path, generate);
  logger.warn(
    `${created ? 'Generated' : 'Using'} the development audit signing key ${path}: for development only. ` +
      `Set ${variable} (make a key with: ${NEW_SIGNING_KEY_COMMAND}); production refuses to start without it.`,
  );
  return new AuditSigningKeys(
    parseSigningKeys(
      readFileSync(path, 'utf8'),
      `The development key file ${path} (used because ${variable} is not set)`,
    ),
  );
}

function createKeyFileOnce(path: string, text: () => string): boolean {
  mkdirSync(dirname(path), { recursive: true });
  try {
    // 'wx' never overwrites: replacing an existing key would orphan everything sealed with it,
    // and it lets two processes starting at once agree on the first one's key.
    writeFileSync(path, `${text()}\n`, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
