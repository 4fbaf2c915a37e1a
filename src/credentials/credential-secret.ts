/** What a credential holds once decrypted, per kind. Never leaves the gateway except upstream. */
export interface PipesSecret {
  keyId: string;
  keySecret: string;
}

export interface DashboardsSecret {
  token: string;
}

export type CredentialSecret = PipesSecret | DashboardsSecret;

export function encodeSecret(secret: CredentialSecret): string {
  return JSON.stringify(secret);
}

export function decodeSecret(plaintext: Buffer): CredentialSecret {
  return JSON.parse(plaintext.toString('utf8')) as CredentialSecret;
}

/** The last 4 characters of the key id or token: enough to tell credentials apart, never more. */
export function secretHint(secret: CredentialSecret): string {
  const visible = 'token' in secret ? secret.token : secret.keyId;
  return visible.slice(-4);
}
