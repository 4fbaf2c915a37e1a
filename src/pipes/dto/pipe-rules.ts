/**
 * The cross-field rules of a pipe create body (DESIGN section 3), written as class-validator
 * constraints so the ValidationPipe reports them in the same 400 as every other problem.
 * Each passes when the value it looks at has the wrong type: the type error is reported on its own
 * path and a second message about the same mistake would only add noise.
 */
import { ValidateBy, ValidationArguments } from 'class-validator';
import { SOURCE_KINDS } from './pipe-source.dto';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** On `source`: exactly one of the four kind objects is present. */
export function HasExactlyOneSourceKind(): PropertyDecorator {
  return ValidateBy({
    name: 'hasExactlyOneSourceKind',
    validator: {
      validate: (source: unknown) =>
        !isRecord(source) || SOURCE_KINDS.filter((kind) => source[kind] !== undefined).length === 1,
      defaultMessage: () => `must contain exactly one source kind (${SOURCE_KINDS.join(', ')})`,
    },
  });
}

/** Names of `destination.columns` that no `fieldMappings[].destinationField` maps to. */
function unmappedColumns(body: object): string[] {
  const { destination, fieldMappings } = body as { destination?: unknown; fieldMappings?: unknown };
  const columns = isRecord(destination) ? destination.columns : undefined;
  if (!Array.isArray(columns) || !Array.isArray(fieldMappings) || !fieldMappings.every(isRecord)) return [];
  const mapped = new Set(fieldMappings.map((mapping) => mapping.destinationField));
  const names = columns.map((column) => (isRecord(column) ? column.name : undefined));
  return [...new Set(names.filter((name): name is string => typeof name === 'string' && !mapped.has(name)))];
}

/** On `fieldMappings`: every destination column is the `destinationField` of some mapping. */
export function MapsEveryDestinationColumn(): PropertyDecorator {
  return ValidateBy({
    name: 'mapsEveryDestinationColumn',
    validator: {
      validate: (_fieldMappings: unknown, args?: ValidationArguments) =>
        unmappedColumns(args?.object ?? {}).length === 0,
      defaultMessage: (args?: ValidationArguments) =>
        `must map every destination column; not mapped: ${unmappedColumns(args?.object ?? {}).join(', ')}`,
    },
  });
}
