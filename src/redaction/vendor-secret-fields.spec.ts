/**
 * Redaction goes by field name; the pipes service's own OpenAPI document (sandbox/vendor, kept as
 * the vendor publishes it) says which of its fields are secret. This ties the two: every field the
 * document marks as a secret, and every place docs/vault.md lists as one, is blanked by the
 * redaction that answers, history, audit and logs use, a canary per field.
 * (test/secret-fields.e2e-spec.ts plants the same canaries through a running gateway.)
 */
import { bodyWith, documentedSecretPlaces, markedSecretPaths } from '../../test/support/secret-fields';
import { redactParsedJson, redactSecrets } from './redact';

const marked = markedSecretPaths();
const documented = documentedSecretPlaces();

describe('every secret field of the pipes service is known to the redaction', () => {
  it('finds the secrets the document marks and the places the docs list', () => {
    expect(marked).toEqual(
      expect.arrayContaining([
        'source.kafka.credentials.password',
        'source.kafka.credentials.privateKey',
        'source.kafka.credentials.secretKey',
        'source.kafka.credentials.connectionString',
        'source.objectStorage.serviceAccountKey',
        'source.objectStorage.connectionString',
        'source.kinesis.accessKey.secretKey',
        'source.pubsub.serviceAccountKey',
      ]),
    );
    expect(documented).toEqual(
      expect.arrayContaining(['source.kafka.credentials', 'source.mysql.credentials']),
    );
  });

  it.each([...marked, ...documented].map((path) => [path]))(
    'blanks %s wherever it is kept or answered',
    (path) => {
      const canary = `CANARY-${path.replace(/\W/g, '-')}-0123456789`;
      const body = bodyWith(path, canary);
      // History, audit and logs redact a copy; answers are redacted in place, without the vault.
      expect(JSON.stringify(redactSecrets(body))).not.toContain(canary);
      expect(JSON.stringify(redactParsedJson(structuredClone(body)))).not.toContain(canary);
    },
  );
});
