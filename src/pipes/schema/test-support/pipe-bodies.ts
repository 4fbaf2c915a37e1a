/**
 * Valid pipe request bodies, shared by unit and end-to-end tests.
 *
 * `validCreateBody` and `validUpdateBody` give one body per source kind of the contract, carrying every
 * field the contract lists, secrets included. A real pipe would pick one way to authenticate (an IAM
 * role or keys), not both. The corpus below them is shaped the way the service itself and its
 * infrastructure-as-code provider publish bodies: every source kind, authentication and credential
 * form, as callers really send them.
 *
 * `secret` replaces the value of every secret (passwords, secret keys, the account key inside an
 * Azure connection string), so a test can plant one canary and search every output for it.
 */
export type PipeBody = Record<string, any>;
export type ContractSourceKind = 'kafka' | 'objectStorage' | 'kinesis' | 'postgres';

export interface FixtureOptions {
  secret?: string;
}

const DEFAULT_SECRETS = {
  kafkaPassword: 'kafka-pa55word-example',
  registryPassword: 'registry-pa55word-example',
  awsSecretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  azureAccountKey: 'ZXhhbXBsZS1henVyZS1hY2NvdW50LWtleQ==',
  postgresPassword: 'postgres-pa55word-example',
};

function secrets(options: FixtureOptions): typeof DEFAULT_SECRETS {
  const { secret } = options;
  if (secret === undefined) return DEFAULT_SECRETS;
  return Object.fromEntries(
    Object.keys(DEFAULT_SECRETS).map((name) => [name, secret]),
  ) as typeof DEFAULT_SECRETS;
}

const CA_CERTIFICATE = [
  '-----BEGIN CERTIFICATE-----',
  'MIIBszCCAVmgAwIBAgIUZXhhbXBsZS1jZXJ0aWZpY2F0ZTAKBggqhkjOPQQDAjAb',
  '-----END CERTIFICATE-----',
].join('\n');

const azureConnectionString = (accountKey: string): string =>
  `DefaultEndpointsProtocol=https;AccountName=examplestore;AccountKey=${accountKey};EndpointSuffix=core.windows.net`;

function sourceFor(kind: ContractSourceKind, s: typeof DEFAULT_SECRETS): PipeBody {
  switch (kind) {
    case 'kafka':
      return {
        validateSamples: true,
        kafka: {
          brokers:
            'b-1.orders.kafka.eu-west-1.amazonaws.com:9096,b-2.orders.kafka.eu-west-1.amazonaws.com:9096',
          topics: 'orders',
          consumerGroup: 'clickpipes-orders',
          iamRole: 'arn:aws:iam::123456789012:role/clickpipes-msk',
          offset: { strategy: 'from_timestamp', timestamp: '2025-01-31T10:15Z' },
          schemaRegistry: {
            url: 'https://schema-registry.example.com:8081',
            caCertificate: CA_CERTIFICATE,
            credentials: { username: 'registry-reader', password: s.registryPassword },
          },
          caCertificate: CA_CERTIFICATE,
          reversePrivateEndpointIds: ['rpe-0a1b2c3d4e5f'],
          credentials: { username: 'orders-consumer', password: s.kafkaPassword },
        },
      };
    case 'objectStorage':
      return {
        validateSamples: false,
        objectStorage: {
          url: 'https://example-events.s3.eu-west-1.amazonaws.com/events/*.json',
          delimiter: ',',
          compression: 'auto',
          isContinuous: true,
          queueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/example-events',
          iamRole: 'arn:aws:iam::123456789012:role/clickpipes-s3',
          connectionString: azureConnectionString(s.azureAccountKey),
          path: 'events/2025/*.json',
          azureContainerName: 'events',
          accessKey: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: s.awsSecretKey },
        },
      };
    case 'kinesis':
      return {
        validateSamples: true,
        kinesis: {
          streamName: 'clickstream',
          region: 'eu-west-1',
          useEnhancedFanOut: false,
          timestamp: 1738318500,
          iamRole: 'arn:aws:iam::123456789012:role/clickpipes-kinesis',
          accessKey: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: s.awsSecretKey },
        },
      };
    case 'postgres':
      return {
        validateSamples: false,
        postgres: {
          host: 'shop-db.example.com',
          port: 5432,
          database: 'shop',
          credentials: { username: 'clickpipes_replicator', password: s.postgresPassword },
          settings: {
            syncIntervalSeconds: 60,
            pullBatchSize: 100000,
            publicationName: 'clickpipes_pub',
            replicationSlotName: 'clickpipes_slot',
            allowNullableColumns: true,
            initialLoadParallelism: 4,
            snapshotNumRowsPerPartition: 100000,
            snapshotNumberOfParallelTables: 1,
            enableFailoverSlots: false,
          },
          tableMappings: [
            {
              sourceSchemaName: 'public',
              sourceTable: 'orders',
              targetTable: 'public_orders',
              excludedColumns: ['internal_note'],
              useCustomSortingKey: true,
              sortingKeys: ['id', 'created_at'],
            },
            { sourceSchemaName: 'public', sourceTable: 'customers', targetTable: 'public_customers' },
          ],
        },
      };
  }
}

