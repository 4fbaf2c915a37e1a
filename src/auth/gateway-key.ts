import { randomBytes } from 'node:crypto';

// pgw_<12-char lookup prefix>_<43-char secret>: the prefix finds the row, the whole key is hashed.
const KEY_PATTERN = /^pgw_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
const PREFIX_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface NewGatewayKey {
  key: string;
  prefix: string;
}

export function generateGatewayKey(): NewGatewayKey {
  const prefix = Array.from(randomBytes(12), (byte) => PREFIX_ALPHABET[byte % PREFIX_ALPHABET.length]).join(
    '',
  );
  const secret = randomBytes(32).toString('base64url');
  return { key: `pgw_${prefix}_${secret}`, prefix };
}

/** The lookup prefix of a well-formed key, or null. */
export function gatewayKeyPrefix(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}
