/**
 * The request bodies of the pipes service as the service itself publishes them: the create and
 * update bodies of a pipe, and the bodies of its scaling, state and settings operations. Written
 * from the service's own OpenAPI document (every source kind, field, credential form, value set and
 * range in it), what its Terraform provider sends, and the contract's names (`engine_*` settings).
 *
 * The gateway refuses only what no version of the service takes: a known field of the wrong type,
 * a value outside a documented set or range. Where the service's own artifacts (its OpenAPI document,
 * its Terraform provider) disagree, either is taken. Settings it does not know, and a source's
 * create-time fields in an update, are forwarded as sent: the service decides.
 *
 * Required-ness is the service's: its schema requires almost nothing, so neither does this one
 * (`source` aside, which the contract's exactly-one-kind rule needs). An update requires nothing and
 * takes `null` for every field: it clears the value. The rules JSON Schema cannot say are in
 * pipe-body.rules.ts.
 */
import type { JsonSchema } from '../../common/validation/json-schema';

export const SOURCE_KINDS = [
  'kafka',
  'objectStorage',
  'kinesis',
  'pubsub',
  'postgres',
  'mysql',
  'bigquery',
  'mongodb',
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

const text = (description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...extra,
});
const secret = (description: string): JsonSchema => text(`Secret: ${description}`, { writeOnly: true });
const choice = (values: readonly string[], description?: string): JsonSchema =>
  text(description, { enum: [...values] });
const integer = (minimum?: number, maximum?: number, description?: string): JsonSchema => ({
  type: 'integer',
  ...(minimum === undefined ? {} : { minimum }),
  ...(maximum === undefined ? {} : { maximum }),
  ...(description ? { description } : {}),
});
const decimal = (minimum?: number, maximum?: number): JsonSchema => ({
  type: 'number',
  ...(minimum === undefined ? {} : { minimum }),
  ...(maximum === undefined ? {} : { maximum }),
});
const flag = (description?: string): JsonSchema => ({
  type: 'boolean',
  ...(description ? { description } : {}),
});
const list = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});
const texts = (description?: string): JsonSchema => list(text(), description);

/** An object of `properties`; any other field is refused unless `additionalProperties` says what it may be. */
function object(
  properties: Record<string, JsonSchema>,
  options: { required?: string[]; description?: string; additionalProperties?: JsonSchema } = {},
): JsonSchema {
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    properties,
    ...(options.required?.length ? { required: options.required } : {}),
    additionalProperties: options.additionalProperties ?? false,
  };
}

const propertiesOf = (schema: JsonSchema): Record<string, JsonSchema> =>
  schema.properties as Record<string, JsonSchema>;

/** `schema` that also takes `null` (an enum lists it too, as OpenAPI 3.0 asks). */
function orNull(schema: JsonSchema): JsonSchema {
  if (schema.nullable === true) return schema;
  // OpenAPI 3.0 puts `nullable` beside a `type`, so one of the alternatives carries it.
  if (Array.isArray(schema.anyOf)) {
    const [first, ...rest] = schema.anyOf as JsonSchema[];
    return { ...schema, anyOf: [orNull(first), ...rest] };
  }
  const nullable: JsonSchema = { ...schema, nullable: true };
  if (Array.isArray(schema.enum)) nullable.enum = [...(schema.enum as unknown[]), null];
  return nullable;
}

/**
 * `schema` as an update takes it: every property at every depth optional, and `null` too (which
 * clears it). A list's items keep the fields they require: an item is added or removed whole.
 */
function asUpdate(schema: JsonSchema, inItem = false): JsonSchema {
  const { required, ...copy } = schema;
  if (inItem && required !== undefined) copy.required = required;
  if (schema.properties) {
    copy.properties = Object.fromEntries(
      Object.entries(propertiesOf(schema)).map(([name, field]) => [name, orNull(asUpdate(field, inItem))]),
    );
  }
  if (schema.items) copy.items = asUpdate(schema.items as JsonSchema, true);
  return copy;
}

// Value sets of the service.
const TABLE_ENGINES = ['MergeTree', 'ReplacingMergeTree', 'Null'];
const CDC_REPLICATION_MODES = ['cdc', 'snapshot', 'cdc_only'];
const DATABASE_AUTHENTICATION = ['basic', 'IAM_ROLE'];

