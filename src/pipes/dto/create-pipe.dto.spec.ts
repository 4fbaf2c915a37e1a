import { CreatePipeDto } from './create-pipe.dto';
import { validCreateBody } from './test-support/pipe-fixtures';
import {
  KafkaSourceDto,
  KinesisSourceDto,
  ObjectStorageSourceDto,
  PostgresSourceDto,
  SOURCE_KINDS,
  TableMappingDto,
} from './pipe-source.dto';
import { patched, rejection, validated } from '../../common/validation/test-support/dto-validation';

const ONE_KIND = 'must contain exactly one source kind (kafka, objectStorage, kinesis, postgres)';
const TIMESTAMP = 'source.kafka.offset.timestamp';

const kafkaBody = (): CreatePipeDto => validCreateBody('kafka');

describe('CreatePipeDto', () => {
  it.each(SOURCE_KINDS)('accepts a complete %s body and builds the DTO classes', async (kind) => {
    const dto = await validated(CreatePipeDto, validCreateBody(kind));
    expect(dto).toBeInstanceOf(CreatePipeDto);
    expect(JSON.parse(JSON.stringify(dto))).toEqual(validCreateBody(kind));
  });

  it('builds each kind as its own class', async () => {
    const kinds = await Promise.all(
      SOURCE_KINDS.map((kind) => validated(CreatePipeDto, validCreateBody(kind))),
    );
    expect(kinds.map((dto) => dto.source)).toEqual([
      expect.objectContaining({ kafka: expect.any(KafkaSourceDto) }),
      expect.objectContaining({ objectStorage: expect.any(ObjectStorageSourceDto) }),
      expect.objectContaining({ kinesis: expect.any(KinesisSourceDto) }),
      expect.objectContaining({ postgres: expect.any(PostgresSourceDto) }),
    ]);
    expect(kinds[3].source.postgres?.tableMappings[0]).toBeInstanceOf(TableMappingDto);
  });

  it('accepts the smallest body: the required fields only', async () => {
    const body = {
      name: 'orders',
      source: { kafka: { brokers: 'b-1:9092', topics: 'orders' } },
      destination: { database: 'default' },
      fieldMappings: [],
    };
    await expect(validated(CreatePipeDto, body)).resolves.toBeInstanceOf(CreatePipeDto);
  });

  it('names every missing required field', async () => {
    const { status, paths } = await rejection(CreatePipeDto, {});
    expect(status).toBe(400);
    expect(paths).toEqual(['name', 'source', 'destination', 'fieldMappings']);
  });

  it.each([
    ['source.kafka.brokers'],
    ['source.kafka.topics'],
    ['source.kafka.credentials.password'],
    ['source.kafka.schemaRegistry.url'],
    ['destination.database'],
    ['destination.columns[0].type'],
    ['fieldMappings[0].sourceField'],
  ])('requires %s', async (path) => {
    const { paths } = await rejection(CreatePipeDto, patched(kafkaBody(), path, undefined));
    expect(paths).toEqual([path]);
  });

  it.each([
    ['kinesis', 'source.kinesis.streamName'],
    ['kinesis', 'source.kinesis.region'],
    ['kinesis', 'source.kinesis.accessKey.secretKey'],
    ['objectStorage', 'source.objectStorage.accessKey.accessKeyId'],
    ['postgres', 'source.postgres.host'],
    ['postgres', 'source.postgres.port'],
    ['postgres', 'source.postgres.database'],
    ['postgres', 'source.postgres.credentials'],
    ['postgres', 'source.postgres.tableMappings'],
    ['postgres', 'source.postgres.tableMappings[0].targetTable'],
  ] as const)('requires %s %s', async (kind, path) => {
    const { paths } = await rejection(CreatePipeDto, patched(validCreateBody(kind), path, undefined));
    expect(paths).toEqual([path]);
  });

  it('refuses an empty postgres tableMappings and an empty columns list', async () => {
    let body = patched(validCreateBody('postgres'), 'source.postgres.tableMappings', []);
    body = patched(body, 'destination.columns', []);
    body = patched(body, 'fieldMappings', []);
    expect((await rejection(CreatePipeDto, body)).paths).toEqual([
      'source.postgres.tableMappings',
      'destination.columns',
    ]);
  });

  describe('unknown fields', () => {
    it.each([
      'owner',
      'source.kafka.format',
      'source.kafka.offset.from',
      'source.postgres.settings.walSender',
      'destination.columns[1].nullable',
      'destination.tableDefinition.engine.type',
      'fieldMappings[0].transform',
      'scaling.replicaGpu',
      'settings.engine_unknown_setting',
    ])('rejects %s by its path', async (path) => {
      const kind = path.startsWith('source.postgres') ? 'postgres' : 'kafka';
      const { errors } = await rejection(CreatePipeDto, patched(validCreateBody(kind), path, 'x'));
      expect(errors).toEqual([{ path, message: 'is not a known field' }]);
    });
  });

  describe('exactly one source kind', () => {
    it('rejects a source with no kind', async () => {
      const { errors } = await rejection(CreatePipeDto, patched(kafkaBody(), 'source.kafka', undefined));
      expect(errors).toEqual([{ path: 'source', message: ONE_KIND }]);
    });

    it('rejects a source with two kinds', async () => {
      const body = patched(kafkaBody(), 'source.kinesis', validCreateBody('kinesis').source.kinesis);
      const { errors } = await rejection(CreatePipeDto, body);
      expect(errors).toEqual([{ path: 'source', message: ONE_KIND }]);
    });

    it('rejects all four kinds at once', async () => {
      const source = Object.assign({}, ...SOURCE_KINDS.map((kind) => validCreateBody(kind).source));
      const { errors } = await rejection(CreatePipeDto, { ...kafkaBody(), source });
      expect(errors).toEqual([{ path: 'source', message: ONE_KIND }]);
    });

    it('counts a null kind as present, and reports the null', async () => {
      const body = patched(kafkaBody(), 'source.kinesis', null);
      const { paths, errors } = await rejection(CreatePipeDto, body);
      expect(paths).toEqual(['source', 'source.kinesis']);
      expect(errors).toContainEqual({ path: 'source', message: ONE_KIND });
    });

    it('reports only the type error when source is not an object', async () => {
      for (const source of ['kafka', [], 1, null]) {
        const { errors } = await rejection(CreatePipeDto, { ...kafkaBody(), source });
        expect(errors).toEqual([{ path: 'source', message: 'source must be an object' }]);
      }
    });
  });

  describe('every destination column is mapped', () => {
    it('names the columns no mapping covers', async () => {
      const body = patched(kafkaBody(), 'fieldMappings', [{ sourceField: 'id', destinationField: 'id' }]);
      const { errors } = await rejection(CreatePipeDto, body);
      expect(errors).toEqual([
        {
          path: 'fieldMappings',
          message: 'must map every destination column; not mapped: created_at, payload',
        },
      ]);
    });

    it('is satisfied by mappings onto every column, whatever the source field', async () => {
      const body = patched(kafkaBody(), 'fieldMappings[2].sourceField', 'body');
      await expect(validated(CreatePipeDto, body)).resolves.toBeInstanceOf(CreatePipeDto);
    });

    it('does not apply when the pipe lists no columns', async () => {
      const body = patched(validCreateBody('postgres'), 'destination', { database: 'analytics' });
      await expect(validated(CreatePipeDto, patched(body, 'fieldMappings', []))).resolves.toBeDefined();
    });

    it('leaves a malformed fieldMappings to its type error', async () => {
      const { paths, errors } = await rejection(CreatePipeDto, patched(kafkaBody(), 'fieldMappings', 'id'));
      expect(paths).toEqual(['fieldMappings']);
      expect(errors).toContainEqual({ path: 'fieldMappings', message: 'fieldMappings must be an array' });
      expect(errors.map((e) => e.message)).not.toContainEqual(expect.stringContaining('not mapped'));
    });
  });

  describe('kafka offset', () => {
    it.each(['2025-01-31T10:15Z', '2025-01-31T10:15:00Z', '2024-02-29T00:00Z', '2025-12-31T23:59Z'])(
      'accepts the timestamp %s',
      async (timestamp) => {
        await expect(
          validated(CreatePipeDto, patched(kafkaBody(), TIMESTAMP, timestamp)),
        ).resolves.toBeDefined();
      },
    );

    it.each([
      ['seconds', '2025-01-31T10:15:30Z'],
      ['a fraction', '2025-01-31T10:15:00.000Z'],
      ['a fraction without seconds', '2025-01-31T10:15.5Z'],
      ['no timezone', '2025-01-31T10:15'],
      ['an offset instead of Z', '2025-01-31T10:15+00:00'],
      ['a space instead of T', '2025-01-31 10:15Z'],
      ['a date only', '2025-01-31'],
      ['an impossible date', '2025-02-30T10:15Z'],
      ['hour 24', '2025-01-31T24:00Z'],
      ['minute 60', '2025-01-31T10:60Z'],
      ['garbage', 'yesterday'],
      ['an empty string', ''],
      ['epoch seconds', 1738318500],
      ['null', null],
    ])('rejects a timestamp with %s', async (_case, timestamp) => {
      const { errors } = await rejection(CreatePipeDto, patched(kafkaBody(), TIMESTAMP, timestamp));
      expect(errors).toEqual([
        { path: TIMESTAMP, message: expect.stringContaining('UTC date-time with minute') },
      ]);
    });

    it('takes any strategy, with no timestamp unless the strategy needs one', async () => {
      for (const strategy of ['from_beginning', 'from_latest', 'from_a_future_strategy']) {
        const body = patched(kafkaBody(), 'source.kafka.offset', { strategy });
        await expect(validated(CreatePipeDto, body)).resolves.toBeDefined();
      }
    });

    it.each([[{}], [{ strategy: 'from_timestamp' }]])('requires a timestamp in %j', async (offset) => {
      const { paths } = await rejection(CreatePipeDto, patched(kafkaBody(), 'source.kafka.offset', offset));
      expect(paths).toEqual([TIMESTAMP]);
    });

    it('rejects an empty strategy', async () => {
      const { paths } = await rejection(
        CreatePipeDto,
        patched(kafkaBody(), 'source.kafka.offset.strategy', ''),
      );
      expect(paths).toEqual(['source.kafka.offset.strategy']);
    });
  });

  it('takes any non-empty compression and delimiter, refuses empty ones', async () => {
    for (const [compression, delimiter] of [
      ['zstd', '|'],
      ['LZMA', '\t'],
      ['a-future-codec', ';;'],
    ]) {
      let body = patched(validCreateBody('objectStorage'), 'source.objectStorage.compression', compression);
      body = patched(body, 'source.objectStorage.delimiter', delimiter);
      await expect(validated(CreatePipeDto, body)).resolves.toBeDefined();
    }
    let empty = patched(validCreateBody('objectStorage'), 'source.objectStorage.compression', '');
    empty = patched(empty, 'source.objectStorage.delimiter', '');
    expect((await rejection(CreatePipeDto, empty)).paths).toEqual([
      'source.objectStorage.delimiter',
      'source.objectStorage.compression',
    ]);
  });

  describe('types are never converted', () => {
    it.each([
      ['kafka', 'scaling.replicas', '1'],
      ['kafka', 'scaling.replicas', 1.5],
      ['kafka', 'scaling.replicaCpuMillicores', '500'],
      ['kafka', 'scaling.replicaMemoryGb', '2'],
      ['kafka', 'settings.engine_max_threads', '8'],
      ['kafka', 'settings.engine_max_threads', 8.5],
      ['kafka', 'settings.engine_parallel_view_processing', 'true'],
      ['kafka', 'source.validateSamples', 'true'],
      ['kafka', 'source.validateSamples', 1],
      ['kafka', 'source.kafka.brokers', ['b-1:9092']],
      ['kafka', 'source.kafka.reversePrivateEndpointIds', 'rpe-1'],
      ['kafka', 'source.kafka.reversePrivateEndpointIds', [1]],
      ['kafka', 'destination.managedTable', 'true'],
      ['kafka', 'destination.roles', ['']],
      ['kafka', 'destination.tableDefinition.sortingKey', 'id'],
      ['kafka', 'name', 42],
      ['kafka', 'name', ''],
      ['kinesis', 'source.kinesis.timestamp', '1738318500'],
      ['kinesis', 'source.kinesis.timestamp', 1.5],
      ['kinesis', 'source.kinesis.useEnhancedFanOut', 'false'],
      ['objectStorage', 'source.objectStorage.isContinuous', 0],
      ['postgres', 'source.postgres.port', '5432'],
      ['postgres', 'source.postgres.port', 5432.5],
      ['postgres', 'source.postgres.settings.pullBatchSize', '100000'],
      ['postgres', 'source.postgres.settings.enableFailoverSlots', 'yes'],
      ['postgres', 'source.postgres.tableMappings[0].useCustomSortingKey', 'true'],
    ] as const)('%s: rejects %s = %j', async (kind, path, value) => {
      const { status, paths } = await rejection(CreatePipeDto, patched(validCreateBody(kind), path, value));
      expect(status).toBe(400);
      expect(paths).toEqual([path]);
    });

    it('rejects NaN and Infinity', async () => {
      let body = patched(kafkaBody(), 'scaling.replicaMemoryGb', Number.NaN);
      body = patched(body, 'scaling.replicas', Number.POSITIVE_INFINITY);
      expect((await rejection(CreatePipeDto, body)).paths).toEqual([
        'scaling.replicas',
        'scaling.replicaMemoryGb',
      ]);
    });

    it('rejects null for an optional field instead of forwarding it', async () => {
      for (const path of [
        'scaling',
        'settings',
        'source.kafka.caCertificate',
        'destination.tableDefinition',
      ]) {
        expect((await rejection(CreatePipeDto, patched(kafkaBody(), path, null))).paths).toEqual([path]);
      }
    });

    it.each([
      ['source.kafka.credentials', 'user:pass', 'source.kafka.credentials', 'credentials must be an object'],
      ['destination.tableDefinition', [], 'destination.tableDefinition', 'tableDefinition must be an object'],
      [
        'destination.columns',
        [['id', 'UInt64']],
        'destination.columns',
        'each value in columns must be an object',
      ],
      ['destination.columns', ['id'], 'destination.columns[0]', 'each value in columns must be an object'],
      ['fieldMappings', [[]], 'fieldMappings', 'each value in fieldMappings must be an object'],
    ])('rejects %s = %j as the wrong shape', async (field, value, path, message) => {
      const { errors } = await rejection(CreatePipeDto, patched(kafkaBody(), field, value));
      expect(errors[0]).toEqual({ path, message });
      expect(errors.every((error) => error.path.startsWith(path))).toBe(true);
    });
  });

  describe('scaling bounds', () => {
    it.each([
      ['replicas', 1],
      ['replicas', 40],
      ['concurrency', 0],
      ['concurrency', 34],
      ['replicaCpuMillicores', 125],
      ['replicaCpuMillicores', 2000],
      ['replicaMemoryGb', 0.5],
      ['replicaMemoryGb', 8],
    ])('accepts %s = %d', async (field, value) => {
      await expect(
        validated(CreatePipeDto, patched(kafkaBody(), `scaling.${field}`, value)),
      ).resolves.toBeDefined();
    });

    it.each([
      ['replicas', 0],
      ['replicas', 41],
      ['concurrency', -1],
      ['concurrency', 35],
      ['replicaCpuMillicores', 124],
      ['replicaCpuMillicores', 2001],
      ['replicaMemoryGb', 0.4],
      ['replicaMemoryGb', 8.5],
    ])('rejects %s = %d', async (field, value) => {
      const { errors } = await rejection(CreatePipeDto, patched(kafkaBody(), `scaling.${field}`, value));
      expect(errors).toEqual([
        { path: `scaling.${field}`, message: expect.stringMatching(/must not be (less|greater)/) },
      ]);
    });
  });

  it('rejects negative settings and out-of-range ports', async () => {
    let body = patched(validCreateBody('postgres'), 'settings.object_storage_max_file_count', -1);
    body = patched(body, 'source.postgres.port', 70000);
    body = patched(body, 'source.postgres.settings.syncIntervalSeconds', 0);
    expect((await rejection(CreatePipeDto, body)).paths).toEqual([
      'source.postgres.port',
      'source.postgres.settings.syncIntervalSeconds',
      'settings.object_storage_max_file_count',
    ]);
  });

  it('reports every problem of a body in one 400', async () => {
    let body = patched(kafkaBody(), 'source.kinesis', validCreateBody('kinesis').source.kinesis);
    body = patched(body, 'fieldMappings', body.fieldMappings.slice(1));
    body = patched(body, 'scaling.replicas', '2');
    body = patched(body, TIMESTAMP, '2025-01-31T10:15:30Z');
    body = patched(body, 'destination.color', 'blue');
    const { status, paths } = await rejection(CreatePipeDto, body);
    expect(status).toBe(400);
    expect(paths).toEqual(['source', TIMESTAMP, 'destination.color', 'fieldMappings', 'scaling.replicas']);
  });
});
