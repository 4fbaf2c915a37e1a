import type { JsonSchema } from '../../common/validation/json-schema';
import {
  checkCreatePipeBody,
  checkScalingBody,
  checkSettingsBody,
  checkStateBody,
  checkUpdatePipeBody,
  isUpdatablePath,
} from './pipe-bodies';
import { UPDATE_PIPE_BODY } from './pipe-bodies.schema';
import {
  providerCreateBodies,
  providerScalingBodies,
  providerSettingsBodies,
  providerUpdateBodies,
} from '../../../test/fixtures/provider-bodies';
import {
  realShapedCreateBodies,
  realShapedUpdateBodies,
  refusedCreateBodies,
  validCreateBody,
  validUpdateBody,
} from '../../../test/fixtures/pipe-bodies';

const CONTRACT_KINDS = ['kafka', 'objectStorage', 'kinesis', 'postgres'] as const;

describe('pipe create body', () => {
  it.each(CONTRACT_KINDS)("takes the contract's %s body", (kind) => {
    expect(checkCreatePipeBody(validCreateBody(kind))).toEqual([]);
  });

  it.each(realShapedCreateBodies().map(({ name, body }) => [name, body]))(
    'takes a real %s body',
    (_name, body) => {
      expect(checkCreatePipeBody(body)).toEqual([]);
    },
  );

  it.each(refusedCreateBodies().map(({ name, body, path }) => [name, body, path]))(
    'refuses %s, naming its path once',
    (_name, body, path) => {
      const errors = checkCreatePipeBody(body);
      expect(errors.map((error) => error.path)).toContain(path);
      expect(new Set(errors.map((error) => error.path)).size).toBe(errors.length);
    },
  );

  it.each(providerCreateBodies().map(({ name, body }) => [name, body]))(
    "takes the service's Terraform provider's %s create",
    (_name, body) => {
      expect(checkCreatePipeBody(body)).toEqual([]);
    },
  );

  it('leaves to the service whether every destination column must be mapped', () => {
    const body = realShapedCreateBodies()[0].body;
    expect(checkCreatePipeBody({ ...body, fieldMappings: [] })).toEqual([]);
  });

  it('takes settings it does not list as any JSON scalar or null, and nothing else there', () => {
    const settings = { kafka_read_committed: true, a: 'text', b: 1.5, c: null, clickhouse_max_threads: 8 };
    expect(checkCreatePipeBody({ source: { kafka: {} }, settings })).toEqual([]);
    expect(checkSettingsBody({ a: [1], b: { c: 1 } })).toEqual([
      { path: 'a', message: 'must be a string, a number, true or false, or null' },
      { path: 'b', message: 'must be a string, a number, true or false, or null' },
    ]);
  });

  it.each([1735689600, '2021-01-01T00:00', null])('takes the kinesis timestamp %p', (timestamp) => {
    expect(checkCreatePipeBody({ source: { kinesis: { timestamp } } })).toEqual([]);
  });

  it('names the types a kinesis timestamp may have', () => {
    expect(checkCreatePipeBody({ source: { kinesis: { timestamp: [1] } } })).toEqual([
      { path: 'source.kinesis.timestamp', message: 'must be an integer, a string or null' },
    ]);
  });

  it('requires almost nothing, as the service does', () => {
    expect(checkCreatePipeBody({ source: { kafka: {} } })).toEqual([]);
    expect(checkCreatePipeBody({})).toEqual([{ path: 'source', message: 'is required' }]);
  });

  it.each(['2021-01-01T00:00', '2021-01-01T00:00Z', '2021-01-01T00:00:00Z', '2024-02-29T23:59'])(
    'takes the offset timestamp %s',
    (timestamp) => {
      const body = { source: { kafka: { offset: { strategy: 'from_timestamp', timestamp } } } };
      expect(checkCreatePipeBody(body)).toEqual([]);
    },
  );

  it('takes the contract settings names and the service names, alone or together', () => {
    const settings = {
      engine_max_threads: 4,
      clickhouse_max_threads: 8,
      engine_parallel_view_processing: true,
    };
    expect(checkCreatePipeBody({ ...validCreateBody('kafka'), settings })).toEqual([]);
  });

  it('gives one message per problem, saying what is wanted', () => {
    expect(
      checkCreatePipeBody({ name: 7, source: { kafka: { brokers: ['a'] } }, scaling: { replicas: 0.5 } }),
    ).toEqual([
      { path: 'name', message: 'must be a string' },
      { path: 'source.kafka.brokers', message: 'must be a string' },
      { path: 'scaling.replicas', message: 'must be an integer' },
    ]);
    expect(checkCreatePipeBody({ source: { kafka: {} }, scaling: { replicas: 0 } })).toEqual([
      { path: 'scaling.replicas', message: 'must be a whole number from 1 to 40' },
    ]);
    expect(checkCreatePipeBody([])).toEqual([{ path: 'body', message: 'must be an object' }]);
  });
});