/** What `credentials` holds for kafka: one of the four forms of the service. */
export const KAFKA_CREDENTIAL_FORMS = [
  ['username', 'password'],
  ['accessKeyId', 'secretKey'],
  ['connectionString'],
  ['certificate', 'privateKey'],
] as const;

const KAFKA_CREDENTIALS = object(
  {
    username: text(),
    password: secret('SASL password (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512).'),
    accessKeyId: text('IAM user access key id (IAM_USER, e.g. MSK).'),
    secretKey: secret('IAM user secret key.'),
    connectionString: secret('Azure Event Hubs connection string, as a whole.'),
    certificate: text('Client certificate (MUTUAL_TLS), PEM.'),
    privateKey: secret('Client private key (MUTUAL_TLS), PEM.'),
  },
  {
    description:
      'One form: {username, password} for PLAIN and SCRAM, {accessKeyId, secretKey} for IAM_USER, ' +
      '{connectionString} for Azure Event Hubs, {certificate, privateKey} for MUTUAL_TLS.',
  },
);
const USER_AND_PASSWORD = object({ username: text(), password: secret('password.') });
const ACCESS_KEY = object({ accessKeyId: text(), secretKey: secret('secret access key.') });
const SERVICE_ACCOUNT = object({
  serviceAccountFile: secret('base64 of a GCP service-account JSON key.'),
});

const KAFKA_AUTHENTICATION = [
  'PLAIN',
  'SCRAM-SHA-256',
  'SCRAM-SHA-512',
  'IAM_ROLE',
  'IAM_USER',
  'MUTUAL_TLS',
];

const KAFKA = object({
  type: choice(['kafka', 'redpanda', 'msk', 'gcmk', 'confluent', 'warpstream', 'azureeventhub', 'dokafka']),
  format: choice(['JSONEachRow', 'Avro', 'AvroConfluent', 'Protobuf']),
  brokers: text('Comma-separated host:port list.'),
  topics: text(),
  consumerGroup: orNull(text()),
  authentication: choice(KAFKA_AUTHENTICATION),
  iamRole: orNull(text()),
  offset: orNull(
    object({
      strategy: choice(['from_beginning', 'from_latest', 'from_timestamp']),
      timestamp: orNull(
        text('UTC to the minute, e.g. 2021-01-01T00:00; required with from_timestamp.', {
          format: 'utc-minute',
        }),
      ),
    }),
  ),
  schemaRegistry: orNull(
    object({
      url: text(),
      authentication: choice(['PLAIN']),
      caCertificate: orNull(text()),
      credentials: USER_AND_PASSWORD,
    }),
  ),
  caCertificate: orNull(text('PEM certificate of the brokers.')),
  reversePrivateEndpointIds: texts(),
  exactlyOnce: orNull(flag()),
  credentials: KAFKA_CREDENTIALS,
});

const OBJECT_STORAGE_AUTHENTICATION = ['IAM_ROLE', 'IAM_USER', 'CONNECTION_STRING', 'SERVICE_ACCOUNT'];

const OBJECT_STORAGE = object({
  type: choice(['s3', 'gcs', 'dospaces', 'azureblobstorage', 'cloudflarer2', 'ovhobjectstorage']),
  format: choice([
    'JSONEachRow',
    'JSONAsObject',
    'CSV',
    'CSVWithNames',
    'TabSeparated',
    'TabSeparatedWithNames',
    'Parquet',
    'Avro',
  ]),
  url: text('May contain wildcards.'),
  delimiter: orNull(text()),
  compression: orNull(choice(['none', 'gzip', 'gz', 'brotli', 'br', 'xz', 'LZMA', 'zstd', 'auto'])),
  isContinuous: orNull(flag()),
  queueUrl: orNull(text()),
  skipInitialLoad: orNull(flag()),
  startAfter: orNull(text()),
  authentication: orNull(choice(OBJECT_STORAGE_AUTHENTICATION)),
  iamRole: orNull(text()),
  connectionString: orNull(secret('Azure connection string, as a whole.')),
  path: orNull(text('May contain wildcards.')),
  azureContainerName: orNull(text()),
  accessKey: orNull(ACCESS_KEY),
  serviceAccountKey: orNull(secret('base64 of a GCP service-account JSON key.')),
});