const COLUMNS = [
  { name: 'id', type: 'UInt64' },
  { name: 'created_at', type: 'DateTime64(3)' },
  { name: 'payload', type: 'String' },
];

const FIELD_MAPPINGS = [
  { sourceField: 'id', destinationField: 'id' },
  { sourceField: 'createdAt', destinationField: 'created_at' },
  { sourceField: 'payload', destinationField: 'payload' },
];

const SETTINGS = {
  streaming_max_insert_wait_ms: 5000,
  object_storage_concurrency: 4,
  object_storage_polling_interval_ms: 30000,
  object_storage_max_insert_bytes: 10737418240,
  object_storage_max_file_count: 100,
  engine_max_threads: 8,
  engine_max_insert_threads: 4,
  engine_min_insert_block_size_bytes: 1048576,
  engine_max_download_threads: 4,
  engine_parallel_distributed_insert_select: 2,
  object_storage_use_cluster_function: false,
  engine_parallel_view_processing: true,
};

/** A complete, valid create body for a pipe of `kind`; a fresh object on every call. */
export function validCreateBody(kind: ContractSourceKind, options: FixtureOptions = {}): PipeBody {
  const body: PipeBody = {
    name: `${kind} to orders`,
    source: sourceFor(kind, secrets(options)),
    destination: {
      database: 'analytics',
      table: `${kind}_orders`,
      managedTable: true,
      tableDefinition: {
        engine: { versionColumnId: 'created_at', columnIds: ['id'] },
        sortingKey: ['id', 'created_at'],
        partitionBy: 'toYYYYMM(created_at)',
        primaryKey: 'id',
      },
      columns: COLUMNS,
      roles: ['analytics_writer'],
    },
    fieldMappings: FIELD_MAPPINGS,
    scaling: { replicas: 2, concurrency: 1, replicaCpuMillicores: 500, replicaMemoryGb: 2 },
    settings: SETTINGS,
  };
  return structuredClone(body);
}

function updateSourceFor(kind: ContractSourceKind, s: typeof DEFAULT_SECRETS): PipeBody {
  switch (kind) {
    case 'kafka':
      return {
        validateSamples: false,
        kafka: {
          iamRole: 'arn:aws:iam::123456789012:role/clickpipes-msk-v2',
          caCertificate: CA_CERTIFICATE,
          reversePrivateEndpointIds: ['rpe-0a1b2c3d4e5f', 'rpe-6a7b8c9d0e1f'],
          credentials: { username: 'orders-consumer', password: s.kafkaPassword },
        },
      };
    case 'objectStorage':
      return {
        validateSamples: true,
        objectStorage: {
          iamRole: 'arn:aws:iam::123456789012:role/clickpipes-s3-v2',
          connectionString: azureConnectionString(s.azureAccountKey),
          path: 'events/2026/*.json',
          azureContainerName: 'events-v2',
          accessKey: { accessKeyId: 'AKIAI44QH8DHBEXAMPLE', secretKey: s.awsSecretKey },
        },
      };
    case 'kinesis':
      return {
        validateSamples: true,
        kinesis: {
          iamRole: 'arn:aws:iam::123456789012:role/clickpipes-kinesis-v2',
          accessKey: { accessKeyId: 'AKIAI44QH8DHBEXAMPLE', secretKey: s.awsSecretKey },
        },
      };
    case 'postgres':
      return {
        validateSamples: false,
        postgres: {
          host: 'shop-db-replica.example.com',
          port: 5433,
          database: 'shop',
          credentials: { username: 'clickpipes_replicator', password: s.postgresPassword },
          settings: { syncIntervalSeconds: 120, pullBatchSize: 50000 },
          tableMappingsToAdd: [
            {
              sourceSchemaName: 'public',
              sourceTable: 'invoices',
              targetTable: 'public_invoices',
              excludedColumns: ['pdf_blob'],
              useCustomSortingKey: false,
            },
          ],
          tableMappingsToRemove: [
            { sourceSchemaName: 'public', sourceTable: 'customers', targetTable: 'public_customers' },
          ],
        },
      };
  }
}

