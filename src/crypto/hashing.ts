import { createHash, timingSafeEqual } from 'node:crypto';

export function sha256(text: string | Buffer): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Constant-time equality for secrets of any length. crypto.timingSafeEqual throws on a length
 * mismatch, and checking lengths first would reveal the secret's length through timing; comparing
 * fixed-size digests of both sides does neither.
 */
export function timingSafeEqualBuffers(a: string | Buffer, b: string | Buffer): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}
