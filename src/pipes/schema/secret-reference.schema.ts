/**
 * How the OpenAPI document types the `{"$secret": "<name or id>"}` references of a pipe body: at
 * every place the gateway takes one (`isSecretPlace`), the value's schema becomes "the value or a
 * `SecretReference`", so a typed client takes a reference there and nowhere else. The document
 * alone shows these alternatives: the gateway checks a body against its schema with the values in
 * place.
 */
import { schemaRef, type JsonSchema } from '../../common/validation/json-schema';
import { isSecretPlace } from '../../vault/references/secret-references';

export const SECRET_REFERENCE: JsonSchema = {
  type: 'object',
  description:
    'A vault secret of the tenant, standing for its value where the pipes service takes a secret; the ' +
    'value is put in for the upstream call only.',
  required: ['$secret'],
  properties: {
    $secret: { type: 'string', minLength: 1, description: "The secret's name or id.", example: 'kafka-prod' },
  },
  additionalProperties: false,
};

const secretReference = schemaRef('SecretReference', SECRET_REFERENCE);

/** A copy of the body schema `schema` with a reference taken at each secret place. */
export function withSecretReferences(schema: JsonSchema): JsonSchema {
  return inside(schema, false);
}

/** `schema` with its fields, items and alternatives typed for references; `secret` if it is in a secret place. */
function inside(schema: JsonSchema, secret: boolean): JsonSchema {
  const copy = { ...schema };
  if (schema.properties) {
    copy.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, field]) => [
        name,
        at(field, isSecretPlace(name, secret)),
      ]),
    );
  }
  if (schema.items) copy.items = at(schema.items as JsonSchema, secret);
  // Outside a secret place, whether a field it does not list is one depends on the field's name.
  if (typeof schema.additionalProperties === 'object' && secret) {
    copy.additionalProperties = at(schema.additionalProperties as JsonSchema, true);
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[keyword])) {
      copy[keyword] = (schema[keyword] as JsonSchema[]).map((branch) => inside(branch, secret));
    }
  }
  return copy;
}

/** The schema of a value at a place: in a secret place, the value or a reference. */
function at(schema: JsonSchema, secret: boolean): JsonSchema {
  const value = inside(schema, secret);
  if (!secret) return value;
  const { description, ...rest } = value;
  return { ...(description === undefined ? {} : { description }), oneOf: [rest, secretReference] };
}
