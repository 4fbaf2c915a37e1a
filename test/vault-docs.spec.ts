/**
 * docs/vault.md lists the places of the pipes service's bodies where a secret reference may stand:
 * the list is held to what the rule (the redaction's secret fields) makes of the bodies' schemas, so
 * a new secret field of the service cannot be added without its row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonSchema } from '../src/common/validation/json-schema';
import { CREATE_PIPE_BODY, UPDATE_PIPE_BODY } from '../src/pipes/schema/pipe-bodies.schema';
import { isRedactedField } from '../src/redaction/redact';

/** The outermost places of `schema` where a reference may stand, as dotted paths (`[]` a list item). */
function secretPlaces(schema: JsonSchema, path = ''): string[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return [
    ...Object.entries(properties).flatMap(([name, field]) => {
      const at = path === '' ? name : `${path}.${name}`;
      return isRedactedField(name) ? [at] : secretPlaces(field, at);
    }),
    ...(schema.items ? secretPlaces(schema.items as JsonSchema, `${path}[]`) : []),
  ];
}

describe('docs/vault.md', () => {
  const docs = readFileSync(join(__dirname, '..', 'docs', 'vault.md'), 'utf8');

  it('lists every place of the create and update bodies where a reference may stand', () => {
    const section = docs.split('### Where a reference may stand')[1].split('\n#')[0];
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    const listed = rows.flatMap((row) =>
      [...row.split('|')[1].matchAll(/`([^`]+)`/g)].map((match) => match[1]),
    );
    const places = new Set([...secretPlaces(CREATE_PIPE_BODY), ...secretPlaces(UPDATE_PIPE_BODY)]);
    expect(places).toContain('source.kafka.credentials');
    expect(listed.sort()).toEqual([...places].sort());
  });
});
