/**
 * Valid pipe request bodies for every source kind, shared by unit and end-to-end tests.
 *
 * Each body carries every field its kind accepts, secrets included, so one fixture proves that all of
 * them pass validation and gives redaction tests every secret to look for. A real pipe would pick one
 * way to authenticate (an IAM role or keys), not both.
 *
 * `secret` replaces the value of every secret (passwords, secret keys, the account key inside an
 * Azure connection string), so a test can plant one canary and search every output for it.
 */
import { CreatePipeDto } from '../create-pipe.dto';
import { SourceKind } from '../pipe-source.dto';
import { UpdatePipeDto } from '../update-pipe.dto';

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

function sourceFor(kind: SourceKind, s: typeof DEFAULT_SECRETS): CreatePipeDto['source'] {
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
export function validCreateBody(kind: SourceKind, options: FixtureOptions = {}): CreatePipeDto {
  const body: CreatePipeDto = {
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

function updateSourceFor(kind: SourceKind, s: typeof DEFAULT_SECRETS): UpdatePipeDto['source'] {
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
export function validUpdateBody(kind: SourceKind, options: FixtureOptions = {}): UpdatePipeDto {
  const body: UpdatePipeDto = {
    name: `${kind} to orders (renamed)`,
    source: updateSourceFor(kind, secrets(options)),
    destination: { columns: [...COLUMNS, { name: 'status', type: 'LowCardinality(String)' }] },
    fieldMappings: [...FIELD_MAPPINGS, { sourceField: 'status', destinationField: 'status' }],
    settings: { ...SETTINGS, streaming_max_insert_wait_ms: 2000 },
  };
  return structuredClone(body);
}