/** A valid update body touching every updatable field of a pipe of `kind`; a fresh object on every call. */
export function validUpdateBody(kind: ContractSourceKind, options: FixtureOptions = {}): PipeBody {
  const body: PipeBody = {
    name: `${kind} to orders (renamed)`,
    source: updateSourceFor(kind, secrets(options)),
    destination: { columns: [...COLUMNS, { name: 'status', type: 'LowCardinality(String)' }] },
    fieldMappings: [...FIELD_MAPPINGS, { sourceField: 'status', destinationField: 'status' }],
    settings: { ...SETTINGS, streaming_max_insert_wait_ms: 2000 },
  };
  return structuredClone(body);
}

/** A named body of the corpus. */
export interface ShapedBody {
  name: string;
  body: PipeBody;
}

const GCP_KEY = (secret: string): string =>
  Buffer.from(JSON.stringify({ type: 'service_account', private_key: secret })).toString('base64');
const CLIENT_CERTIFICATE = CA_CERTIFICATE.replace('CERTIFICATE-----\n', 'CERTIFICATE-----\nclient-');
const REAL_SETTINGS = {
  streaming_max_insert_wait_ms: 500,
  clickhouse_max_threads: 64,
  clickhouse_max_insert_threads: 16,
  clickhouse_min_insert_block_size_bytes: 0,
  clickhouse_max_download_threads: 32,
  clickhouse_parallel_distributed_insert_select: 0,
  clickhouse_parallel_view_processing: false,
};

/** A streaming pipe around `source`, the way the service's own examples write one. */
function streamingPipe(name: string, source: PipeBody): ShapedBody {
  return {
    name,
    body: {
      name,
      source,
      destination: {
        database: 'default',
        table: 'events',
        managedTable: true,
        tableDefinition: {
          engine: { type: 'ReplacingMergeTree', versionColumnId: 'ts' },
          sortingKey: ['id'],
          partitionBy: 'toYYYYMM(ts)',
        },
        columns: [
          { name: 'id', type: 'String' },
          { name: 'ts', type: 'DateTime64(3)' },
        ],
      },
      fieldMappings: [
        { sourceField: 'id', destinationField: 'id' },
        { sourceField: 'ts', destinationField: 'ts' },
      ],
      scaling: { replicas: 2, replicaCpuMillicores: 250, replicaMemoryGb: 1 },
      settings: REAL_SETTINGS,
    },
  };
}

/** A database (CDC) pipe: whole tables, so no fieldMappings and no columns. */
function databasePipe(name: string, source: PipeBody): ShapedBody {
  return { name, body: { name, source, destination: { database: 'replica' } } };
}

/**
 * Create bodies shaped as callers of the real service send them: each source kind with each
 * authentication and credential form, the service's value sets and settings names. Every secret
 * holds `secret`, and none of them is needed by the contract's own fixtures.
 */
