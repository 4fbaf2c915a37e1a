import { hash } from 'node:crypto';
import type { SecretValueMatcher } from '../redaction/secret-value-matcher';

/**
 * Every secret value a tenant's credentials hold, as one matcher that scrubs them from upstream
 * answers, built for one version of the tenant's vault.
 */
export interface VaultValues {
  /**
   * `<tenantId>:<vaultVersion>`: two equal identities hold equal values. It names the values
   * without holding any, so what is remembered of an answer is keyed by it.
   */
  readonly identity: string;
  readonly vaultVersion: string;
  readonly matcher: SecretValueMatcher;
}

/**
 * A version of a tenant's vault: a digest of the id and version of each of its credentials. A
 * credential created, rotated (its version goes up) or deleted changes it; nothing else does.
 */
export function vaultVersionOf(credentials: readonly { id: string; version: number }[]): string {
  const listed = credentials
    .map(({ id, version }) => `${id}:${version}`)
    .sort()
    .join(',');
  return hash('sha256', listed, 'base64url').slice(0, 22);
}
