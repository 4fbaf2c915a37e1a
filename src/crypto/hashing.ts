import { hash, timingSafeEqual } from 'node:crypto';

// crypto.hash, not createHash: one call without a Hash object. Its digest as binary (latin1) text
// made into a Buffer comes from Node's shared pool; a Buffer straight from crypto.hash costs each
// digest an allocation of its own.
export function sha256(text: string | Buffer): Buffer {
  return Buffer.from(hash('sha256', text, 'binary'), 'binary');
}

/**
 * Constant-time check that `secret` hashes to `digest` (a SHA-256 digest held for it). Comparing
 * digests instead of the secrets themselves keeps the comparison fixed-size: timingSafeEqual throws
 * on a length mismatch, and checking lengths first would reveal the secret's length through timing.
 */
export function matchesDigest(secret: string | Buffer, digest: Uint8Array): boolean {
  return digest.length === SHA256_BYTES && timingSafeEqual(sha256(secret), digest);
}

export const SHA256_BYTES = 32;
