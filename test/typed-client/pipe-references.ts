/**
 * Pipe bodies that hold vault references, written as a frontend writes them on the typed client,
 * with no casts. The suite type-checks this file against clients/typescript and runs its calls
 * (typed-client.e2e-spec.ts); a reference where the service takes no secret does not compile.
 */
import type { GatewayClient, Schemas } from '../../clients/typescript/src';

export interface PipeLocation {
  organizationId: string;
  serviceId: string;
}

const destination = {
  database: 'default',
  table: 'orders',
  columns: [{ name: 'id', type: 'String' }],
};
const fieldMappings = [{ sourceField: 'id', destinationField: 'id' }];

function createPipe(client: GatewayClient, location: PipeLocation, body: Schemas['PipeCreateBody']) {
  return client.POST('/v1/organizations/{organizationId}/services/{serviceId}/pipes', {
    params: { path: location },
    body: { ...body, destination, fieldMappings },
  });
}

/** Kafka whose whole `credentials` is the vault secret `secret` ({username, password}). */
export function createKafkaPipe(client: GatewayClient, location: PipeLocation, secret: string) {
  return createPipe(client, location, {
    name: 'orders from kafka',
    source: {
      kafka: {
        type: 'kafka',
        format: 'JSONEachRow',
        brokers: 'b-1.example.com:9092',
        topics: 'orders',
        authentication: 'SCRAM-SHA-512',
        credentials: { $secret: secret },
      },
    },
  });
}

/** Postgres whose password alone is the vault secret `secret`. */
export function createPostgresPipe(client: GatewayClient, location: PipeLocation, secret: string) {
  return createPipe(client, location, {
    name: 'orders from postgres',
    source: {
      postgres: {
        host: 'shop-db.example.com',
        port: 5432,
        database: 'shop',
        credentials: { username: 'replicator', password: { $secret: secret } },
        settings: { replicationMode: 'cdc' },
        tableMappings: [{ sourceSchemaName: 'public', sourceTable: 'orders', targetTable: 'orders' }],
      },
    },
  });
}

/** Kinesis with keys of its own, to be moved onto the vault. */
export function createKinesisPipe(client: GatewayClient, location: PipeLocation) {
  return createPipe(client, location, {
    name: 'clicks from kinesis',
    source: {
      kinesis: {
        streamName: 'clicks',
        region: 'eu-west-1',
        authentication: 'IAM_USER',
        accessKey: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: 'typed-client-plain-key' },
      },
    },
  });
}

/** An update whose kinesis `accessKey` becomes the vault secret `secret` ({accessKeyId, secretKey}). */
export function updateKinesisAccessKey(
  client: GatewayClient,
  pipe: PipeLocation & { pipeId: string },
  secret: string,
) {
  return client.PATCH('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}', {
    params: { path: pipe },
    body: { source: { kinesis: { authentication: 'IAM_USER', accessKey: { $secret: secret } } } },
  });
}

/** A reference where the service takes no secret: the compiler refuses it, as the gateway does. */
export function createWithMisplacedReference(client: GatewayClient, location: PipeLocation, secret: string) {
  return createPipe(client, location, {
    // @ts-expect-error A pipe's name is kept as plain data and shown on every read: no secret goes there.
    name: { $secret: secret },
    source: { kinesis: { streamName: 'clicks', region: 'eu-west-1', authentication: 'IAM_ROLE' } },
  });
}