describe('pipe update body', () => {
  it.each(CONTRACT_KINDS)("takes the contract's %s update", (kind) => {
    expect(checkUpdatePipeBody(validUpdateBody(kind))).toEqual([]);
  });

  it.each(realShapedUpdateBodies().map(({ name, body }) => [name, body]))(
    'takes a real %s update',
    (_name, body) => {
      expect(checkUpdatePipeBody(body)).toEqual([]);
    },
  );

  /** Every property path of the update schema, each with the object path that leads to it. */
  function propertyPaths(schema: JsonSchema, prefix: string[] = []): string[][] {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    return Object.entries(properties).flatMap(([name, inner]) => [
      [...prefix, name],
      ...(inner.type === 'object' ? propertyPaths(inner, [...prefix, name]) : []),
    ]);
  }

  it.each(propertyPaths(UPDATE_PIPE_BODY).map((path) => [path.join('.'), path]))(
    'takes null for %s, which clears it',
    (_name, path) => {
      const body: Record<string, unknown> = {};
      let at = body;
      for (const segment of path.slice(0, -1)) at = at[segment] = {};
      at[path[path.length - 1]] = null;
      // Required siblings (a mysql host and port, say) may be null too.
      const errors = checkUpdatePipeBody(body).filter((error) => error.message !== 'is required');
      expect(errors).toEqual([]);
    },
  );

  it.each(providerUpdateBodies().map(({ name, body }) => [name, body]))(
    "takes the service's Terraform provider's update: %s",
    (_name, body) => {
      expect(checkUpdatePipeBody(body)).toEqual([]);
    },
  );

  it.each([
    [
      'source.kafka.brokers',
      { source: { kafka: { brokers: 'b:9092', offset: { strategy: 'from_latest' } } } },
    ],
    [
      'source.kinesis.streamName',
      { source: { kinesis: { streamName: 's', timestamp: '2021-01-01T00:00' } } },
    ],
    [
      'source.postgres.tableMappings',
      { source: { postgres: { tableMappings: [], settings: { replicationMode: 'cdc' } } } },
    ],
    ['source.mysql.type', { source: { mysql: { type: 'planetscalevitess' } } }],
  ])('takes %s, set at create: the service decides what may change', (_path, body) => {
    expect(checkUpdatePipeBody(body)).toEqual([]);
  });

  it.each([
    ['mysql', { tableMappingsToAdd: [{ sourceSchemaName: 's', sourceTable: 't', targetTable: 'u' }] }],
    ['mongodb', { settings: { syncIntervalSeconds: 30 } }],
    ['pubsub', { ackDeadline: 60 }],
  ])('takes a %s source without the fields its create requires', (kind, fields) => {
    expect(checkUpdatePipeBody({ source: { [kind]: fields } })).toEqual([]);
  });

  it('still checks what it takes from a create: types, values, the fields a table mapping names', () => {
    expect(
      checkUpdatePipeBody({
        source: {
          kinesis: { iteratorType: 'AT_SEQUENCE_NUMBER', useEnhancedFanOut: 'yes' },
        },
      }),
    ).toEqual([
      { path: 'source.kinesis.useEnhancedFanOut', message: 'must be true or false, or null' },
      { path: 'source.kinesis.iteratorType', message: 'must be one of TRIM_HORIZON, LATEST, AT_TIMESTAMP' },
    ]);
    expect(
      checkUpdatePipeBody({
        source: { mysql: { port: '3306', tableMappingsToAdd: [{ sourceTable: 't' }] } },
      }),
    ).toEqual([
      { path: 'source.mysql.port', message: 'must be an integer or null' },
      { path: 'source.mysql.tableMappingsToAdd[0].sourceSchemaName', message: 'is required' },
      { path: 'source.mysql.tableMappingsToAdd[0].targetTable', message: 'is required' },
    ]);
  });

  it.each([
    ['scaling', { scaling: { replicas: 2 } }],
    ['destination.table', { destination: { table: 'x' } }],
    ['source.bigquery', { source: { bigquery: {} } }],
    ['source.kafka.colour', { source: { kafka: { colour: 'blue' } } }],
  ])('refuses %s, which no update takes', (path, body) => {
    expect(checkUpdatePipeBody(body)).toEqual([{ path, message: 'is not a known field' }]);
  });

  it('leaves the create rules to create', () => {
    expect(checkUpdatePipeBody({ destination: { columns: [{ name: 'unmapped', type: 'String' }] } })).toEqual(
      [],
    );
  });
});

