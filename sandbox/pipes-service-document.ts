/**
 * The pipes service's request bodies as its vendor publishes them: the OpenAPI document kept in
 * vendor/ (cut to the pipe operations, otherwise as published), compiled for JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1. The simulator checks bodies against it, not against the gateway's
 * own schema, so a gateway that drifts from the service meets the service's 400 in tests.
 *
 * The document is read the way the service reads a body, in three places where the letter of
 * JSON Schema would refuse what the service takes:
 * - `oneOf` is read as `anyOf`: the alternatives are open objects (no `required`, no
 *   `additionalProperties`), so every credentials object fits all of them at once.
 * - a schema with `properties` and no `type` is an object: the service decodes it into one (and
 *   without the type, `null` would fit both alternatives of a nullable object).
 * - an `enum` beside a type that takes `null` takes `null` too: an update clears a field with it.
 * The document declares no `additionalProperties` for a body: a field it does not name is taken,
 * and the service keeps only the fields it names (namedPart). Where the service takes more than
 * the document says, shown by what its own Terraform provider sends it, see takenBeyondIt.
 */
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import published from './vendor/pipes-service-openapi-subset.json';

type Schema = Record<string, unknown>;

export interface BodyProblem {
  path: string;
  message: string;
}

interface Operation {
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
}

const DOCUMENT = published as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const COMPONENTS = '#/components/schemas/';
const ROOT_ID = 'pipes-service';

/** `schema` as the service reads it (see above), its references pointing into `$defs`. */
function asServiceReadsIt(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asServiceReadsIt);
  if (typeof schema !== 'object' || schema === null) return schema;
  const read: Schema = {};
  for (const [keyword, value] of Object.entries(schema as Schema)) {
    if (keyword === '$ref') read.$ref = (value as string).replace(COMPONENTS, '#/$defs/');
    else if (keyword === 'properties') {
      read.properties = Object.fromEntries(
        Object.entries(value as Schema).map(([name, field]) => [name, asServiceReadsIt(field)]),
      );
    } else read[keyword === 'oneOf' ? 'anyOf' : keyword] = asServiceReadsIt(value);
  }
  if (read.properties !== undefined && read.type === undefined) read.type = 'object';
  if (Array.isArray(read.type) && read.type.includes('null') && Array.isArray(read.enum)) {
    if (!read.enum.includes(null)) read.enum = [...(read.enum as unknown[]), null];
  }
  return read;
}

/**
 * The service takes bodies its document refuses: its own Terraform provider sends them. A kinesis
 * `timestamp` as text (`2021-01-01T00:00`) where the document says UNIX seconds; a mysql source of
 * type `planetscalevitess`, a type the provider offers; and updates with only what changed, where
 * the document requires more: a table mapping edit leaves the connection out (sending it again
 * makes the service check the connection again), an unchanged pubsub key is left out.
 */
function takenBeyondIt(schemas: Record<string, Schema>): Record<string, Schema> {
  const read = structuredClone(schemas);
  const propertiesOf = (name: string) => read[name].properties as Record<string, Schema>;
  propertiesOf('ClickPipePostKinesisSource').timestamp = { type: ['integer', 'string', 'null'] };
  const mysqlType = propertiesOf('ClickPipeMutateMySQLSource').type;
  mysqlType.enum = [...(mysqlType.enum as string[]), 'planetscalevitess'];
  for (const name of [
    'ClickPipePatchMySQLSource',
    'ClickPipePatchMongoDBSource',
    'ClickPipePatchPubSubSource',
  ]) {
    delete read[name].required;
  }
  return read;
}

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
// The document's formats: `password` only marks a secret; the others as their RFCs (1123, 3339) write them.
ajv.addFormat('password', true);
ajv.addFormat(
  'hostname',
  /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i,
);
ajv.addFormat(
  'date-time',
  (value: string) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i.test(value) &&
    !Number.isNaN(Date.parse(value)),
);
ajv.addSchema({ $id: ROOT_ID, $defs: asServiceReadsIt(takenBeyondIt(DOCUMENT.components.schemas)) });

/** The path of the pipe operations in the document; `suffix` as in `/{clickPipeId}/settings`. */
const PIPES_PATH = '/v1/organizations/{organizationId}/services/{serviceId}/clickpipes';

/** The name of the schema the document gives the JSON body of an operation. */
export function requestSchemaName(method: string, suffix: string): string {
  const operation = DOCUMENT.paths[`${PIPES_PATH}${suffix}`]?.[method.toLowerCase()];
  const ref = operation?.requestBody?.content['application/json']?.schema.$ref;
  if (ref === undefined) throw new Error(`the document has no JSON body for ${method} ${suffix || '/'}`);
  return ref.slice(COMPONENTS.length);
}

/** Checks a value against a schema of the document (`Name`, or `Name/properties/field`). */
export function documentCheck(schemaPath: string): (value: unknown) => BodyProblem[] {
  const validate = ajv.getSchema(`${ROOT_ID}#/$defs/${schemaPath}`);
  if (validate === undefined) throw new Error(`the document has no schema ${schemaPath}`);
  return (value) => (validate(value) ? [] : problemsOf(validate.errors ?? []));
}

