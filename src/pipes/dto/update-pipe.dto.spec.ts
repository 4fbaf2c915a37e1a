import { validCreateBody, validUpdateBody } from './test-support/pipe-fixtures';
import { PostgresSourceUpdateDto, SOURCE_KINDS, SourceKind, TableMappingRefDto } from './pipe-source.dto';
import { patched, rejection, validated } from '../../common/validation/test-support/dto-validation';
import { UpdatePipeDto } from './update-pipe.dto';

/** The value at `path` of a create body, so a refused field carries a value create would accept. */
function createValue(kind: SourceKind, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], validCreateBody(kind));
}

const NOT_UPDATABLE: [SourceKind, string][] = [
  ...['brokers', 'topics', 'consumerGroup', 'offset', 'schemaRegistry'].map((field): [SourceKind, string] => [
    'kafka',
    `source.kafka.${field}`,
  ]),
  ...['url', 'delimiter', 'compression', 'isContinuous', 'queueUrl'].map((field): [SourceKind, string] => [
    'objectStorage',
    `source.objectStorage.${field}`,
  ]),
  ...['streamName', 'region', 'useEnhancedFanOut', 'timestamp'].map((field): [SourceKind, string] => [
    'kinesis',
    `source.kinesis.${field}`,
  ]),
  ['postgres', 'source.postgres.tableMappings'],
  ...[
    'publicationName',
    'replicationSlotName',
    'allowNullableColumns',
    'initialLoadParallelism',
    'snapshotNumRowsPerPartition',
    'snapshotNumberOfParallelTables',
    'enableFailoverSlots',
  ].map((field): [SourceKind, string] => ['postgres', `source.postgres.settings.${field}`]),
  ['kafka', 'scaling'],
  ...['database', 'table', 'managedTable', 'tableDefinition', 'roles'].map((field): [SourceKind, string] => [
    'kafka',
    `destination.${field}`,
  ]),
];

describe('UpdatePipeDto', () => {
  it.each(SOURCE_KINDS)('accepts a complete %s update', async (kind) => {
    const dto = await validated(UpdatePipeDto, validUpdateBody(kind));
    expect(dto).toBeInstanceOf(UpdatePipeDto);
    expect(JSON.parse(JSON.stringify(dto))).toEqual(validUpdateBody(kind));
  });

  it('builds the postgres update classes', async () => {
    const dto = await validated(UpdatePipeDto, validUpdateBody('postgres'));
    expect(dto.source?.postgres).toBeInstanceOf(PostgresSourceUpdateDto);
    expect(dto.source?.postgres?.tableMappingsToRemove?.[0]).toBeInstanceOf(TableMappingRefDto);
  });

  it.each([
    [{}],
    [{ name: 'renamed' }],
    [{ source: { validateSamples: true } }],
    [{ source: { postgres: { settings: { pullBatchSize: 5000 } } } }],
    [{ settings: { engine_max_threads: 2 } }],
  ])('accepts a partial update %j', async (body) => {
    await expect(validated(UpdatePipeDto, body)).resolves.toBeInstanceOf(UpdatePipeDto);
  });

  it.each(NOT_UPDATABLE)('%s: rejects %s, which only create takes', async (kind, path) => {
    const body = patched(validUpdateBody(kind), path, createValue(kind, path));
    const { status, errors } = await rejection(UpdatePipeDto, body);
    expect(status).toBe(400);
    expect(errors).toEqual([{ path, message: 'is not a known field' }]);
  });

  it('names every refused field of one body', async () => {
    let body = patched(validUpdateBody('kafka'), 'source.kafka.brokers', 'b-3:9092');
    body = patched(body, 'scaling', { replicas: 3 });
    body = patched(body, 'destination.table', 'orders_v2');
    const { paths } = await rejection(UpdatePipeDto, body);
    expect(paths).toEqual(['scaling', 'source.kafka.brokers', 'destination.table']);
  });

  it('does not take create-only fields in the postgres table mappings to remove', async () => {
    const body = patched(
      validUpdateBody('postgres'),
      'source.postgres.tableMappingsToRemove[0].excludedColumns',
      ['pdf_blob'],
    );
    const { errors } = await rejection(UpdatePipeDto, body);
    expect(errors).toEqual([
      { path: 'source.postgres.tableMappingsToRemove[0].excludedColumns', message: 'is not a known field' },
    ]);
  });

  it('still checks the shared shapes: credentials, access keys, mappings, columns', async () => {
    let body = patched(validUpdateBody('kafka'), 'source.kafka.credentials.password', undefined);
    body = patched(body, 'destination.columns[0].type', 7);
    body = patched(body, 'fieldMappings[0].destinationField', '');
    body = patched(body, 'settings.engine_parallel_view_processing', 'true');
    const { paths } = await rejection(UpdatePipeDto, body);
    expect(paths).toEqual([
      'source.kafka.credentials.password',
      'destination.columns[0].type',
      'fieldMappings[0].destinationField',
      'settings.engine_parallel_view_processing',
    ]);
    const kinesis = patched(validUpdateBody('kinesis'), 'source.kinesis.accessKey', { accessKeyId: 'AKIA' });
    expect((await rejection(UpdatePipeDto, kinesis)).paths).toEqual(['source.kinesis.accessKey.secretKey']);
  });

  it.each([
    ['name', null],
    ['name', ''],
    ['source', null],
    ['source.postgres.port', '5433'],
    ['source.postgres.settings.syncIntervalSeconds', 1.5],
    ['source.postgres.tableMappingsToAdd', {}],
    ['destination.columns', null],
    ['destination.columns', []],
    ['fieldMappings', null],
  ])('rejects %s = %j', async (path, value) => {
    const { paths } = await rejection(UpdatePipeDto, patched(validUpdateBody('postgres'), path, value));
    expect(paths[0]).toBe(path);
  });

  it('leaves the create rules to create', async () => {
    const body = { destination: { columns: [{ name: 'extra', type: 'String' }] }, source: {} };
    await expect(validated(UpdatePipeDto, body)).resolves.toBeInstanceOf(UpdatePipeDto);
  });
});