const KINESIS = object({
  format: choice(['JSONEachRow', 'Avro', 'AvroConfluent']),
  streamName: text(),
  region: text(),
  useEnhancedFanOut: orNull(flag()),
  iteratorType: choice(['TRIM_HORIZON', 'LATEST', 'AT_TIMESTAMP']),
  // The service's schema says UNIX seconds; its Terraform provider sends text (`2021-01-01T00:00`).
  timestamp: orNull({
    description:
      'UNIX seconds, or the text the service takes; required with AT_TIMESTAMP. Forwarded as sent.',
    anyOf: [integer(), text()],
  }),
  authentication: choice(['IAM_ROLE', 'IAM_USER']),
  iamRole: orNull(text()),
  accessKey: orNull(ACCESS_KEY),
});

const PUBSUB = object(
  {
    format: choice(['JSONEachRow', 'Avro', 'Protobuf']),
    projectId: text(),
    topic: text(),
    authentication: choice(['SERVICE_ACCOUNT']),
    seekType: choice(['latest', 'earliest', 'timestamp']),
    seekTimestamp: orNull(text()),
    filter: orNull(text(undefined, { maxLength: 256 })),
    enableOrdering: orNull(flag()),
    ackDeadline: orNull(integer(10, 600)),
    serviceAccountKey: SERVICE_ACCOUNT,
  },
  { required: ['format', 'projectId', 'topic', 'authentication', 'seekType', 'serviceAccountKey'] },
);

/** Connection fields the CDC sources share. */
const DATABASE_CONNECTION = {
  credentials: USER_AND_PASSWORD,
  host: text(),
  port: integer(1, 65535),
  authentication: choice(DATABASE_AUTHENTICATION),
  iamRole: text(),
  tlsHost: text(),
  caCertificate: text(),
  disableTls: flag(),
  skipCertVerification: flag(),
};

const SYNC_SETTINGS = { syncIntervalSeconds: integer(1), pullBatchSize: integer(1) };
const SNAPSHOT_SETTINGS = {
  // At least 1000 in the service's schema, at least 1 in its Terraform provider.
  snapshotNumRowsPerPartition: integer(1),
  snapshotNumberOfParallelTables: integer(1),
};

const TABLE_MAPPING_NAMES = { sourceSchemaName: text(), sourceTable: text(), targetTable: text() };
const TABLE_MAPPING = {
  ...TABLE_MAPPING_NAMES,
  excludedColumns: texts(),
  useCustomSortingKey: flag(),
  sortingKeys: texts(),
  tableEngine: choice(TABLE_ENGINES),
};
const POSTGRES_TABLE_MAPPING = object({
  ...TABLE_MAPPING,
  partitionKey: text(),
  partitionByExpr: text(),
});

const POSTGRES = object({
  type: orNull(
    choice([
      'postgres',
      'supabase',
      'neon',
      'alloydb',
      'planetscale',
      'rdspostgres',
      'aurorapostgres',
      'cloudsqlpostgres',
      'azurepostgres',
      'crunchybridge',
      'tigerdata',
    ]),
  ),
  ...DATABASE_CONNECTION,
  database: text(),
  settings: object({
    ...SYNC_SETTINGS,
    publicationName: text(),
    replicationMode: choice(CDC_REPLICATION_MODES),
    replicationSlotName: text(),
    allowNullableColumns: flag(),
    initialLoadParallelism: integer(1),
    ...SNAPSHOT_SETTINGS,
    enableFailoverSlots: flag(),
    deleteOnMerge: flag(),
  }),
  tableMappings: list(POSTGRES_TABLE_MAPPING),
});

// `planetscalevitess` is in the service's Terraform provider, not yet in its schema.
const MYSQL_TYPES = ['mysql', 'rdsmysql', 'auroramysql', 'planetscalevitess', 'mariadb', 'rdsmariadb'];
const MYSQL_TABLE_MAPPING = object(
  { ...TABLE_MAPPING, partitionKey: text() },
  { required: ['sourceSchemaName', 'sourceTable', 'targetTable'] },
);

