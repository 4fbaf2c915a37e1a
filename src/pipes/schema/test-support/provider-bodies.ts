/**
 * What the pipes service's own Terraform provider (github.com/ClickHouse/terraform-provider-clickhouse)
 * sends, as JSON on the wire: its published examples (`examples/…`), with the request models
 * (`internal/api/clickpipe_models.go`) and body building (`internal/service/clickhouse/resource/
 * clickpipe.go`) applied, so its defaults are filled in, the fields it leaves empty are left out and
 * keys come in its models' order. Each fixture names the provider file it comes from.
 *
 * A create the provider publishes may leave a destination column unmapped (`unmapped`): the gateway
 * forwards it, and the service's contract refuses it. `secret` stands in every secret.
 */
import { realShapedCreateBodies, type PipeBody } from './pipe-bodies';

export interface ProviderCreate {
  name: string;
  kind: string;
  body: PipeBody;
  /** Destination columns no field mapping fills, which the service's contract refuses. */
  unmapped?: string[];
}

export interface ProviderUpdate {
  name: string;
  kind: string;
  body: PipeBody;
  /** The provider create the updated pipe starts from; without it, the real-shaped one of `kind`. */
  base?: string;
  /** The pipe is paused first, as the provider does before it edits table mappings. */
  paused?: boolean;
}

const CA_CERTIFICATE = [
  '-----BEGIN CERTIFICATE-----',
  'MIIBszCCAVmgAwIBAgIUZXhhbXBsZS1jZXJ0aWZpY2F0ZTAKBggqhkjOPQQDAjAb',
  '-----END CERTIFICATE-----',
].join('\n');

/** The table most examples write to: two columns, only the first mapped. */
function myTable(table = 'my_table', extra: PipeBody = {}): PipeBody {
  return {
    destination: {
      database: 'default',
      table,
      managedTable: true,
      tableDefinition: { engine: { type: 'MergeTree' }, sortingKey: [] },
      columns: [
        { name: 'my_field1', type: 'String' },
        { name: 'my_field2', type: 'UInt64' },
      ],
      ...extra,
    },
    fieldMappings: [{ sourceField: 'my_field', destinationField: 'my_field1' }],
  };
}

/** A table whose columns are each filled by the source field of the same name. */
function mappedTable(table: string, columns: Array<[string, string]>, sortingKey: string[] = []): PipeBody {
  return {
    destination: {
      database: 'default',
      table,
      managedTable: true,
      tableDefinition: { engine: { type: 'MergeTree' }, sortingKey },
      columns: columns.map(([name, type]) => ({ name, type })),
    },
    fieldMappings: columns.map(([name]) => ({ sourceField: name, destinationField: name })),
  };
}

const EXAMPLE_BROKERS = 'b-1.example.kafka.us-east-1.amazonaws.com:9096';
const E2E_COLUMNS: Array<[string, string]> = ['radio', 'mcc', 'cell', 'lat', 'lon', 'created'].map((name) => [
  name,
  'String',
]);
const SQS_COLUMNS: Array<[string, string]> = [
  ['id', 'String'],
  ['timestamp', 'DateTime64(3)'],
  ['event_type', 'String'],
  ['data', 'String'],
];
/** The stream of the provider's end-to-end test, and the fields its source is named by. */
const E2E_KINESIS = { format: 'JSONEachRow', streamName: 'e2e-stream', region: 'us-east-2' };
/** The continuous S3 source of the SQS examples, but for its authentication. */
const SQS_S3 = {
  type: 's3',
  format: 'JSONEachRow',
  url: 'https://my-bucket.s3.amazonaws.com/events/*.json',
  isContinuous: true,
  queueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/s3-events',
};
const gcpKey = (secret: string): string =>
  Buffer.from(JSON.stringify({ type: 'service_account', private_key: secret })).toString('base64');