describe('lifecycle bodies', () => {
  it('takes a scaling change within the published bounds, null clearing a value', () => {
    expect(
      checkScalingBody({ replicas: 40, replicaCpuMillicores: 2000, replicaMemoryGb: 0.5, concurrency: null }),
    ).toEqual([]);
    expect(
      checkScalingBody({ replicas: 41, replicaMemoryGb: 8.5, replicaCpuMillicores: 124 }).map((e) => e.path),
    ).toEqual(['replicas', 'replicaCpuMillicores', 'replicaMemoryGb']);
  });

  it('takes start, stop and resync, and nothing else', () => {
    for (const command of ['start', 'stop', 'resync']) expect(checkStateBody({ command })).toEqual([]);
    expect(checkStateBody({ command: 'pause' })).toEqual([
      { path: 'command', message: 'must be one of start, stop, resync' },
    ]);
    expect(checkStateBody({})).toEqual([{ path: 'command', message: 'is required' }]);
  });

  it.each(providerSettingsBodies().map((body) => [JSON.stringify(body), body]))(
    "takes the service's Terraform provider's settings %s",
    (_name, body) => {
      expect(checkSettingsBody(body)).toEqual([]);
    },
  );

  it.each(providerScalingBodies().map((body) => [JSON.stringify(body), body]))(
    "takes the service's Terraform provider's scaling %s",
    (_name, body) => {
      expect(checkScalingBody(body)).toEqual([]);
    },
  );

  it('takes the settings object under either naming', () => {
    expect(checkSettingsBody({ clickhouse_max_insert_threads: 16, engine_max_insert_threads: 1 })).toEqual(
      [],
    );
    expect(checkSettingsBody({ object_storage_concurrency: 36 })).toEqual([
      { path: 'object_storage_concurrency', message: 'must be a whole number from 1 to 35' },
    ]);
  });
});

describe('isUpdatablePath', () => {
  it.each([
    ['source.kafka.credentials', true],
    ['source.objectStorage.connectionString', true],
    ['source.postgres.credentials', true],
    ['source.kafka.schemaRegistry.credentials', false],
    ['source.kafka.brokers', false],
    ['source.postgres.tableMappingsToAdd[0].sourceTable', false],
    ['source.bigquery.credentials', false],
  ])('%s: %s', (path, updatable) => {
    expect(isUpdatablePath(path)).toBe(updatable);
  });
});
