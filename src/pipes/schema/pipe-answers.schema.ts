/**
 * What the pipes routes answer: the pipes API's envelope as it sent it, secrets removed. The
 * service owns these shapes, so they are described loosely (fields it adds pass through) and only
 * document the answers; nothing is checked against them.
 */
import { schemaRef, type JsonSchema } from '../../common/validation/json-schema';

const open = (description: string, properties: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: 'object',
  description,
  properties,
  additionalProperties: true,
});

const PIPE_SETTINGS = open(
  "The pipe's advanced settings, as the service names them (`clickhouse_*` or `engine_*`).",
);

const PIPE = open(
  'A pipe as the pipes API describes it. Credentials, access keys and connection strings are never in it.',
  {
    id: { type: 'string', format: 'uuid' },
    serviceId: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    state: {
      type: 'string',
      description: 'e.g. Provisioning, Running, Stopped, Failed.',
      example: 'Running',
    },
    scaling: open('replicas, replicaCpuMillicores, replicaMemoryGb.'),
    source: open(
      'The source kind object (`kafka`, `objectStorage`, `kinesis`, `postgres`, …), without secrets.',
    ),
    destination: open('database, table, columns, tableDefinition.'),
    fieldMappings: {
      type: 'array',
      items: open('A source field and the column it fills.', {
        sourceField: { type: 'string' },
        destinationField: { type: 'string' },
      }),
    },
    settings: PIPE_SETTINGS,
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
);

/** `{status, requestId}` and `result` as `result` describes it. */
function envelope(description: string, result?: JsonSchema): JsonSchema {
  return {
    type: 'object',
    description,
    required: ['status', 'requestId', ...(result ? ['result'] : [])],
    properties: {
      status: { type: 'integer', description: "The pipes API's HTTP status.", example: 200 },
      requestId: { type: 'string', description: "The pipes API's id for the call." },
      ...(result ? { result } : {}),
    },
    additionalProperties: true,
  };
}

const pipe = schemaRef('Pipe', PIPE);

export const PIPE_ENVELOPE = schemaRef('PipeEnvelope', envelope('The pipes API envelope with a pipe.', pipe));
export const PIPE_LIST_ENVELOPE = schemaRef(
  'PipeListEnvelope',
  envelope("The pipes API envelope with the service's pipes.", { type: 'array', items: pipe }),
);
export const PIPE_SETTINGS_ENVELOPE = schemaRef(
  'PipeSettingsEnvelope',
  envelope("The pipes API envelope with the pipe's settings.", schemaRef('PipeSettings', PIPE_SETTINGS)),
);
export const PIPES_EMPTY_ENVELOPE = schemaRef(
  'PipesEmptyEnvelope',
  envelope('The pipes API envelope of a call that answers no result.'),
);