/** The create bodies of the provider's examples, each as the provider sends it. */
export function providerCreateBodies(secret = 'example-secret-value'): ProviderCreate[] {
  const kafka = (fields: PipeBody): PipeBody => ({
    kafka: {
      type: 'confluent',
      format: 'JSONEachRow',
      brokers: EXAMPLE_BROKERS,
      topics: 'my_topic',
      ...fields,
    },
  });
  const plain = { authentication: 'PLAIN', credentials: { username: 'clickpipes', password: secret } };
  return [
    {
      // examples/clickpipe/kafka_confluent/main.tf
      name: 'kafka confluent, PLAIN',
      kind: 'kafka',
      body: {
        name: 'Confluent 🚀 ClickPipe',
        source: kafka(plain),
        ...mappedTable(
          'my_table',
          [
            ['my_field1', 'String'],
            ['my_field2', 'UInt64'],
          ],
          ['my_field1', 'my_field2'],
        ),
      },
    },
    {
      // examples/full/clickpipes/aws/main.tf (the provider's end-to-end test)
      name: 'kafka PLAIN, every column mapped',
      kind: 'kafka',
      body: {
        name: 'E2E Test Kafka Confluent ClickPipe',
        source: { kafka: { ...kafka(plain).kafka, type: 'kafka', topics: 'cell_towers' } },
        ...mappedTable('e2e_test_table', E2E_COLUMNS),
      },
    },
    {
      // examples/clickpipe/kafka_msk_iam_role/main.tf
      name: 'kafka msk, IAM_ROLE, with roles',
      kind: 'kafka',
      body: {
        name: 'MSK 🚀 ClickPipe',
        source: kafka({
          type: 'msk',
          authentication: 'IAM_ROLE',
          iamRole: 'arn:aws:iam::123456789012:role/clickpipes-msk',
        }),
        ...myTable('my_table', { roles: ['custom_role_1', 'custom_role_2'] }),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/kafka_msk_iam_user/main.tf
      name: 'kafka msk, IAM_USER',
      kind: 'kafka',
      body: {
        name: 'MSK 🚀 ClickPipe',
        source: kafka({
          type: 'msk',
          authentication: 'IAM_USER',
          credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: secret },
        }),
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/kafka_azure_eventhub/main.tf
      name: 'kafka azure event hubs',
      kind: 'kafka',
      body: {
        name: 'Azure EventHub 🚀 ClickPipe',
        source: kafka({
          type: 'azureeventhub',
          brokers: 'example.servicebus.windows.net:9093',
          authentication: 'PLAIN',
          credentials: {
            connectionString: `Endpoint=sb://example.servicebus.windows.net/;SharedAccessKeyName=listen;SharedAccessKey=${secret}`,
          },
        }),
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/kafka_mutual_tls/main.tf
      name: 'kafka MUTUAL_TLS',
      kind: 'kafka',
      body: {
        name: 'Kafka mTLS ClickPipe',
        source: kafka({
          type: 'kafka',
          authentication: 'MUTUAL_TLS',
          credentials: {
            certificate: CA_CERTIFICATE,
            privateKey: `-----BEGIN PRIVATE KEY-----\n${secret}\n-----END PRIVATE KEY-----`,
          },
          caCertificate: CA_CERTIFICATE,
        }),
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/kafka_offset_strategy/main.tf
      name: 'kafka from a timestamp',
      kind: 'kafka',
      body: {
        name: 'Offset strategy 🚀 ClickPipe',
        source: {
          kafka: {
            ...kafka({}).kafka,
            offset: { strategy: 'from_timestamp', timestamp: '2021-01-01T00:00' },
            ...plain,
          },
        },
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/kafka_redpanda_scram/main.tf
      name: 'redpanda SCRAM-SHA-512',
      kind: 'kafka',
      body: {
        name: 'Redpanda 🚀 ClickPipe',
        source: kafka({
          type: 'redpanda',
          authentication: 'SCRAM-SHA-512',
          credentials: { username: 'clickpipes', password: secret },
        }),
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/kafka_schema_registry/main.tf
      name: 'confluent with a schema registry',
      kind: 'kafka',
      body: {
        name: 'Schema Registry 🚀 ClickPipe',
        source: {
          kafka: {
            ...kafka({ format: 'AvroConfluent' }).kafka,
            schemaRegistry: {
              url: 'https://psrc-example.us-east-2.aws.confluent.cloud',
              authentication: 'PLAIN',
              credentials: { username: 'registry', password: secret },
            },
            ...plain,
          },
        },
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/reverse_private_endpoint_msk_pipe/clickpipe.tf (and its vars.tf)
      name: 'msk over a reverse private endpoint',
      kind: 'kafka',
      body: {
        name: 'MSK pipe using Reverse Private Endpoint',
        source: kafka({
          type: 'msk',
          authentication: 'SCRAM-SHA-512',
          credentials: { username: 'clickpipes', password: secret },
          reversePrivateEndpointIds: ['0b0a1b2c-3d4e-4f50-8a6b-7c8d9e0f1a2b'],
        }),
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/resources/clickhouse_clickpipe/resource.tf: a setting the service's schema does not list
      name: 'kafka with kafka_read_committed',
      kind: 'kafka',
      body: {
        name: 'My Kafka ClickPipe',
        source: {
          kafka: {
            ...kafka({ brokers: 'my-kafka-broker:9092' }).kafka,
            consumerGroup: 'clickpipe-test',
            authentication: 'PLAIN',
            credentials: { username: 'user', password: secret },
          },
        },
        ...myTable(),
        settings: { kafka_read_committed: true },
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/kinesis_iam_role/main.tf
      name: 'kinesis IAM_ROLE, enhanced fan-out',
      kind: 'kinesis',
      body: {
        name: 'kinesis-iam-role',
        source: {
          kinesis: {
            format: 'JSONEachRow',
            streamName: 'my-stream',
            region: 'us-east-1',
            iteratorType: 'LATEST',
            useEnhancedFanOut: true,
            authentication: 'IAM_ROLE',
            iamRole: 'arn:aws:iam::123456789012:role/clickpipes-kinesis',
          },
        },
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/kinesis_iam_user/main.tf
      name: 'kinesis IAM_USER',
      kind: 'kinesis',
      body: {
        name: 'kinesis-iam-user',
        source: {
          kinesis: {
            format: 'JSONEachRow',
            streamName: 'my-stream',
            region: 'us-east-1',
            iteratorType: 'TRIM_HORIZON',
            authentication: 'IAM_USER',
            accessKey: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: secret },
          },
        },
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/full/clickpipes/aws/main.tf (the provider's end-to-end test)
      name: 'kinesis IAM_USER, every column mapped',
      kind: 'kinesis',
      body: {
        name: 'E2E Test Kinesis ClickPipe',
        source: {
          kinesis: {
            ...E2E_KINESIS,
            iteratorType: 'TRIM_HORIZON',
            authentication: 'IAM_USER',
            accessKey: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: secret },
          },
        },
        ...mappedTable('e2e_kinesis_table', E2E_COLUMNS.slice(0, 2)),
      },
    },
    {
      // examples/full/clickpipes/aws/main.tf, started AT_TIMESTAMP: internal/api/clickpipe_models.go
      // sends `timestamp` as text, written as the resource's schema says (`2021-01-01T00:00`)
      name: 'kinesis at a timestamp given as text',
      kind: 'kinesis',
      body: {
        name: 'E2E Test Kinesis ClickPipe',
        source: {
          kinesis: {
            ...E2E_KINESIS,
            iteratorType: 'AT_TIMESTAMP',
            timestamp: '2021-01-01T00:00',
            authentication: 'IAM_ROLE',
            iamRole: 'arn:aws:iam::123456789012:role/clickpipes-kinesis',
          },
        },
        ...mappedTable('e2e_kinesis_table', E2E_COLUMNS.slice(0, 2)),
      },
    },
    {
      // examples/clickpipe/object_storage_iam_role/main.tf
      name: 's3 IAM_ROLE',
      kind: 'objectStorage',
      body: {
        name: 'S3 🚀 ClickPipe with IAM role',
        source: {
          objectStorage: {
            type: 's3',
            format: 'JSONEachRow',
            url: 'https://my-bucket.s3.amazonaws.com/data/*.json',
            isContinuous: false,
            authentication: 'IAM_ROLE',
            iamRole: 'arn:aws:iam::123456789012:role/clickpipes-s3',
          },
        },
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/object_storage_iam_user/main.tf
      name: 's3 IAM_USER',
      kind: 'objectStorage',
      body: {
        name: 'S3 🚀 ClickPipe with IAM user',
        source: {
          objectStorage: {
            type: 's3',
            format: 'JSONEachRow',
            url: 'https://my-bucket.s3.amazonaws.com/data/*.json',
            isContinuous: false,
            authentication: 'IAM_USER',
            accessKey: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: secret },
          },
        },
        ...myTable('my_data_table'),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/clickpipe/object_storage_s3_sqs_iam_role/main.tf
      name: 's3 continuous with SQS, IAM_ROLE',
      kind: 'objectStorage',
      body: {
        name: 'S3 Continuous ClickPipe with SQS (IAM Role)',
        source: {
          objectStorage: {
            ...SQS_S3,
            authentication: 'IAM_ROLE',
            iamRole: 'arn:aws:iam::123456789012:role/clickpipes-s3',
          },
        },
        ...mappedTable('s3_events_data', SQS_COLUMNS, ['timestamp']),
      },
    },
    {
      // examples/clickpipe/object_storage_s3_sqs_iam_user/main.tf
      name: 's3 continuous with SQS, IAM_USER',
      kind: 'objectStorage',
      body: {
        name: 'S3 Continuous ClickPipe with SQS (IAM User)',
        source: {
          objectStorage: {
            ...SQS_S3,
            authentication: 'IAM_USER',
            accessKey: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: secret },
          },
        },
        ...mappedTable('s3_events_data', SQS_COLUMNS, ['timestamp']),
      },
    },
    {
      // examples/clickpipe/object_storage_gcs_pubsub_service_account/main.tf
      name: 'gcs continuous with Pub/Sub, service account',
      kind: 'objectStorage',
      body: {
        name: 'GCS Continuous ClickPipe with Pub/Sub (Service Account)',
        source: {
          objectStorage: {
            type: 'gcs',
            format: 'JSONEachRow',
            url: 'https://storage.googleapis.com/my-bucket/events/*.json',
            isContinuous: true,
            queueUrl: 'projects/my-project/subscriptions/gcs-events',
            authentication: 'SERVICE_ACCOUNT',
            serviceAccountKey: gcpKey(secret),
          },
        },
        ...mappedTable('gcs_events_data', SQS_COLUMNS, ['timestamp']),
      },
    },
    {
      // examples/clickpipe/object_storage_azure_blob/main.tf
      name: 'azure blob storage, connection string',
      kind: 'objectStorage',
      body: {
        name: 'Azure Blob Storage 🚀 ClickPipe',
        source: {
          objectStorage: {
            type: 'azureblobstorage',
            format: 'JSONEachRow',
            isContinuous: false,
            authentication: 'CONNECTION_STRING',
            connectionString: `DefaultEndpointsProtocol=https;AccountName=mystorage;AccountKey=${secret};EndpointSuffix=core.windows.net`,
            path: 'data/*.json',
            azureContainerName: 'mycontainer',
          },
        },
        destination: {
          database: 'default',
          table: 'my_azure_data_table',
          managedTable: true,
          tableDefinition: { engine: { type: 'MergeTree' }, sortingKey: [] },
          columns: [
            { name: 'id', type: 'UInt64' },
            { name: 'name', type: 'String' },
            { name: 'timestamp', type: 'DateTime' },
          ],
        },
        fieldMappings: [
          { sourceField: 'user_id', destinationField: 'id' },
          { sourceField: 'user_name', destinationField: 'name' },
          { sourceField: 'created_at', destinationField: 'timestamp' },
        ],
      },
    },
    {
      // examples/clickpipe/pubsub/main.tf
      name: 'pubsub, latest',
      kind: 'pubsub',
      body: {
        name: 'pubsub-example',
        source: {
          pubsub: {
            format: 'JSONEachRow',
            projectId: 'my-gcp-project',
            topic: 'events',
            authentication: 'SERVICE_ACCOUNT',
            seekType: 'latest',
            serviceAccountKey: { serviceAccountFile: gcpKey(secret) },
          },
        },
        ...myTable(),
      },
      unmapped: ['my_field2'],
    },
    {
      // examples/resources/clickhouse_clickpipe/resource_pubsub.tf (pubsub_timestamp)
      name: 'pubsub from a timestamp, filtered',
      kind: 'pubsub',
      body: {
        name: 'pubsub-from-timestamp',
        source: {
          pubsub: {
            format: 'Avro',
            projectId: 'my-gcp-project',
            topic: 'events',
            authentication: 'SERVICE_ACCOUNT',
            seekType: 'timestamp',
            seekTimestamp: '2026-04-10T12:00:00Z',
            filter: 'attributes.env = "prod"',
            enableOrdering: false,
            ackDeadline: 120,
            serviceAccountKey: { serviceAccountFile: gcpKey(secret) },
          },
        },
        destination: {
          database: 'default',
          table: 'events',
          managedTable: true,
          tableDefinition: { engine: { type: 'MergeTree' }, sortingKey: [] },
          columns: [{ name: 'id', type: 'UInt64' }],
        },
      },
      unmapped: ['id'],
    },
    {
      // examples/resources/clickhouse_clickpipe/resource_postgres_cdc.tf
      name: 'postgres CDC, two tables',
      kind: 'postgres',
      body: {
        name: 'My Postgres CDC ClickPipe',
        source: {
          postgres: {
            type: 'postgres',
            host: 'postgres.example.com',
            port: 5432,
            database: 'mydb',
            authentication: 'basic',
            credentials: { username: 'postgres_user', password: secret },
            settings: {
              syncIntervalSeconds: 60,
              pullBatchSize: 100000,
              replicationMode: 'cdc',
              allowNullableColumns: true,
              initialLoadParallelism: 4,
              snapshotNumRowsPerPartition: 100000,
              snapshotNumberOfParallelTables: 1,
              enableFailoverSlots: false,
              deleteOnMerge: false,
            },
            tableMappings: [
              {
                sourceSchemaName: 'public',
                sourceTable: 'users',
                targetTable: 'public_users',
                useCustomSortingKey: false,
              },
              {
                sourceSchemaName: 'public',
                sourceTable: 'orders',
                targetTable: 'public_orders',
                useCustomSortingKey: false,
              },
            ],
          },
        },
        destination: { database: 'default' },
      },
    },
    {
      // examples/clickpipe/cdc_postgres/main.tf
      name: 'postgres CDC',
      kind: 'postgres',
      body: {
        name: 'Postgres CDC ClickPipe',
        source: {
          postgres: {
            type: 'postgres',
            host: 'postgres.example.com',
            port: 5432,
            database: 'postgres',
            authentication: 'basic',
            credentials: { username: 'clickpipes', password: secret },
            settings: { replicationMode: 'cdc', enableFailoverSlots: false, deleteOnMerge: false },
            tableMappings: [
              {
                sourceSchemaName: 'public',
                sourceTable: 'my_table',
                targetTable: 'my_table',
                useCustomSortingKey: false,
              },
            ],
          },
        },
        destination: { database: 'default' },
      },
    },
    {
      // examples/clickpipe/cdc_mysql/main.tf
      name: 'mysql CDC, GTID',
      kind: 'mysql',
      body: {
        name: 'MySQL CDC ClickPipe',
        source: {
          mysql: {
            type: 'mysql',
            host: 'mysql.example.com',
            port: 3306,
            authentication: 'basic',
            disableTls: false,
            skipCertVerification: false,
            credentials: { username: 'clickpipes', password: secret },
            settings: {
              replicationMode: 'cdc',
              replicationMechanism: 'GTID',
              useCompression: false,
              deleteOnMerge: false,
            },
            tableMappings: [
              {
                sourceSchemaName: 'mydb',
                sourceTable: 'users',
                targetTable: 'mydb_users',
                useCustomSortingKey: false,
              },
            ],
          },
        },
        destination: { database: 'default' },
      },
    },
    {
      // examples/resources/clickhouse_clickpipe/resource_mongodb_cdc.tf
      name: 'mongodb CDC, two collections',
      kind: 'mongodb',
      body: {
        name: 'My MongoDB CDC ClickPipe',
        source: {
          mongodb: {
            uri: 'mongodb+srv://cluster0.example.mongodb.net',
            readPreference: 'secondaryPreferred',
            disableTls: false,
            credentials: { username: 'mongo_user', password: secret },
            settings: {
              syncIntervalSeconds: 30,
              pullBatchSize: 500,
              replicationMode: 'cdc',
              snapshotNumRowsPerPartition: 100000,
              snapshotNumberOfParallelTables: 2,
              deleteOnMerge: false,
              useJsonNativeFormat: true,
            },
            tableMappings: [
              { sourceDatabaseName: 'mydb', sourceCollection: 'users', targetTable: 'mydb_users' },
              { sourceDatabaseName: 'mydb', sourceCollection: 'orders', targetTable: 'mydb_orders' },
            ],
          },
        },
        destination: { database: 'default' },
      },
    },
    {
      // examples/resources/clickhouse_clickpipe/resource_bigquery_snapshot.tf
      name: 'bigquery snapshot',
      kind: 'bigquery',
      body: {
        name: 'BigQuery Snapshot ClickPipe',
        source: {
          bigquery: {
            snapshotStagingPath: 'gs://my-staging-bucket/',
            settings: {
              replicationMode: 'snapshot',
              allowNullableColumns: false,
              initialLoadParallelism: 4,
              snapshotNumRowsPerPartition: 100000,
              snapshotNumberOfParallelTables: 1,
            },
            tableMappings: [
              {
                sourceDatasetName: 'test_dataset',
                sourceTable: 'test_table',
                targetTable: 'test_table_snapshot',
                useCustomSortingKey: false,
                tableEngine: 'ReplacingMergeTree',
              },
            ],
            credentials: { serviceAccountFile: gcpKey(secret) },
          },
        },
        destination: { database: 'default' },
      },
    },
  ];
}

/** The update bodies the provider builds, each as it sends it. */
export function providerUpdateBodies(secret = 'example-secret-value'): ProviderUpdate[] {
  // The provider's pubsub test pipe: it sends all of it on each update.
  const pubsub = (fields: PipeBody): PipeBody => ({
    source: {
      pubsub: {
        format: 'JSONEachRow',
        projectId: 'my-gcp-project',
        topic: 'events',
        authentication: 'SERVICE_ACCOUNT',
        seekType: 'latest',
        filter: 'attributes.env = "prod"',
        enableOrdering: false,
        ...fields,
      },
    },
  });
  return [
    {
      // internal/service/clickhouse/resource/clickpipe_kafka_update_payload_test.go
      // (TestClickPipeUpdate_KafkaOmitsImmutableFields)
      name: 'kafka: a CA certificate, the fields set at create left out',
      kind: 'kafka',
      base: 'kafka confluent, PLAIN',
      body: { source: { kafka: { authentication: 'PLAIN', caCertificate: CA_CERTIFICATE } } },
    },
    {
      // internal/service/clickhouse/resource/clickpipe_kafka_update_payload_test.go
      // (TestClickPipeUpdate_KafkaSendsChangedKafkaCredentials)
      name: 'kafka: rotated credentials',
      kind: 'kafka',
      base: 'kafka confluent, PLAIN',
      body: {
        source: { kafka: { authentication: 'PLAIN', credentials: { username: 'kuser', password: secret } } },
      },
    },
    {
      // internal/service/clickhouse/resource/clickpipe_kinesis_test.go (IAM_USER on update)
      name: 'kinesis: the whole source, with rotated keys',
      kind: 'kinesis',
      base: 'kinesis IAM_USER, every column mapped',
      body: {
        source: {
          kinesis: {
            ...E2E_KINESIS,
            iteratorType: 'TRIM_HORIZON',
            authentication: 'IAM_USER',
            accessKey: { accessKeyId: 'AKIAI44QH8DHBEXAMPLE', secretKey: secret },
          },
        },
      },
    },
    {
      // internal/service/clickhouse/resource/clickpipe_kinesis_test.go (IAM_ROLE on update)
      name: 'kinesis: the whole source, switched to IAM_ROLE',
      kind: 'kinesis',
      base: 'kinesis IAM_USER, every column mapped',
      body: {
        source: {
          kinesis: {
            ...E2E_KINESIS,
            iteratorType: 'TRIM_HORIZON',
            authentication: 'IAM_ROLE',
            iamRole: 'arn:aws:iam::123456789012:role/clickpipes',
          },
        },
      },
    },
    {
      // internal/api/clickpipe_models.go (kinesis `timestamp` is text) and
      // internal/service/clickhouse/resource/clickpipe.go (the whole kinesis source on update)
      name: 'kinesis: the whole source, its timestamp as text',
      kind: 'kinesis',
      base: 'kinesis at a timestamp given as text',
      body: {
        source: {
          kinesis: {
            ...E2E_KINESIS,
            iteratorType: 'AT_TIMESTAMP',
            timestamp: '2021-01-01T00:00',
            authentication: 'IAM_ROLE',
            iamRole: 'arn:aws:iam::123456789012:role/clickpipes-kinesis-v2',
          },
        },
      },
    },
    {
      // internal/service/clickhouse/resource/clickpipe_pubsub_test.go
      // (TestExtractSourceFromPlan_PubSub_UpdateIncludesAllFields)
      name: 'pubsub: every field, with a rotated key',
      kind: 'pubsub',
      body: pubsub({ ackDeadline: 60, serviceAccountKey: { serviceAccountFile: gcpKey(secret) } }),
    },
    {
      // internal/service/clickhouse/resource/clickpipe.go: an unchanged service account key is left out
      name: 'pubsub: every field but the unchanged key',
      kind: 'pubsub',
      body: pubsub({ ackDeadline: 120 }),
    },
    {
      // internal/service/clickhouse/resource/clickpipe_mappings_only_update_test.go
      // (TestClickPipeResource_Update_MappingsOnlyOmitsConnection_Issue617)
      name: 'postgres: a table mapping removed, nothing else sent',
      kind: 'postgres',
      base: 'postgres CDC, two tables',
      paused: true,
      body: {
        source: {
          postgres: {
            tableMappingsToRemove: [
              {
                sourceSchemaName: 'public',
                sourceTable: 'orders',
                targetTable: 'public_orders',
                useCustomSortingKey: false,
              },
            ],
          },
        },
      },
    },
    {
      // internal/service/clickhouse/resource/clickpipe_mappings_only_update_test.go
      // (TestClickPipeResource_Update_ConnectionChangeAlongsideMappingsNotDropped)
      name: 'postgres: a new host and a table mapping added, the whole source',
      kind: 'postgres',
      base: 'postgres CDC, two tables',
      paused: true,
      body: {
        source: {
          postgres: {
            host: 'new-host.example.com',
            port: 5432,
            database: 'mydb',
            authentication: 'basic',
            settings: {
              syncIntervalSeconds: 60,
              pullBatchSize: 100000,
              replicationMode: 'cdc',
              allowNullableColumns: true,
              initialLoadParallelism: 4,
              snapshotNumRowsPerPartition: 100000,
              snapshotNumberOfParallelTables: 1,
              enableFailoverSlots: false,
              deleteOnMerge: false,
            },
            tableMappingsToAdd: [
              {
                sourceSchemaName: 'public',
                sourceTable: 'invoices',
                targetTable: 'public_invoices',
                useCustomSortingKey: false,
              },
            ],
          },
        },
      },
    },
    {
      // internal/service/clickhouse/resource/clickpipe.go: a mysql table_mappings-only edit
      name: 'mysql: a table mapping added, nothing else sent',
      kind: 'mysql',
      base: 'mysql CDC, GTID',
      paused: true,
      body: {
        source: {
          mysql: {
            tableMappingsToAdd: [
              {
                sourceSchemaName: 'mydb',
                sourceTable: 'orders',
                targetTable: 'mydb_orders',
                useCustomSortingKey: false,
              },
            ],
          },
        },
      },
    },
    {
      // internal/service/clickhouse/resource/clickpipe.go: a mysql source on update, `type` included
      name: 'mysql: a moved host, the whole source',
      kind: 'mysql',
      base: 'mysql CDC, GTID',
      body: {
        source: {
          mysql: {
            type: 'mysql',
            host: 'mysql-replica.example.com',
            port: 3306,
            authentication: 'basic',
            disableTls: false,
            skipCertVerification: false,
            settings: {
              syncIntervalSeconds: 60,
              pullBatchSize: 100000,
              replicationMode: 'cdc',
              replicationMechanism: 'GTID',
              useCompression: false,
              deleteOnMerge: false,
            },
          },
        },
      },
    },
    {
      // internal/service/clickhouse/resource/clickpipe.go: a mongodb table_mappings-only edit
      name: 'mongodb: a table mapping added, nothing else sent',
      kind: 'mongodb',
      base: 'mongodb CDC, two collections',
      paused: true,
      body: {
        source: {
          mongodb: {
            tableMappingsToAdd: [
              { sourceDatabaseName: 'mydb', sourceCollection: 'invoices', targetTable: 'mydb_invoices' },
            ],
          },
        },
      },
    },
    {
      // internal/service/clickhouse/resource/clickpipe.go: object storage sends its whole source
      name: 'object storage: the whole source, with rotated keys',
      kind: 'objectStorage',
      base: 's3 continuous with SQS, IAM_USER',
      body: {
        source: {
          objectStorage: {
            ...SQS_S3,
            authentication: 'IAM_USER',
            accessKey: { accessKeyId: 'AKIAI44QH8DHBEXAMPLE', secretKey: secret },
          },
        },
      },
    },
    {
      // internal/service/clickhouse/resource/clickpipe.go: columns and field mappings go together
      name: 'destination columns and field mappings',
      kind: 'kafka',
      base: 'kafka PLAIN, every column mapped',
      body: {
        destination: {
          columns: [
            { name: 'radio', type: 'String' },
            { name: 'mcc', type: 'String' },
            { name: 'range', type: 'String' },
          ],
        },
        fieldMappings: [
          { sourceField: 'radio', destinationField: 'radio' },
          { sourceField: 'mcc', destinationField: 'mcc' },
          { sourceField: 'range', destinationField: 'range' },
        ],
      },
    },
  ];
}

/** `PUT …/settings` bodies: internal/api/clickpipe_test.go (a setting the service's schema does not list). */
export function providerSettingsBodies(): Array<Record<string, unknown>> {
  return [{ kafka_read_committed: true }, { kafka_read_committed: false }];
}

/** `PATCH …/scaling` bodies the provider sends right after a create that sets `scaling`. */
export function providerScalingBodies(): Array<Record<string, unknown>> {
  return [
    // examples/clickpipe/kafka_confluent/main.tf (`replicas = 1`)
    { replicas: 1 },
    // examples/clickpipe/multiple_pipes_example/main.tf (the second pipe)
    { replicas: 2, replicaCpuMillicores: 250, replicaMemoryGb: 1 },
  ];
}

/** The create a provider update starts from: the named provider create, else the real-shaped one. */
export function baseOfUpdate(update: ProviderUpdate, secret?: string): PipeBody {
  if (update.base !== undefined) {
    const create = providerCreateBodies(secret).find(({ name }) => name === update.base);
    if (create === undefined) throw new Error(`no provider create named ${update.base}`);
    return create.body;
  }
  const shaped = realShapedCreateBodies(secret).find(({ body }) => body.source[update.kind] !== undefined);
  if (shaped === undefined) throw new Error(`no real-shaped create of ${update.kind}`);
  return shaped.body;
}