export function realShapedCreateBodies(secret = 'example-secret-value'): ShapedBody[] {
  const kafka = (extra: PipeBody): PipeBody => ({
    kafka: { brokers: 'broker-1:9092,broker-2:9092', topics: 'events', format: 'JSONEachRow', ...extra },
  });
  return [
    streamingPipe(
      'kafka PLAIN',
      kafka({ type: 'kafka', authentication: 'PLAIN', credentials: { username: 'app', password: secret } }),
    ),
    streamingPipe(
      'confluent SCRAM-SHA-256 with a schema registry',
      kafka({
        type: 'confluent',
        format: 'AvroConfluent',
        authentication: 'SCRAM-SHA-256',
        credentials: { username: 'app', password: secret },
        consumerGroup: 'clickpipes-events',
        offset: { strategy: 'from_beginning' },
        schemaRegistry: {
          url: 'https://registry.example.com',
          authentication: 'PLAIN',
          credentials: { username: 'registry', password: secret },
        },
      }),
    ),
    streamingPipe(
      'redpanda SCRAM-SHA-512 from a timestamp',
      kafka({
        type: 'redpanda',
        format: 'Protobuf',
        authentication: 'SCRAM-SHA-512',
        credentials: { username: 'app', password: secret },
        offset: { strategy: 'from_timestamp', timestamp: '2021-01-01T00:00' },
        exactlyOnce: true,
      }),
    ),
    streamingPipe(
      'msk IAM_ROLE',
      kafka({
        type: 'msk',
        authentication: 'IAM_ROLE',
        iamRole: 'arn:aws:iam::123456789012:role/clickpipes',
        offset: { strategy: 'from_latest' },
        reversePrivateEndpointIds: ['rpe-0a1b2c3d'],
      }),
    ),
    streamingPipe(
      'msk IAM_USER',
      kafka({
        type: 'msk',
        format: 'Avro',
        authentication: 'IAM_USER',
        credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: secret },
      }),
    ),
    streamingPipe(
      'azure event hubs connection string',
      kafka({
        type: 'azureeventhub',
        authentication: 'PLAIN',
        credentials: {
          connectionString: `Endpoint=sb://events.servicebus.windows.net/;SharedAccessKeyName=listen;SharedAccessKey=${secret}`,
        },
      }),
    ),
    streamingPipe(
      'warpstream MUTUAL_TLS',
      kafka({
        type: 'warpstream',
        authentication: 'MUTUAL_TLS',
        caCertificate: CA_CERTIFICATE,
        credentials: {
          certificate: CLIENT_CERTIFICATE,
          privateKey: `-----BEGIN PRIVATE KEY-----\n${secret}\n-----END PRIVATE KEY-----`,
        },
      }),
    ),
    streamingPipe(
      'gcmk, with nulls where the service takes them',
      kafka({ type: 'gcmk', consumerGroup: null, iamRole: null, caCertificate: null }),
    ),
    streamingPipe(
      'dokafka SCRAM-SHA-256',
      kafka({
        type: 'dokafka',
        authentication: 'SCRAM-SHA-256',
        credentials: { username: 'doadmin', password: secret },
      }),
    ),
    streamingPipe('s3 IAM_ROLE, continuous', {
      objectStorage: {
        type: 's3',
        format: 'JSONEachRow',
        url: 'https://bucket.s3.amazonaws.com/events/*.json',
        compression: 'gzip',
        isContinuous: true,
        queueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/events',
        authentication: 'IAM_ROLE',
        iamRole: 'arn:aws:iam::123456789012:role/clickpipes',
      },
    }),
    streamingPipe('s3 IAM_USER, CSV', {
      objectStorage: {
        type: 's3',
        format: 'CSVWithNames',
        url: 'https://bucket.s3.amazonaws.com/exports/*.csv.zst',
        delimiter: ';',
        compression: 'zstd',
        skipInitialLoad: true,
        startAfter: 'exports/2025-01-01.csv.zst',
        authentication: 'IAM_USER',
        accessKey: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: secret },
      },
    }),
    streamingPipe('gcs SERVICE_ACCOUNT', {
      objectStorage: {
        type: 'gcs',
        format: 'Parquet',
        url: 'https://storage.googleapis.com/bucket/*.parquet',
        authentication: 'SERVICE_ACCOUNT',
        serviceAccountKey: GCP_KEY(secret),
      },
    }),
    streamingPipe('azure blob CONNECTION_STRING', {
      objectStorage: {
        type: 'azureblobstorage',
        format: 'Avro',
        compression: 'none',
        authentication: 'CONNECTION_STRING',
        connectionString: `DefaultEndpointsProtocol=https;AccountName=store;AccountKey=${secret};EndpointSuffix=core.windows.net`,
        path: 'events/*.avro',
        azureContainerName: 'events',
      },
    }),
    ...(['dospaces', 'cloudflarer2', 'ovhobjectstorage'] as const).map((type) =>
      streamingPipe(`${type} keys`, {
        objectStorage: {
          type,
          format: 'TabSeparatedWithNames',
          url: `https://${type}.example.com/bucket/*.tsv`,
          compression: 'auto',
          authentication: 'IAM_USER',
          accessKey: { accessKeyId: 'DO00EXAMPLE', secretKey: secret },
        },
      }),
    ),
    streamingPipe('kinesis IAM_ROLE', {
      kinesis: {
        streamName: 'events',
        region: 'us-east-1',
        format: 'JSONEachRow',
        iteratorType: 'TRIM_HORIZON',
        authentication: 'IAM_ROLE',
        iamRole: 'arn:aws:iam::123456789012:role/clickpipes',
      },
    }),
    streamingPipe('kinesis IAM_USER at a timestamp', {
      kinesis: {
        streamName: 'events',
        region: 'eu-west-1',
        format: 'AvroConfluent',
        useEnhancedFanOut: true,
        iteratorType: 'AT_TIMESTAMP',
        timestamp: 1735689600,
        authentication: 'IAM_USER',
        accessKey: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: secret },
      },
    }),
    streamingPipe('pubsub SERVICE_ACCOUNT', {
      pubsub: {
        format: 'JSONEachRow',
        projectId: 'analytics-prod',
        topic: 'events',
        authentication: 'SERVICE_ACCOUNT',
        seekType: 'timestamp',
        seekTimestamp: '2025-01-01T00:00:00Z',
        filter: 'attributes.type = "order"',
        enableOrdering: true,
        ackDeadline: 60,
        serviceAccountKey: { serviceAccountFile: GCP_KEY(secret) },
      },
    }),
    databasePipe('supabase postgres, basic', {
      postgres: {
        type: 'supabase',
        host: 'db.abcdefgh.supabase.co',
        port: 5432,
        database: 'postgres',
        authentication: 'basic',
        credentials: { username: 'replicator', password: secret },
        tlsHost: 'db.abcdefgh.supabase.co',
        caCertificate: CA_CERTIFICATE,
        settings: {
          replicationMode: 'cdc',
          syncIntervalSeconds: 10,
          pullBatchSize: 50000,
          publicationName: 'clickpipes',
          replicationSlotName: 'clickpipes_slot',
          allowNullableColumns: true,
          initialLoadParallelism: 4,
          snapshotNumRowsPerPartition: 100000,
          snapshotNumberOfParallelTables: 2,
          enableFailoverSlots: true,
          deleteOnMerge: true,
        },
        tableMappings: [
          {
            sourceSchemaName: 'public',
            sourceTable: 'orders',
            targetTable: 'public_orders',
            tableEngine: 'ReplacingMergeTree',
            partitionKey: 'created_at',
            partitionByExpr: 'toYYYYMM(created_at)',
          },
        ],
      },
    }),
    databasePipe('rds postgres, IAM_ROLE, snapshot only', {
      postgres: {
        type: 'rdspostgres',
        host: 'shop.cluster-abc.us-east-1.rds.amazonaws.com',
        port: 5432,
        database: 'shop',
        authentication: 'IAM_ROLE',
        iamRole: 'arn:aws:iam::123456789012:role/clickpipes',
        disableTls: false,
        skipCertVerification: false,
        settings: { replicationMode: 'snapshot' },
        tableMappings: [
          {
            sourceSchemaName: 'public',
            sourceTable: 'customers',
            targetTable: 'customers',
            tableEngine: 'MergeTree',
          },
        ],
      },
    }),
    databasePipe('aurora mysql', {
      mysql: {
        type: 'auroramysql',
        host: 'shop.cluster-abc.us-east-1.rds.amazonaws.com',
        port: 3306,
        credentials: { username: 'replicator', password: secret },
        serverId: 4242,
        settings: { replicationMode: 'cdc', replicationMechanism: 'GTID', useCompression: true },
        tableMappings: [
          { sourceSchemaName: 'shop', sourceTable: 'orders', targetTable: 'shop_orders', partitionKey: 'id' },
        ],
      },
    }),
    databasePipe('bigquery snapshot', {
      bigquery: {
        snapshotStagingPath: 'gs://staging-bucket/clickpipes/',
        settings: { replicationMode: 'snapshot', initialLoadParallelism: 4 },
        tableMappings: [{ sourceDatasetName: 'analytics', sourceTable: 'sessions', targetTable: 'sessions' }],
        credentials: { serviceAccountFile: GCP_KEY(secret) },
      },
    }),
    databasePipe('mongodb', {
      mongodb: {
        uri: `mongodb+srv://reader:${secret}@cluster0.example.mongodb.net/shop`,
        readPreference: 'secondaryPreferred',
        credentials: { username: 'reader', password: secret },
        settings: { replicationMode: 'cdc', useJsonNativeFormat: true },
        tableMappings: [{ sourceDatabaseName: 'shop', sourceCollection: 'orders', targetTable: 'orders' }],
      },
    }),
  ];
}

