/**
 * The pipe resource of pipes-api.md section 2 as data: for every field, its type and the contract's
 * three columns (accepted on create, accepted on update, shown in responses). One table drives
 * body checking for both operations and the response projection, so they cannot drift apart.
 */

type Scalar = 'string' | 'integer' | 'number' | 'boolean';
type ValueShape = Scalar | ListShape | ObjectShape;

interface ListShape {
  list: ValueShape;
}

interface ObjectShape {
  fields: Record<string, FieldRule>;
}

interface FieldRule {
  value: ValueShape;
  create: boolean;
  update: boolean;
  /** `secret` fields are stored and used but shown only when a fault asks to echo secrets. */
  response: 'shown' | 'omitted' | 'secret';
  oneOf?: readonly string[];
  range?: readonly [number, number];
}

type BodyMode = 'create' | 'update';

export const SOURCE_KINDS = ['kafka', 'objectStorage', 'kinesis', 'postgres'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

const UPDATABLE = { update: true } as const;
const UPDATABLE_SECRET = { update: true, response: 'secret' } as const;
const UPDATE_ONLY = { create: false, update: true, response: 'omitted' } as const;

function field(value: ValueShape, traits: Partial<Omit<FieldRule, 'value'>> = {}): FieldRule {
  return { value, create: true, update: false, response: 'shown', ...traits };
}

function object(fields: Record<string, FieldRule>): ObjectShape {
  return { fields };
}

function listOf(value: ValueShape): ListShape {
  return { list: value };
}

/** An object none of whose fields has rules of its own: whether it is accepted is decided by its parent. */
function plainObject(fields: Record<string, ValueShape>): ObjectShape {
  return object(
    Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, field(value, UPDATABLE)])),
  );
}

// Values seen on the real service; the contract names only `auto`.
const COMPRESSIONS = ['none', 'gzip', 'gz', 'brotli', 'br', 'xz', 'LZMA', 'zstd', 'auto'] as const;

const CREDENTIALS = plainObject({ username: 'string', password: 'string' });
const ACCESS_KEY = plainObject({ accessKeyId: 'string', secretKey: 'string' });
const TABLE_MAPPING_KEY = {
  sourceSchemaName: 'string',
  sourceTable: 'string',
  targetTable: 'string',
} as const;
const TABLE_MAPPING = plainObject({
  ...TABLE_MAPPING_KEY,
  excludedColumns: listOf('string'),
  useCustomSortingKey: 'boolean',
  sortingKeys: listOf('string'),
});

const KAFKA = object({
  brokers: field('string'),
  topics: field('string'),
  consumerGroup: field('string'),
  iamRole: field('string', UPDATABLE),
  // The real service also takes a strategy (from_beginning, from_latest, from_timestamp).
  offset: field(plainObject({ strategy: 'string', timestamp: 'string' })),
  schemaRegistry: field(
    object({
      url: field('string'),
      caCertificate: field('string'),
      credentials: field(CREDENTIALS, { response: 'secret' }),
    }),
  ),
  caCertificate: field('string', UPDATABLE),
  reversePrivateEndpointIds: field(listOf('string'), UPDATABLE),
  credentials: field(CREDENTIALS, UPDATABLE_SECRET),
});

const OBJECT_STORAGE = object({
  url: field('string'),
  delimiter: field('string'),
  compression: field('string', { oneOf: COMPRESSIONS }),
  isContinuous: field('boolean'),
  queueUrl: field('string'),
  iamRole: field('string', UPDATABLE),
  // Shown in responses although an Azure connection string carries the account key: the real service does so.
  connectionString: field('string', UPDATABLE),
  path: field('string', UPDATABLE),
  azureContainerName: field('string', UPDATABLE),
  accessKey: field(ACCESS_KEY, UPDATABLE_SECRET),
});

const KINESIS = object({
  streamName: field('string'),
  region: field('string'),
  useEnhancedFanOut: field('boolean'),
  timestamp: field('integer'),
  iamRole: field('string', UPDATABLE),
  accessKey: field(ACCESS_KEY, UPDATABLE_SECRET),
});

const POSTGRES_SETTINGS = object({
  syncIntervalSeconds: field('integer', UPDATABLE),
  pullBatchSize: field('integer', UPDATABLE),
  publicationName: field('string'),
  replicationSlotName: field('string'),
  allowNullableColumns: field('boolean'),
  initialLoadParallelism: field('integer'),
  snapshotNumRowsPerPartition: field('integer'),
  snapshotNumberOfParallelTables: field('integer'),
  enableFailoverSlots: field('boolean'),
});

const POSTGRES = object({
  host: field('string', UPDATABLE),
  port: field('integer', UPDATABLE),
  database: field('string', UPDATABLE),
  credentials: field(CREDENTIALS, UPDATABLE_SECRET),
  settings: field(POSTGRES_SETTINGS, UPDATABLE),
  tableMappings: field(listOf(TABLE_MAPPING)),
  tableMappingsToAdd: field(listOf(TABLE_MAPPING), UPDATE_ONLY),
  tableMappingsToRemove: field(listOf(plainObject(TABLE_MAPPING_KEY)), UPDATE_ONLY),
});