/**
 * One problem per path. Within an `anyOf`, a value of the right type for some alternative is told
 * what is wrong inside it; one that fits no alternative's type is told the types it may have.
 */
function problemsOf(errors: ErrorObject[]): BodyProblem[] {
  const deeper = (at: string) => errors.some((error) => error.instancePath.startsWith(`${at}/`));
  const alternatives = new Set(
    errors.filter((error) => error.keyword === 'anyOf').map((error) => error.instancePath),
  );
  const problems = new Map<string, string>();
  const typesAt = new Map<string, string[]>();
  for (const error of errors) {
    const at = error.instancePath;
    if (alternatives.has(at) && (error.keyword === 'type' || error.keyword === 'anyOf')) {
      if (!deeper(at) && error.keyword === 'type') {
        typesAt.set(at, [...(typesAt.get(at) ?? []), ...[error.params.type as string | string[]].flat()]);
      }
      continue;
    }
    const { path, message } = problemOf(error);
    if (!problems.has(path)) problems.set(path, message);
  }
  for (const [at, types] of typesAt) problems.set(pathOf(at), `must be ${[...new Set(types)].join(' or ')}`);
  return [...problems].map(([path, message]) => ({ path, message }));
}

function problemOf(error: ErrorObject): BodyProblem {
  const path = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as { minimum?: number; maximum?: number };
  switch (error.keyword) {
    case 'required':
      return { path: join(path, String(params.missingProperty)), message: 'is required' };
    case 'type':
      return { path, message: `must be ${[params.type as string | string[]].flat().join(' or ')}` };
    case 'enum': {
      const values = params.allowedValues as Array<string | null>;
      const named = values.filter((value) => value !== null).join(', ');
      return { path, message: `must be one of ${named}${values.includes(null) ? ', or null' : ''}` };
    }
    case 'minimum':
    case 'maximum':
      return {
        path,
        message:
          parent.minimum !== undefined && parent.maximum !== undefined
            ? `must be from ${parent.minimum} to ${parent.maximum}`
            : `must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${String(params.limit)}`,
      };
    case 'minLength':
      return {
        path,
        message:
          params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters`,
      };
    case 'maxLength':
      return { path, message: `must be at most ${String(params.limit)} characters` };
    case 'format':
      return { path, message: `must be a ${String(params.format)}` };
    default:
      return { path, message: error.message ?? 'is not valid' };
  }
}

/** `/source/kafka/0/name` → `source.kafka[0].name`; the body itself is `body`. */
function pathOf(pointer: string): string {
  const path = pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(join, '');
  return path === '' ? 'body' : path;
}

function join(parent: string, segment: string): string {
  if (/^\d+$/.test(segment)) return `${parent}[${segment}]`;
  return parent === '' || parent === 'body' ? segment : `${parent}.${segment}`;
}

function resolved(schema: Schema): Schema[] {
  if (typeof schema.$ref === 'string') return resolved(DOCUMENT.components.schemas[schemaNameOf(schema)]);
  return Array.isArray(schema.oneOf) ? (schema.oneOf as Schema[]).flatMap(resolved) : [schema];
}

const schemaNameOf = (schema: Schema): string => (schema.$ref as string).slice(COMPONENTS.length);

/**
 * The part of `value` the schema names, at every depth (lists are kept whole): what the service
 * keeps of a body. An object whose schema is one of `keptWhole` keeps the names it does not list.
 */
export function namedPart(
  value: Record<string, unknown>,
  schemaName: string,
  keptWhole: readonly string[] = [],
): Record<string, unknown> {
  return namedIn(value, { $ref: `${COMPONENTS}${schemaName}` }, keptWhole);
}

function namedIn(
  value: Record<string, unknown>,
  schema: Schema,
  keptWhole: readonly string[],
): Record<string, unknown> {
  const named = [schema, ...((schema.oneOf ?? []) as Schema[])].filter((each) => each.$ref !== undefined);
  if (named.some((each) => keptWhole.includes(schemaNameOf(each)))) return value;
  const alternatives = resolved(schema);
  const properties = Object.assign(
    {},
    ...alternatives.map((each) => (each.properties ?? {}) as Record<string, Schema>),
  ) as Record<string, Schema>;
  const kept: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (!Object.hasOwn(properties, name)) continue;
    kept[name] = isObject(inner) ? namedIn(inner, properties[name], keptWhole) : inner;
  }
  return kept;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The field names of each alternative of a `oneOf` of objects, e.g. a kafka source's credentials. */
export function alternativeFieldNames(schemaName: string, field: string): string[][] {
  const properties = DOCUMENT.components.schemas[schemaName].properties as Record<string, Schema>;
  return (properties[field].oneOf as Schema[])
    .flatMap(resolved)
    .map((alternative) => Object.keys((alternative.properties ?? {}) as Schema));
}

/** The source kinds a create body's `source` may name. */
export function sourceKindsOf(schemaName: string): string[] {
  const source = (DOCUMENT.components.schemas[schemaName].properties as Record<string, Schema>).source;
  const [sourceSchema] = resolved(source);
  return Object.entries(sourceSchema.properties as Record<string, Schema>)
    .filter(([, field]) => resolved(field).some((each) => each.properties !== undefined))
    .map(([name]) => name);
}