/** Update bodies as callers of the real service send them, `null` clearing fields included. */
export function realShapedUpdateBodies(
  secret = 'example-secret-value',
): Array<ShapedBody & { kind: string }> {
  return [
    {
      kind: 'kafka',
      name: 'kafka: switch to IAM_USER and clear the CA certificate',
      body: {
        source: {
          kafka: {
            authentication: 'IAM_USER',
            credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: secret },
            caCertificate: null,
          },
        },
        settings: { clickhouse_max_threads: 8, streaming_max_insert_wait_ms: null },
      },
    },
    {
      kind: 'kafka',
      name: 'kafka: mutual TLS',
      body: {
        source: {
          kafka: {
            authentication: 'MUTUAL_TLS',
            credentials: { certificate: CLIENT_CERTIFICATE, privateKey: secret },
          },
        },
      },
    },
    {
      kind: 'objectStorage',
      name: 'objectStorage: a new service account key',
      body: {
        name: 'renamed',
        source: {
          objectStorage: {
            authentication: 'SERVICE_ACCOUNT',
            serviceAccountKey: GCP_KEY(secret),
            iamRole: null,
          },
        },
      },
    },
    {
      kind: 'objectStorage',
      name: 'objectStorage: a new connection string',
      body: {
        source: {
          objectStorage: {
            connectionString: `AccountName=store;AccountKey=${secret}`,
            skipInitialLoad: false,
          },
        },
      },
    },
    {
      kind: 'kinesis',
      name: 'kinesis: switch to keys',
      body: {
        source: {
          kinesis: {
            authentication: 'IAM_USER',
            accessKey: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: secret },
          },
        },
      },
    },
    {
      kind: 'pubsub',
      name: 'pubsub: a new service account',
      body: {
        source: {
          pubsub: {
            authentication: 'SERVICE_ACCOUNT',
            ackDeadline: 120,
            serviceAccountKey: { serviceAccountFile: GCP_KEY(secret) },
          },
        },
      },
    },
    {
      kind: 'postgres',
      name: 'postgres: new password, TLS host cleared',
      body: {
        source: {
          postgres: {
            credentials: { username: 'replicator', password: secret },
            tlsHost: null,
            settings: { syncIntervalSeconds: 30 },
          },
        },
      },
    },
    {
      kind: 'mysql',
      name: 'mysql: moved host, compression on',
      body: {
        source: {
          mysql: {
            host: 'replica.example.com',
            port: 3307,
            credentials: { username: 'r', password: secret },
            settings: { useCompression: true },
          },
        },
      },
    },
    {
      kind: 'mongodb',
      name: 'mongodb: new URI',
      body: {
        source: {
          mongodb: {
            uri: `mongodb://reader:${secret}@mongo.example.com:27017/shop`,
            readPreference: 'nearest',
            caCertificate: null,
          },
        },
      },
    },
  ];
}