const MYSQL = object(
  {
    type: orNull(choice(MYSQL_TYPES)),
    ...DATABASE_CONNECTION,
    serverId: integer(1, 4294967295),
    settings: object(
      {
        ...SYNC_SETTINGS,
        replicationMode: choice(CDC_REPLICATION_MODES),
        replicationMechanism: choice(['GTID', 'FILE_POS']),
        useCompression: flag(),
        allowNullableColumns: flag(),
        initialLoadParallelism: integer(1),
        ...SNAPSHOT_SETTINGS,
        deleteOnMerge: flag(),
      },
      { required: ['replicationMode'] },
    ),
    tableMappings: list(MYSQL_TABLE_MAPPING),
  },
  { required: ['host', 'port', 'settings', 'tableMappings'] },
);

const BIGQUERY = object({
  snapshotStagingPath: text(),
  settings: object({
    replicationMode: choice(['snapshot']),
    allowNullableColumns: flag(),
    initialLoadParallelism: decimal(),
    snapshotNumRowsPerPartition: decimal(),
    snapshotNumberOfParallelTables: decimal(),
  }),
  tableMappings: list(
    object({
      sourceDatasetName: text(),
      sourceTable: text(),
      targetTable: text(),
      excludedColumns: texts(),
      useCustomSortingKey: flag(),
      sortingKeys: texts(),
      tableEngine: choice(TABLE_ENGINES),
    }),
  ),
  credentials: SERVICE_ACCOUNT,
});

const READ_PREFERENCES = ['primary', 'primaryPreferred', 'secondary', 'secondaryPreferred', 'nearest'];
const MONGODB_TABLE_MAPPING = object(
  {
    sourceDatabaseName: text(),
    sourceCollection: text(),
    targetTable: text(),
    tableEngine: choice(TABLE_ENGINES),
  },
  { required: ['sourceDatabaseName', 'sourceCollection', 'targetTable'] },
);
const MONGODB_CONNECTION = {
  credentials: USER_AND_PASSWORD,
  uri: text('Connection URI; a password in it is a secret.'),
  readPreference: choice(READ_PREFERENCES),
  tlsHost: text(),
  disableTls: flag(),
  skipCertVerification: flag(),
  caCertificate: text(),
};

const MONGODB = object(
  {
    ...MONGODB_CONNECTION,
    settings: object(
      {
        ...SYNC_SETTINGS,
        replicationMode: choice(CDC_REPLICATION_MODES),
        ...SNAPSHOT_SETTINGS,
        deleteOnMerge: flag(),
        useJsonNativeFormat: flag(),
      },
      { required: ['replicationMode'] },
    ),
    tableMappings: list(MONGODB_TABLE_MAPPING),
  },
  { required: ['uri', 'readPreference', 'settings', 'tableMappings'] },
);

const COLUMNS = list(object({ name: text(), type: text() }));
const FIELD_MAPPINGS = list(
  object({ sourceField: text(), destinationField: text() }),
  'Which source field fills which destination column; the service says whether each column must be mapped.',
);

const DESTINATION = object({
  database: text(),
  table: text(),
  managedTable: flag('Let the service create and own the table.'),
  tableDefinition: object({
    engine: object({
      type: choice(['MergeTree', 'ReplacingMergeTree', 'SummingMergeTree', 'Null']),
      versionColumnId: orNull(text()),
      columnIds: texts(),
    }),
    sortingKey: texts(),
    partitionBy: text(),
    primaryKey: text(),
  }),
  columns: COLUMNS,
  roles: texts(),
});

/** The service's published bounds. `concurrency` is deprecated by the service but still taken. */
export const SCALING_BODY = object({
  replicas: integer(1, 40),
  concurrency: { ...integer(0, 34), deprecated: true },
  replicaCpuMillicores: integer(125, 2000),
  replicaMemoryGb: decimal(0.5, 8),
});

