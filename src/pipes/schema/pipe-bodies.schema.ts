/**
 * The request bodies of the pipes service as the service itself publishes them: the create and
 * update bodies of a pipe, and the bodies of its scaling, state and settings operations. Written
 * from the service's own OpenAPI document (every source kind, field, credential form, value set and
 * range in it) plus the contract's names (`engine_*` settings), so that the gateway refuses what the
 * service would refuse and forwards everything else unchanged.
 *
 * Required-ness is the service's: its schema requires almost nothing, so neither does this one
 * (`source` aside, which the contract's exactly-one-kind rule needs). The rules JSON Schema cannot say
 * are in pipe-body.rules.ts. An update accepts `null` for every field: it clears the value.
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

function object(
  properties: Record<string, JsonSchema>,
  options: { required?: string[]; description?: string } = {},
): JsonSchema {
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    properties,
    ...(options.required?.length ? { required: options.required } : {}),
    additionalProperties: false,
  };
}

/** `schema` that also takes `null` (an enum lists it too, as OpenAPI 3.0 asks). */
function orNull(schema: JsonSchema): JsonSchema {
  const nullable: JsonSchema = { ...schema, nullable: true };
  if (Array.isArray(schema.enum)) nullable.enum = [...(schema.enum as unknown[]), null];
  return nullable;
}

/** Every property at every depth also takes `null`: the update body's rule. Array items do not. */
function nullableFields(schema: JsonSchema): JsonSchema {
  const copy: JsonSchema = { ...schema };
  if (schema.properties) {
    copy.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, field]) => [
        name,
        orNull(nullableFields(field)),
      ]),
    );
  }
  if (schema.items) copy.items = nullableFields(schema.items as JsonSchema);
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
  timestamp: orNull(integer(undefined, undefined, 'UNIX seconds; required with AT_TIMESTAMP.')),
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
  snapshotNumRowsPerPartition: integer(1000),
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

const MYSQL_TYPES = ['mysql', 'rdsmysql', 'auroramysql', 'mariadb', 'rdsmariadb'];
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
  'Must map every destination column.',
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

/**
 * Advanced settings: the service names five of them `clickhouse_*` where the contract says
 * `engine_*`; both are taken, with the same ranges, and forwarded under the name they were sent as.
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
);

const PIPE_NAME = text(undefined, { minLength: 1, maxLength: 255 });

export const CREATE_PIPE_BODY = object(
  {
    name: PIPE_NAME,
    source: object(
      {
        ...Object.fromEntries(
          (
            [
              ['kafka', KAFKA],
              ['objectStorage', OBJECT_STORAGE],
              ['kinesis', KINESIS],
              ['pubsub', PUBSUB],
              ['postgres', POSTGRES],
              ['mysql', MYSQL],
              ['bigquery', BIGQUERY],
              ['mongodb', MONGODB],
            ] as const
          ).map(([kind, schema]) => [kind, kind === 'postgres' ? schema : orNull(schema)]),
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

/** The connection fields an update of a CDC source may change. */
const {
  authentication: _authentication,
  iamRole: _iamRole,
  ...DATABASE_CONNECTION_UPDATE
} = DATABASE_CONNECTION;

const POSTGRES_TABLE_MAPPING_REF = object({
  ...TABLE_MAPPING_NAMES,
  tableEngine: choice(TABLE_ENGINES),
  partitionKey: text(),
  partitionByExpr: text(),
});

export const UPDATE_PIPE_BODY = nullableFields(
  object({
    name: PIPE_NAME,
    source: object({
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
      pubsub: object(
        {
          authentication: choice(['SERVICE_ACCOUNT']),
          ackDeadline: integer(10, 600),
          serviceAccountKey: SERVICE_ACCOUNT,
        },
        { required: ['authentication', 'serviceAccountKey'] },
      ),
      postgres: object({
        ...DATABASE_CONNECTION_UPDATE,
        database: text(),
        settings: object(SYNC_SETTINGS),
        tableMappingsToAdd: list(POSTGRES_TABLE_MAPPING),
        tableMappingsToRemove: list(POSTGRES_TABLE_MAPPING_REF),
      }),
      mysql: object(
        {
          ...DATABASE_CONNECTION_UPDATE,
          authentication: choice(DATABASE_AUTHENTICATION),
          iamRole: text(),
          serverId: integer(1, 4294967295),
          settings: object({ ...SYNC_SETTINGS, useCompression: flag() }),
          tableMappingsToAdd: list(MYSQL_TABLE_MAPPING),
          tableMappingsToRemove: list(
            object(
              { ...TABLE_MAPPING_NAMES, tableEngine: choice(TABLE_ENGINES), partitionKey: text() },
              { required: ['sourceSchemaName', 'sourceTable', 'targetTable'] },
            ),
          ),
        },
        { required: ['host', 'port'] },
      ),
      mongodb: object(
        {
          ...MONGODB_CONNECTION,
          settings: object(SYNC_SETTINGS),
          tableMappingsToAdd: list(MONGODB_TABLE_MAPPING),
          tableMappingsToRemove: list(MONGODB_TABLE_MAPPING),
        },
        { required: ['uri', 'readPreference'] },
      ),
      validateSamples: flag(),
    }),
    destination: object({ columns: COLUMNS }, { description: 'Only `columns` may change.' }),
    fieldMappings: FIELD_MAPPINGS,
    settings: SETTINGS_BODY,
  }),
);

export const PIPE_STATE_COMMANDS = ['start', 'stop', 'resync'] as const;

export const STATE_BODY = object(
  { command: choice(PIPE_STATE_COMMANDS, 'start, stop or resync the pipe.') },
  { required: ['command'] },
);

export const SCALING_UPDATE_BODY = nullableFields(SCALING_BODY);