/** Bodies no version of the service takes, each with the path its 400 names. */
export function refusedCreateBodies(): Array<{ name: string; body: PipeBody; path: string }> {
  const base = (): PipeBody => realShapedCreateBodies()[0].body;
  const withKafka = (fields: PipeBody): PipeBody => {
    const body = base();
    Object.assign(body.source.kafka, fields);
    return body;
  };
  return [
    { name: 'an unknown kafka type', body: withKafka({ type: 'pulsar' }), path: 'source.kafka.type' },
    {
      name: 'an unknown authentication',
      body: withKafka({ authentication: 'OAUTHBEARER' }),
      path: 'source.kafka.authentication',
    },
    { name: 'an unknown format', body: withKafka({ format: 'XML' }), path: 'source.kafka.format' },
    {
      name: 'an unknown offset strategy',
      body: withKafka({ offset: { strategy: 'from_end' } }),
      path: 'source.kafka.offset.strategy',
    },
    {
      name: 'from_timestamp without a timestamp',
      body: withKafka({ offset: { strategy: 'from_timestamp' } }),
      path: 'source.kafka.offset.timestamp',
    },
    {
      name: 'a timestamp with seconds',
      body: withKafka({ offset: { strategy: 'from_timestamp', timestamp: '2021-01-01T00:00:30' } }),
      path: 'source.kafka.offset.timestamp',
    },
    {
      name: 'a timestamp on no calendar',
      body: withKafka({ offset: { strategy: 'from_timestamp', timestamp: '2021-02-30T00:00' } }),
      path: 'source.kafka.offset.timestamp',
    },
    {
      name: 'two credential forms at once',
      body: withKafka({ credentials: { username: 'a', password: 'b', accessKeyId: 'c', secretKey: 'd' } }),
      path: 'source.kafka.credentials',
    },
    {
      name: 'an unknown credential field',
      body: withKafka({ credentials: { token: 'x' } }),
      path: 'source.kafka.credentials.token',
    },
    { name: 'replicas over 40', body: { ...base(), scaling: { replicas: 41 } }, path: 'scaling.replicas' },
    {
      name: 'CPU under 125 millicores',
      body: { ...base(), scaling: { replicaCpuMillicores: 100 } },
      path: 'scaling.replicaCpuMillicores',
    },
    {
      name: 'memory over 8 GB',
      body: { ...base(), scaling: { replicaMemoryGb: 16 } },
      path: 'scaling.replicaMemoryGb',
    },
    {
      name: 'a setting over its range',
      body: { ...base(), settings: { clickhouse_max_threads: 65 } },
      path: 'settings.clickhouse_max_threads',
    },
    {
      name: 'a contract setting over its range',
      body: { ...base(), settings: { engine_max_insert_threads: 17 } },
      path: 'settings.engine_max_insert_threads',
    },
    {
      name: 'a setting the schema does not list, given an object',
      body: { ...base(), settings: { kafka_read_committed: { enabled: true } } },
      path: 'settings.kafka_read_committed',
    },
    {
      name: 'a known setting of the wrong type',
      body: { ...base(), settings: { clickhouse_max_threads: '8' } },
      path: 'settings.clickhouse_max_threads',
    },
    {
      name: 'a kinesis timestamp that is neither a number nor text',
      body: { source: { kinesis: { iteratorType: 'AT_TIMESTAMP', timestamp: true } } },
      path: 'source.kinesis.timestamp',
    },
    {
      name: 'an unknown table engine',
      body: {
        ...base(),
        destination: { ...base().destination, tableDefinition: { engine: { type: 'Log' } } },
      },
      path: 'destination.tableDefinition.engine.type',
    },
    {
      name: 'a postgres type outside the list',
      body: { name: 'x', source: { postgres: { type: 'cockroach' } } },
      path: 'source.postgres.type',
    },
    {
      name: 'a mysql source without its required fields',
      body: { name: 'x', source: { mysql: { type: 'mysql' } } },
      path: 'source.mysql.host',
    },
    {
      name: 'a pubsub ack deadline out of range',
      body: {
        name: 'x',
        source: {
          pubsub: {
            format: 'Avro',
            projectId: 'p',
            topic: 't',
            authentication: 'SERVICE_ACCOUNT',
            seekType: 'latest',
            ackDeadline: 5,
            serviceAccountKey: { serviceAccountFile: 'eA==' },
          },
        },
      },
      path: 'source.pubsub.ackDeadline',
    },
    {
      name: 'a kinesis AT_TIMESTAMP without a timestamp',
      body: { source: { kinesis: { iteratorType: 'AT_TIMESTAMP' } } },
      path: 'source.kinesis.timestamp',
    },
    { name: 'no source kind', body: { name: 'x', source: {} }, path: 'source' },
    {
      name: 'two source kinds',
      body: { source: { ...base().source, kinesis: { streamName: 's' } } },
      path: 'source',
    },
    {
      name: 'a string for an integer',
      body: { ...base(), scaling: { replicas: '2' } },
      path: 'scaling.replicas',
    },
    {
      name: 'null where create takes none',
      body: withKafka({ brokers: null }),
      path: 'source.kafka.brokers',
    },
  ];
}
