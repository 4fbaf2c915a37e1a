/**
 * Redaction goes by field name; the pipes service's own OpenAPI document (sandbox/vendor, kept as
 * the vendor publishes it) says which of its fields are secret. This ties the two: every field the
 * document marks as a secret, and every place docs/vault.md lists as one, is blanked by the
 * redaction that answers, history, audit and logs use, a canary per field.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactParsedJson, redactSecrets } from './redact';

type Schema = Record<string, unknown>;

const DOCUMENT = JSON.parse(
  readFileSync(join(__dirname, '../../sandbox/vendor/pipes-service-openapi-subset.json'), 'utf8'),
) as { components: { schemas: Record<string, Schema> } };

// The document marks two fields `format: password`; the rest it leaves to their names. These name
// parts mean a secret; the names below hold one of them but are ClickHouse table keys or ids.
const SECRET_NAME = /password|secret|token|credential|connectionstring|privatekey|serviceaccount|key$/i;
const NOT_SECRET = new Set([
  'sortingKey',
  'sortingKeys',
  'primaryKey',
  'partitionKey',
  'useCustomSortingKey',
  'reversePrivateEndpointIds',
]);

function isMarkedSecret(name: string, schema: Schema): boolean {
  if (schema.format === 'password' || schema.writeOnly === true) return true;
  return SECRET_NAME.test(name) && !NOT_SECRET.has(name);
}

function resolved(schema: Schema): Schema[] {
  if (typeof schema.$ref === 'string') {
    return resolved(DOCUMENT.components.schemas[schema.$ref.split('/').pop()!]);
  }
  const alternatives = [schema.oneOf, schema.anyOf, schema.allOf].flatMap((each) =>
    Array.isArray(each) ? (each as Schema[]) : [],
  );
  return alternatives.length > 0 ? alternatives.flatMap(resolved) : [schema];
}

/** Every path under `schema` the document marks secret (and every leaf inside a secret object). */
function secretPaths(schema: Schema, path: string[], inSecret: boolean, seen: Set<Schema>): string[][] {
  const found: string[][] = [];
  for (const each of resolved(schema)) {
    if (seen.has(each)) continue;
    const inner = new Set(seen).add(each);
    if (each.items !== undefined)
      found.push(...secretPaths(each.items as Schema, [...path, '0'], inSecret, inner));
    const properties = (each.properties ?? {}) as Record<string, Schema>;
    const names = Object.keys(properties);
    if (names.length === 0 && inSecret) found.push(path);
    for (const name of names) {
      const secret = inSecret || isMarkedSecret(name, properties[name]);
      const below = secretPaths(properties[name], [...path, name], secret, inner);
      found.push(...(below.length === 0 && secret ? [[...path, name]] : below));
    }
  }
  return found;
}

/** The places docs/vault.md's "Where a reference may stand" table lists. */
function documentedPlaces(): string[][] {
  const docs = readFileSync(join(__dirname, '../../docs/vault.md'), 'utf8');
  const section = docs.slice(docs.indexOf('### Where a reference may stand'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| place')));
  return [...table.matchAll(/^\| (.+?) \|/gm)]
    .flatMap(([, cell]) => [...cell.matchAll(/`([\w.]+)`/g)].map(([, place]) => place.split('.')))
    .filter((place) => place[0] === 'source');
}

function bodyWith(path: string[], value: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  let at: Record<string, unknown> | unknown[] = body;
  path.forEach((segment, index) => {
    const last = index === path.length - 1;
    const next = last ? value : /^\d+$/.test(path[index + 1]) ? [] : {};
    if (Array.isArray(at)) at[Number(segment)] = next;
    else at[segment] = next;
    at = next;
  });
  return body;
}

const paths = (schema: string) =>
  secretPaths(DOCUMENT.components.schemas[schema], [], false, new Set()).map((path) => path.join('.'));
const marked = [...new Set([...paths('ClickPipePostRequest'), ...paths('ClickPipePatchRequest')])].sort();
const documented = documentedPlaces().map((place) => place.join('.'));

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
      const body = bodyWith(path.split('.'), canary);
      // History, audit and logs redact a copy; answers are redacted in place, without the vault.
      expect(JSON.stringify(redactSecrets(body))).not.toContain(canary);
      expect(JSON.stringify(redactParsedJson(structuredClone(body)))).not.toContain(canary);
    },
  );
});
