/** What a credential holds once decrypted, per kind. Never leaves the gateway except upstream. */
export interface PipesSecret {
  keyId: string;
  keySecret: string;
}

export interface DashboardsSecret {
  token: string;
}

/** A vault secret: what a pipe spec's `{"$secret": ...}` stands for. */
export interface VaultSecret {
  value: string | Record<string, string>;
}

export type CredentialSecret = PipesSecret | DashboardsSecret | VaultSecret;

/** What the pipes API's HTTP Basic scheme carries: `keyId:keySecret` in base64. */
export function basicCredentials(secret: PipesSecret): string {
  return Buffer.from(`${secret.keyId}:${secret.keySecret}`).toString('base64');
}

/**
 * The texts of a credential that no answer may carry: a pipes key's secret and the Basic
 * credentials made of it (its key id is an identifier, shown in part as the hint), a dashboards
 * token, a vault secret's value or each field of it.
 */
export function secretTextsOf(secret: CredentialSecret): string[] {
  if ('keySecret' in secret) return [secret.keySecret, basicCredentials(secret)];
  if ('token' in secret) return [secret.token];
  return typeof secret.value === 'string' ? [secret.value] : Object.values(secret.value);
}

export function encodeSecret(secret: CredentialSecret): string {
  return JSON.stringify(secret);
}

export function decodeSecret(plaintext: Buffer): CredentialSecret {
  return JSON.parse(plaintext.toString('utf8')) as CredentialSecret;
}

// A string secret shorter than this shows no hint: four of its characters would be too much of it.
const MIN_HINTED_SECRET = 16;

/** The last 4 characters of the key id or token: enough to tell credentials apart, never more. */
export function secretHint(secret: CredentialSecret): string {
  if ('value' in secret) {
    return typeof secret.value === 'string' && secret.value.length >= MIN_HINTED_SECRET
      ? secret.value.slice(-4)
      : '';
  }
  const visible = 'token' in secret ? secret.token : secret.keyId;
  return visible.slice(-4);
}
