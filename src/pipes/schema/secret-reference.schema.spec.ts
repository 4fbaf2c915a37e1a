import type { JsonSchema } from '../../common/validation/json-schema';
import { isRedactedField } from '../../redaction/redact';
import { CREATE_PIPE_BODY, UPDATE_PIPE_BODY } from './pipe-bodies.schema';
import { withSecretReferences } from './secret-reference.schema';

const REFERENCE = { $ref: '#/components/schemas/SecretReference' };

const takesReference = (schema: JsonSchema): boolean =>
  Array.isArray(schema.oneOf) &&
  schema.oneOf.some((branch) => JSON.stringify(branch) === JSON.stringify(REFERENCE));

/** `schema` with every reference alternative taken out again. */
function withoutReferences(schema: JsonSchema): JsonSchema {
  if (takesReference(schema)) {
    const { oneOf, ...annotations } = schema;
    return { ...annotations, ...withoutReferences((oneOf as JsonSchema[])[0]) };
  }
  const copy = { ...schema };
  if (schema.properties) {
    copy.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, field]) => [
        name,
        withoutReferences(field),
      ]),
    );
  }
  if (schema.items) copy.items = withoutReferences(schema.items as JsonSchema);
  if (typeof schema.additionalProperties === 'object') {
    copy.additionalProperties = withoutReferences(schema.additionalProperties as JsonSchema);
  }
  if (Array.isArray(schema.anyOf)) copy.anyOf = (schema.anyOf as JsonSchema[]).map(withoutReferences);
  return copy;
}

/** Every place of `schema` as a dotted path (`[]` a list item), and whether it takes a reference. */
function places(schema: JsonSchema, path = ''): [string, boolean][] {
  const value = takesReference(schema) ? (schema.oneOf as JsonSchema[])[0] : schema;
  const here: [string, boolean][] = path === '' ? [] : [[path, takesReference(schema)]];
  const properties = (value.properties ?? {}) as Record<string, JsonSchema>;
  return [
    ...here,
    ...Object.entries(properties).flatMap(([name, field]) =>
      places(field, path === '' ? name : `${path}.${name}`),
    ),
    ...(value.items ? places(value.items as JsonSchema, `${path}[]`) : []),
  ];
}

describe.each([
  ['create', CREATE_PIPE_BODY],
  ['update', UPDATE_PIPE_BODY],
])('the %s body as the OpenAPI document types it', (_, body) => {
  const typed = withSecretReferences(body);
  const all = places(typed);

  it('takes a reference at a field named like a secret and at every place inside one, nowhere else', () => {
    // The rule, spelled out on the paths: a place is a secret place when a segment of its path is.
    const secretPath = (path: string) =>
      path.split('.').some((segment) => isRedactedField(segment.replace(/\[\]$/g, '')));
    expect(all.filter(([, reference]) => reference).map(([path]) => path)).toEqual(
      all.map(([path]) => path).filter(secretPath),
    );
    expect(all.map(([path]) => path)).toEqual(expect.arrayContaining(['source.kinesis.accessKey.secretKey']));
    expect(all).toContainEqual(['source.kafka.credentials', true]);
    expect(all).toContainEqual(['source.kafka.brokers', false]);
    expect(all).toContainEqual(['name', false]);
  });

  it('differs from the schema the gateway validates with only by those references', () => {
    const before = structuredClone(body);
    expect(withoutReferences(typed)).toEqual(body);
    expect(body).toEqual(before);
    expect(JSON.stringify(body)).not.toContain('SecretReference');
  });
});