const SETTINGS_RANGES: Record<string, [number, number]> = {
  streaming_max_insert_wait_ms: [500, 60_000],
  object_storage_concurrency: [1, 35],
  object_storage_polling_interval_ms: [100, 3_600_000],
  object_storage_max_insert_bytes: [10_485_760, 53_687_091_200],
  object_storage_max_file_count: [1, 10_000],
  max_threads: [0, 64],
  max_insert_threads: [0, 16],
  min_insert_block_size_bytes: [0, 10_737_418_240],
  max_download_threads: [0, 32],
  parallel_distributed_insert_select: [0, 2],
};
const ENGINE_SETTINGS = [
  'max_threads',
  'max_insert_threads',
  'min_insert_block_size_bytes',
  'max_download_threads',
  'parallel_distributed_insert_select',
];

/** A setting the gateway does not know: the service adds settings over time. */
const OTHER_SETTING: JsonSchema = {
  description:
    'A setting this schema does not list, forwarded as sent: a string, a number, true or false, or null.',
  anyOf: [text(undefined, { nullable: true }), decimal(), flag()],
};

/**
 * Advanced settings: the service names five of them `clickhouse_*` where the contract says
 * `engine_*`; both are taken, with the same ranges, and forwarded under the name they were sent as.
 * Settings not listed here are forwarded as sent, when they are a JSON scalar or null.
 */
export const SETTINGS_BODY = object(
  Object.fromEntries<JsonSchema>([
    ...Object.entries(SETTINGS_RANGES)
      .filter(([name]) => !ENGINE_SETTINGS.includes(name))
      .map(([name, [min, max]]): [string, JsonSchema] => [name, orNull(integer(min, max))]),
    ...ENGINE_SETTINGS.flatMap((name): Array<[string, JsonSchema]> => {
      const [min, max] = SETTINGS_RANGES[name];
      return [
        [`clickhouse_${name}`, orNull(integer(min, max))],
        [`engine_${name}`, orNull(integer(min, max))],
      ];
    }),
    ['object_storage_use_cluster_function', orNull(flag())],
    ['clickhouse_parallel_view_processing', orNull(flag())],
    ['engine_parallel_view_processing', orNull(flag())],
  ]),
  { additionalProperties: OTHER_SETTING },
);

const PIPE_NAME = text(undefined, { minLength: 1, maxLength: 255 });

/** Each source kind as a create takes it. */
const CREATE_SOURCES: Record<SourceKind, JsonSchema> = {
  kafka: KAFKA,
  objectStorage: OBJECT_STORAGE,
  kinesis: KINESIS,
  pubsub: PUBSUB,
  postgres: POSTGRES,
  mysql: MYSQL,
  bigquery: BIGQUERY,
  mongodb: MONGODB,
};

export const CREATE_PIPE_BODY = object(
  {
    name: PIPE_NAME,
    source: object(
      {
        ...Object.fromEntries(
          SOURCE_KINDS.map((kind) => [
            kind,
            kind === 'postgres' ? CREATE_SOURCES[kind] : orNull(CREATE_SOURCES[kind]),
          ]),
        ),
        validateSamples: flag('Let the service check sample records against the destination.'),
      },
      { description: `Exactly one of ${SOURCE_KINDS.join(', ')}.` },
    ),
    destination: DESTINATION,
    fieldMappings: FIELD_MAPPINGS,
    scaling: SCALING_BODY,
    settings: SETTINGS_BODY,
  },
  { required: ['source'] },
);

/** The connection fields the service documents an update of a postgres source may change. */
const {
  authentication: _authentication,
  iamRole: _iamRole,
  ...POSTGRES_CONNECTION_UPDATE
} = DATABASE_CONNECTION;

/**
 * Per source kind, the fields the service documents an update may change. A bigquery source has
 * none: the service and its Terraform provider update no bigquery pipe.
 */