const SOURCE = object({
  validateSamples: field('boolean', { update: true, response: 'omitted' }),
  kafka: field(KAFKA, UPDATABLE),
  objectStorage: field(OBJECT_STORAGE, UPDATABLE),
  kinesis: field(KINESIS, UPDATABLE),
  postgres: field(POSTGRES, UPDATABLE),
});

const DESTINATION = object({
  database: field('string'),
  table: field('string'),
  managedTable: field('boolean'),
  tableDefinition: field(
    plainObject({
      engine: plainObject({ versionColumnId: 'string', columnIds: listOf('string') }),
      sortingKey: listOf('string'),
      partitionBy: 'string',
      primaryKey: 'string',
    }),
  ),
  columns: field(listOf(plainObject({ name: 'string', type: 'string' })), UPDATABLE),
  roles: field(listOf('string'), { response: 'omitted' }),
});

// Bounds seen on the real service.
const SCALING = object({
  replicas: field('integer', { range: [1, 40] }),
  concurrency: field('integer', { range: [0, 34] }),
  replicaCpuMillicores: field('integer', { range: [125, 2000] }),
  replicaMemoryGb: field('number', { range: [0.5, 8] }),
});

const ADVANCED_SETTINGS = plainObject({
  streaming_max_insert_wait_ms: 'integer',
  object_storage_concurrency: 'integer',
  object_storage_polling_interval_ms: 'integer',
  object_storage_max_insert_bytes: 'integer',
  object_storage_max_file_count: 'integer',
  engine_max_threads: 'integer',
  engine_max_insert_threads: 'integer',
  engine_min_insert_block_size_bytes: 'integer',
  engine_max_download_threads: 'integer',
  engine_parallel_distributed_insert_select: 'integer',
  object_storage_use_cluster_function: 'boolean',
  engine_parallel_view_processing: 'boolean',
});

const PIPE_BODY = object({
  name: field('string', UPDATABLE),
  scaling: field(SCALING),
  source: field(SOURCE, UPDATABLE),
  destination: field(DESTINATION, UPDATABLE),
  fieldMappings: field(listOf(plainObject({ sourceField: 'string', destinationField: 'string' })), UPDATABLE),
  settings: field(ADVANCED_SETTINGS, UPDATABLE),
});

/** Type and acceptance problems of a create or update body, each as `path: problem`. */
export function pipeBodyProblems(body: unknown, mode: BodyMode): string[] {
  const problems: string[] = [];
  checkValue(body, PIPE_BODY, mode, '', problems);
  return problems;
}

function checkValue(
  value: unknown,
  shape: ValueShape,
  mode: BodyMode,
  path: string,
  problems: string[],
): void {
  const where = path === '' ? 'body' : path;
  if (typeof shape === 'string') {
    if (!isScalar(value, shape)) problems.push(`${where}: must be ${SCALAR_NAMES[shape]}`);
    return;
  }
  if ('list' in shape) {
    if (!Array.isArray(value)) problems.push(`${where}: must be an array`);
    else value.forEach((item, index) => checkValue(item, shape.list, mode, `${path}[${index}]`, problems));
    return;
  }
  if (!isRecord(value)) {
    problems.push(`${where}: must be an object`);
    return;
  }
  for (const [name, inner] of Object.entries(value)) {
    const innerPath = path === '' ? name : `${path}.${name}`;
    const rule = shape.fields[name];
    if (rule === undefined) problems.push(`${innerPath}: unknown field`);
    else if (!rule[mode])
      problems.push(`${innerPath}: ${mode === 'update' ? 'cannot be updated' : 'accepted on update only'}`);
    else {
      checkValue(inner, rule.value, mode, innerPath, problems);
      if (rule.oneOf && typeof inner === 'string' && !rule.oneOf.includes(inner)) {
        problems.push(`${innerPath}: must be one of ${rule.oneOf.join(', ')}`);
      }
      if (rule.range && typeof inner === 'number' && (inner < rule.range[0] || inner > rule.range[1])) {
        problems.push(`${innerPath}: must be from ${rule.range[0]} to ${rule.range[1]}`);
      }
    }
  }
}

const SCALAR_NAMES: Record<Scalar, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
};

function isScalar(value: unknown, scalar: Scalar): boolean {
  switch (scalar) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === scalar;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The pipe fields of a stored body as the service shows them: write-only fields dropped, secrets
 * only when a fault asks to echo them.
 */
export function shownPipeFields(
  stored: Record<string, unknown>,
  echoSecrets: boolean,
): Record<string, unknown> {
  return projectForResponse(stored, PIPE_BODY, echoSecrets) as Record<string, unknown>;
}

function projectForResponse(value: unknown, shape: ValueShape, echoSecrets: boolean): unknown {
  if (typeof shape === 'string') return value;
  if ('list' in shape) {
    return Array.isArray(value)
      ? value.map((item) => projectForResponse(item, shape.list, echoSecrets))
      : value;
  }
  if (!isRecord(value)) return value;
  const shown: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    const rule = shape.fields[name];
    if (rule === undefined || rule.response === 'omitted') continue;
    if (rule.response === 'secret' && !echoSecrets) continue;
    shown[name] = projectForResponse(inner, rule.value, echoSecrets);
  }
  return shown;
}
