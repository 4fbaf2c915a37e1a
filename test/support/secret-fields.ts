/**
 * The secret fields of a pipe body, as the pipes service's own OpenAPI document (sandbox/vendor,
 * kept as the vendor publishes it) marks them and as docs/vault.md's "Where a reference may stand"
 * table lists them: the list the redaction specs plant a canary at, one field at a time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Schema = Record<string, unknown>;

const ROOT = join(__dirname, '../..');

const DOCUMENT = JSON.parse(
  readFileSync(join(ROOT, 'sandbox/vendor/pipes-service-openapi-subset.json'), 'utf8'),
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

const pathsUnder = (schema: string): string[] =>
  secretPaths(DOCUMENT.components.schemas[schema], [], false, new Set()).map((path) => path.join('.'));

/** Dotted paths (`source.kafka.credentials.password`) of the secrets in a create or update body. */
export function markedSecretPaths(): string[] {
  return [...new Set([...pathsUnder('ClickPipePostRequest'), ...pathsUnder('ClickPipePatchRequest')])].sort();
}

/** The places docs/vault.md's "Where a reference may stand" table lists, dotted. */
export function documentedSecretPlaces(): string[] {
  const docs = readFileSync(join(ROOT, 'docs/vault.md'), 'utf8');
  const section = docs.slice(docs.indexOf('### Where a reference may stand'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| place')));
  return [...table.matchAll(/^\| (.+?) \|/gm)]
    .flatMap(([, cell]) => [...cell.matchAll(/`([\w.]+)`/g)].map(([, place]) => place))
    .filter((place) => place.startsWith('source.'));
}

/** A body holding `value` at the dotted `path` and nothing else (a digit segment is a list index). */
export function bodyWith(path: string, value: unknown): Record<string, unknown> {
  const segments = path.split('.');
  const body: Record<string, unknown> = {};
  let at: Record<string, unknown> | unknown[] = body;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    const next = last ? value : /^\d+$/.test(segments[index + 1]) ? [] : {};
    if (Array.isArray(at)) at[Number(segment)] = next;
    else at[segment] = next;
    at = next as Record<string, unknown> | unknown[];
  });
  return body;
}