const CHANGEABLE_SOURCE_FIELDS: Record<Exclude<SourceKind, 'bigquery'>, JsonSchema> = {
  kafka: object({
    authentication: choice(KAFKA_AUTHENTICATION),
    iamRole: text(),
    caCertificate: text(),
    reversePrivateEndpointIds: texts(),
    credentials: KAFKA_CREDENTIALS,
  }),
  objectStorage: object({
    skipInitialLoad: flag(),
    startAfter: text(),
    authentication: choice(OBJECT_STORAGE_AUTHENTICATION),
    iamRole: text(),
    connectionString: secret('Azure connection string, as a whole.'),
    path: text(),
    azureContainerName: text(),
    accessKey: ACCESS_KEY,
    serviceAccountKey: secret('base64 of a GCP service-account JSON key.'),
  }),
  kinesis: object({
    authentication: choice(['IAM_ROLE', 'IAM_USER']),
    iamRole: text(),
    accessKey: ACCESS_KEY,
  }),
  pubsub: object({
    authentication: choice(['SERVICE_ACCOUNT']),
    ackDeadline: integer(10, 600),
    serviceAccountKey: SERVICE_ACCOUNT,
  }),
  postgres: object({
    ...POSTGRES_CONNECTION_UPDATE,
    database: text(),
    settings: object(SYNC_SETTINGS),
    tableMappingsToAdd: list(POSTGRES_TABLE_MAPPING),
    tableMappingsToRemove: list(POSTGRES_TABLE_MAPPING, 'Mappings to remove, named by their tables.'),
  }),
  mysql: object({
    ...DATABASE_CONNECTION,
    serverId: integer(1, 4294967295),
    settings: object({ ...SYNC_SETTINGS, useCompression: flag() }),
    tableMappingsToAdd: list(MYSQL_TABLE_MAPPING),
    tableMappingsToRemove: list(MYSQL_TABLE_MAPPING, 'Mappings to remove, named by their tables.'),
  }),
  mongodb: object({
    ...MONGODB_CONNECTION,
    settings: object(SYNC_SETTINGS),
    tableMappingsToAdd: list(MONGODB_TABLE_MAPPING),
    tableMappingsToRemove: list(MONGODB_TABLE_MAPPING, 'Mappings to remove, named by their tables.'),
  }),
};

const UPDATE_DESTINATION = object({ columns: COLUMNS }, { description: 'Only `columns` may change.' });

/**
 * The update body as the service documents it: only the fields it says an update changes. The
 * gateway takes more (UPDATE_PIPE_BODY); this says which places an update really sets.
 */
export const CHANGEABLE_UPDATE_BODY = object({
  name: PIPE_NAME,
  source: object({ ...CHANGEABLE_SOURCE_FIELDS, validateSamples: flag() }),
  destination: UPDATE_DESTINATION,
  fieldMappings: FIELD_MAPPINGS,
  settings: SETTINGS_BODY,
});

/**
 * A source kind as an update takes it: every field its create takes (the service's own tools send a
 * whole source on each update) and the update's own (table mappings to add and remove).
 */
function updatableSource(kind: keyof typeof CHANGEABLE_SOURCE_FIELDS): JsonSchema {
  const changeable = propertiesOf(CHANGEABLE_SOURCE_FIELDS[kind]);
  const properties = { ...propertiesOf(CREATE_SOURCES[kind]) };
  for (const [name, field] of Object.entries(changeable)) properties[name] ??= field;
  return object(properties, {
    description:
      `Any field of a create's ${kind}, forwarded as sent; the service documents ` +
      `${Object.keys(changeable).join(', ')} as the fields an update changes.`,
  });
}

export const UPDATE_PIPE_BODY = asUpdate(
  object({
    name: PIPE_NAME,
    source: object({
      ...Object.fromEntries(
        Object.keys(CHANGEABLE_SOURCE_FIELDS).map((kind) => [
          kind,
          updatableSource(kind as keyof typeof CHANGEABLE_SOURCE_FIELDS),
        ]),
      ),
      validateSamples: flag(),
    }),
    destination: UPDATE_DESTINATION,
    fieldMappings: FIELD_MAPPINGS,
    settings: SETTINGS_BODY,
  }),
);

export const PIPE_STATE_COMMANDS = ['start', 'stop', 'resync'] as const;

export const STATE_BODY = object(
  { command: choice(PIPE_STATE_COMMANDS, 'start, stop or resync the pipe.') },
  { required: ['command'] },
);

export const SCALING_UPDATE_BODY = asUpdate(SCALING_BODY);
