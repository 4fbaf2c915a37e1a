import { randomUUID } from 'node:crypto';
import { CONTROL_PREFIX } from './http-simulator';
import { startPipesSimulator } from './pipes-simulator';
import type { PipesSimulator } from './pipes-simulator';
import { basicAuth, call, UUID_V4 } from './test-http-client';
import type { CallInit, HttpResult } from './test-http-client';

const KEY = { keyId: 'key-main', keySecret: 'secret-main' };
const OTHER_KEY = { keyId: 'key-other', keySecret: 'secret-other' };
const DISABLED_KEY = { keyId: 'key-disabled', keySecret: 'secret-disabled', disabled: true };
const READ_ONLY_KEY = { keyId: 'key-reader', keySecret: 'secret-reader', readOnly: true };
const ORG = randomUUID();
const SERVICE = randomUUID();
const DELAYS = { provisioning: 1_000, setup: 2_000, snapshot: 3_000, oneOffLoad: 4_000, stopping: 500 };

const kafkaPipe = () => ({
  name: 'orders',
  scaling: { replicas: 2 },
  source: {
    validateSamples: true,
    kafka: {
      brokers: 'broker-1:9092',
      topics: 'orders',
      consumerGroup: 'orders-group',
      offset: { timestamp: '2025-01-01T00:00' },
      schemaRegistry: {
        url: 'https://registry.example.com',
        credentials: { username: 'registry-user', password: 'registry-password' },
      },
      credentials: { username: 'kafka-user', password: 'kafka-password' },
    },
  },
  destination: {
    database: 'default',
    table: 'orders',
    managedTable: true,
    columns: [{ name: 'id', type: 'UInt64' }],
    roles: ['writer'],
  },
  fieldMappings: [{ sourceField: 'id', destinationField: 'id' }],
  settings: { streaming_max_insert_wait_ms: 500 },
});

const objectStoragePipe = (isContinuous: boolean) => ({
  name: 'files',
  source: {
    objectStorage: {
      url: 'https://bucket.example.com/data/*.csv',
      compression: 'gzip',
      isContinuous,
      connectionString: 'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=account-key-value',
      accessKey: { accessKeyId: 'AKIA-EXAMPLE', secretKey: 'object-storage-secret' },
    },
  },
  destination: { database: 'default', table: 'files' },
});

const postgresPipe = () => ({
  name: 'cdc',
  source: {
    postgres: {
      host: 'db.example.com',
      port: 5432,
      database: 'shop',
      credentials: { username: 'replicator', password: 'postgres-password' },
      settings: { publicationName: 'pub' },
      tableMappings: [{ sourceSchemaName: 'public', sourceTable: 'orders', targetTable: 'orders' }],
    },
  },
  destination: { database: 'default' },
});

describe('pipes simulator', () => {
  let simulator: PipesSimulator;
  let clock: number;

  const pipesUrl = (suffix = '', organizationId: string = ORG, serviceId: string = SERVICE) =>
    `${simulator.url}/v1/organizations/${organizationId}/services/${serviceId}/pipes${suffix}`;
  const send = (method: string, url: string, body?: unknown, init: CallInit = {}): Promise<HttpResult> =>
    call(url, {
      method,
      body,
      ...init,
      headers: { authorization: basicAuth(KEY.keyId, KEY.keySecret), ...init.headers },
    });
  const create = async (body: unknown = kafkaPipe()) => {
    const response = await send('POST', pipesUrl(), body);
    expect(response.status).toBe(200);
    return response.json.result;
  };
  const stateNow = async (pipeId: string) => (await send('GET', pipesUrl(`/${pipeId}`))).json.result.state;
  const command = (pipeId: string, name: string) =>
    send('PATCH', pipesUrl(`/${pipeId}/state`), { command: name });

  beforeAll(async () => {
    simulator = await startPipesSimulator({
      keys: [KEY, OTHER_KEY, DISABLED_KEY, READ_ONLY_KEY],
      stateDelaysMs: DELAYS,
      now: () => clock,
    });
  });

  beforeEach(() => {
    clock = Date.parse('2025-03-01T12:00:00.000Z');
    simulator.reset();
  });

  afterAll(async () => {
    await simulator.close();
  });

  describe('authentication', () => {
    it.each([
      ['no Authorization header', undefined],
      ['a wrong secret', basicAuth(KEY.keyId, 'wrong')],
      ['an unknown key', basicAuth('nobody', KEY.keySecret)],
      ['a disabled key', basicAuth(DISABLED_KEY.keyId, DISABLED_KEY.keySecret)],
      ['a bearer token', 'Bearer secret-main'],
    ])('answers 401 with the error body for %s', async (_case, authorization) => {
      const response = await call(pipesUrl(), {
        method: 'POST',
        body: kafkaPipe(),
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.status).toBe(401);
      expect(response.json).toEqual({
        status: 401,
        error: expect.any(String),
        requestId: expect.stringMatching(UUID_V4),
      });
      expect(simulator.storedPipes()).toHaveLength(0);
    });

    it('lets a read-only key read settings but not create or update', async () => {
      const pipe = await create();
      const reader = { authorization: basicAuth(READ_ONLY_KEY.keyId, READ_ONLY_KEY.keySecret) };
      expect((await send('POST', pipesUrl(), kafkaPipe(), { headers: reader })).status).toBe(403);
      expect((await send('PATCH', pipesUrl(`/${pipe.id}`), { name: 'x' }, { headers: reader })).status).toBe(
        403,
      );
      expect(
        (await send('GET', pipesUrl(`/${pipe.id}/settings`), undefined, { headers: reader })).status,
      ).toBe(200);
    });
  });

  describe('create', () => {
    it('answers the envelope with the pipe, its secrets and destination roles left out', async () => {
      const response = await send('POST', pipesUrl(), kafkaPipe());
      expect(response.status).toBe(200);
      expect(response.json).toEqual({
        status: 200,
        requestId: expect.stringMatching(UUID_V4),
        result: expect.any(Object),
      });
      const pipe = response.json.result;
      expect(pipe).toEqual({
        id: expect.stringMatching(UUID_V4),
        serviceId: SERVICE,
        name: 'orders',
        state: 'Provisioning',
        // CPU and memory come back as quantity strings, as the real service sends them.
        scaling: { replicas: 2, concurrency: 1, replicaCpuMillicores: '125m', replicaMemoryGb: '512Mi' },
        source: {
          kafka: {
            // What the caller left out, filled in the way the service does.
            type: 'kafka',
            format: 'JSONEachRow',
            authentication: 'PLAIN',
            exactlyOnce: false,
            brokers: 'broker-1:9092',
            topics: 'orders',
            consumerGroup: 'orders-group',
            offset: { timestamp: '2025-01-01T00:00' },
            schemaRegistry: { url: 'https://registry.example.com' },
          },
        },
        destination: {
          database: 'default',
          table: 'orders',
          managedTable: true,
          columns: [{ name: 'id', type: 'UInt64' }],
        },
        fieldMappings: [{ sourceField: 'id', destinationField: 'id' }],
        settings: { streaming_max_insert_wait_ms: 500 },
        createdAt: '2025-03-01T12:00:00.000Z',
        updatedAt: '2025-03-01T12:00:00.000Z',
      });
      expect(response.text).not.toMatch(/password|kafka-user|registry-user/);
    });

    it('keeps the secrets it was sent, for the pipe to use', async () => {
      const pipe = await create();
      const stored = simulator.storedPipe(pipe.id);
      expect(stored?.source.kafka).toMatchObject({
        credentials: { username: 'kafka-user', password: 'kafka-password' },
      });
      expect(stored?.destination.roles).toEqual(['writer']);
    });

    it('leaves out object storage and kinesis access keys but still shows the connection string', async () => {
      const files = await create(objectStoragePipe(true));
      expect(files.source.objectStorage.accessKey).toBeUndefined();
      expect(files.source.objectStorage.connectionString).toContain('AccountKey=account-key-value');

      const stream = await create({
        name: 'stream',
        source: {
          kinesis: {
            streamName: 'clicks',
            region: 'eu-west-1',
            accessKey: { accessKeyId: 'AKIA-KINESIS', secretKey: 'kinesis-secret' },
          },
        },
        destination: { database: 'default', table: 'clicks' },
      });
      expect(stream.source).toEqual({
        kinesis: {
          format: 'JSONEachRow',
          iteratorType: 'TRIM_HORIZON',
          authentication: 'IAM_USER',
          streamName: 'clicks',
          region: 'eu-west-1',
        },
      });
    });

    it('gives every response a fresh request id', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i += 1) ids.add((await send('POST', pipesUrl(), kafkaPipe())).json.requestId);
      ids.add((await send('POST', pipesUrl(), {})).json.requestId);
      expect(ids.size).toBe(6);
    });

    it('fills in the postgres settings the service defaults', async () => {
      const pipe = await create(postgresPipe());
      expect(pipe.source.postgres.settings).toEqual({
        publicationName: 'pub',
        syncIntervalSeconds: 60,
        pullBatchSize: 100_000,
        initialLoadParallelism: 4,
        snapshotNumRowsPerPartition: 100_000,
        replicationMode: 'cdc',
      });
      expect(pipe.source.postgres).toMatchObject({ type: 'postgres', authentication: 'basic' });
      expect(pipe.source.postgres.credentials).toBeUndefined();
    });

    it('takes a body with little more than its source, as the service does', async () => {
      const response = await send('POST', pipesUrl(), { source: { kafka: { brokers: 'b:9092' } } });
      expect(response.status).toBe(200);
    });

    it('takes fields its document does not name, and keeps only those it names', async () => {
      const body = kafkaPipe();
      const postgres = postgresPipe();
      const kafka = await create({
        ...body,
        colour: 'blue',
        source: { ...body.source, kafka: { ...body.source.kafka, colour: 'red' } },
      });
      const cdc = await create({
        ...postgres,
        source: { postgres: { ...postgres.source.postgres, tableMappingsToAdd: [] } },
      });
      expect(simulator.storedPipe(kafka.id)?.source.kafka).not.toHaveProperty('colour');
      expect(kafka).not.toHaveProperty('colour');
      expect(simulator.storedPipe(cdc.id)?.source.postgres).not.toHaveProperty('tableMappingsToAdd');
    });

    it('reads the document as the service reads bodies: open credential forms, nullable objects', async () => {
      const body = kafkaPipe();
      const forms = [
        { accessKeyId: 'AKIA', secretKey: 's' },
        { connectionString: 'Endpoint=sb://x' },
        { certificate: 'PEM', privateKey: 'KEY' },
      ];
      for (const credentials of forms) {
        const source = { kafka: { ...body.source.kafka, credentials }, kinesis: null };
        expect((await send('POST', pipesUrl(), { ...body, source })).status).toBe(200);
      }
      const text = await send('POST', pipesUrl(), { ...body, source: { kafka: 'broker:9092' } });
      expect(text.json.error).toContain('source.kafka: must be object or null');
    });

    it('takes what the service takes beyond its document, as its own Terraform provider sends it', async () => {
      const kinesis = { streamName: 's', region: 'us-east-1', iteratorType: 'AT_TIMESTAMP' };
      const atText = { source: { kinesis: { ...kinesis, timestamp: '2021-01-01T00:00' } } };
      expect((await send('POST', pipesUrl(), atText)).status).toBe(200);
      const postgres = postgresPipe().source.postgres;
      const mysql = { ...postgres, type: 'planetscalevitess', settings: { replicationMode: 'cdc' } };
      const pipe = await create({ source: { mysql } });
      simulator.setPipeState(pipe.id, 'Paused');
      const mapping = { sourceSchemaName: 'shop', sourceTable: 'users', targetTable: 'users' };
      const update = { source: { mysql: { tableMappingsToAdd: [mapping] } } };
      expect((await send('PATCH', pipesUrl(`/${pipe.id}`), update)).status).toBe(200);
    });

    it.each([
      ['an empty name', { ...kafkaPipe(), name: '' }, 'name: must not be empty'],
      ['no source', { ...kafkaPipe(), source: undefined }, 'source: is required'],
      [
        'no source kind',
        { ...kafkaPipe(), source: {} },
        'source: must contain exactly one source kind (kafka, objectStorage, kinesis, pubsub, postgres, mysql',
      ],
      [
        'two source kinds',
        { ...kafkaPipe(), source: { ...kafkaPipe().source, kinesis: { streamName: 's' } } },
        'source: must contain exactly one source kind',
      ],
      [
        'an unmapped destination column',
        { ...kafkaPipe(), fieldMappings: [] },
        'fieldMappings: must map every destination column; not mapped: id',
      ],
      [
        'a field of the wrong type',
        { ...kafkaPipe(), scaling: { replicas: '2' } },
        'scaling.replicas: must be integer',
      ],
      [
        'scaling out of bounds',
        { ...kafkaPipe(), scaling: { replicas: 41 } },
        'scaling.replicas: must be from 1 to 40',
      ],
      [
        'an unknown compression',
        {
          ...objectStoragePipe(false),
          source: { objectStorage: { ...objectStoragePipe(false).source.objectStorage, compression: 'rar' } },
        },
        'source.objectStorage.compression: must be one of',
      ],
    ])('answers 400 for %s', async (_case, body, message) => {
      const response = await send('POST', pipesUrl(), body);
      expect(response.status).toBe(400);
      expect(response.json).toEqual({
        status: 400,
        error: expect.stringContaining(message),
        requestId: expect.stringMatching(UUID_V4),
      });
      expect(simulator.storedPipes()).toHaveLength(0);
    });

    it.each([
      ['malformed JSON', { rawBody: '{"name": ' }, /^Malformed JSON body/],
      ['no body', {}, /must be a JSON object/],
      ['an array', { body: [kafkaPipe()] }, /must be a JSON object/],
    ])('answers 400 for %s', async (_case, init, message) => {
      const response = await send('POST', pipesUrl(), undefined, init);
      expect(response.status).toBe(400);
      expect(response.json.error).toMatch(message);
    });
  });

  describe('path ids', () => {
    it.each([
      ['organizationId', () => pipesUrl(`/${randomUUID()}/settings`, 'not-a-uuid')],
      ['serviceId', () => pipesUrl(`/${randomUUID()}/settings`, ORG, '1234')],
      ['pipeId', () => pipesUrl('/pipe-1/settings')],
    ])('answers 400 when %s is not a UUID', async (name, url) => {
      const response = await send('GET', url());
      expect(response.status).toBe(400);
      expect(response.json.error).toContain(`${name} must be a UUID`);
    });

    it('answers 404 for an unknown route and 405 for a known path with another method', async () => {
      expect((await send('GET', `${simulator.url}/v1/pipes`)).status).toBe(404);
      const wrongMethod = await send('PUT', pipesUrl(`/${randomUUID()}`));
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.json.requestId).toMatch(UUID_V4);
    });
  });

  describe('state', () => {
    it('moves a streaming pipe from Provisioning to Running', async () => {
      const pipe = await create();
      expect(pipe.state).toBe('Provisioning');
      clock += DELAYS.provisioning - 1;
      expect(await stateNow(pipe.id)).toBe('Provisioning');
      clock += 1;
      expect(await stateNow(pipe.id)).toBe('Running');
    });

    it('takes a postgres pipe through Setup and Snapshot before Running', async () => {
      const pipe = await create(postgresPipe());
      const seen = [pipe.state];
      for (const step of [DELAYS.provisioning, DELAYS.setup, DELAYS.snapshot]) {
        clock += step;
        seen.push(await stateNow(pipe.id));
      }
      expect(seen).toEqual(['Provisioning', 'Setup', 'Snapshot', 'Running']);
    });

    it('ends a one-off object storage load Completed and keeps a continuous one Running', async () => {
      const oneOff = await create(objectStoragePipe(false));
      const continuous = await create(objectStoragePipe(true));
      clock += DELAYS.provisioning;
      expect(await stateNow(oneOff.id)).toBe('Running');
      clock += DELAYS.oneOffLoad;
      expect(await stateNow(oneOff.id)).toBe('Completed');
      expect(await stateNow(continuous.id)).toBe('Running');
    });

    it('holds a state set through the test hook or the control route', async () => {
      const pipe = await create();
      simulator.setPipeState(pipe.id, 'Degraded');
      clock += 60_000;
      expect(await stateNow(pipe.id)).toBe('Degraded');
      const control = await call(`${simulator.url}${CONTROL_PREFIX}/pipes/${pipe.id}/state`, {
        method: 'PUT',
        body: { state: 'Stopped' },
      });
      expect(control.status).toBe(204);
      expect(await stateNow(pipe.id)).toBe('Stopped');
      const unknownState = await call(`${simulator.url}${CONTROL_PREFIX}/pipes/${pipe.id}/state`, {
        method: 'PUT',
        body: { state: 'Sleeping' },
      });
      expect(unknownState.status).toBe(400);
    });
  });

  describe('update', () => {
    it('applies the updatable fields, merging objects and replacing arrays', async () => {
      const pipe = await create();
      clock += 5_000;
      const response = await send('PATCH', pipesUrl(`/${pipe.id}`), {
        name: 'orders-v2',
        source: {
          validateSamples: false,
          kafka: {
            iamRole: 'arn:aws:iam::1:role/reader',
            caCertificate: 'PEM',
            reversePrivateEndpointIds: ['rpe-1'],
            credentials: { username: 'kafka-user', password: 'rotated-password' },
          },
        },
        destination: {
          columns: [
            { name: 'id', type: 'UInt64' },
            { name: 'total', type: 'Float64' },
          ],
        },
        fieldMappings: [
          { sourceField: 'id', destinationField: 'id' },
          { sourceField: 'total', destinationField: 'total' },
        ],
        settings: { engine_max_threads: 4 },
      });
      expect(response.status).toBe(200);
      expect(response.json.requestId).toMatch(UUID_V4);
      const updated = response.json.result;
      expect(updated).toMatchObject({
        id: pipe.id,
        name: 'orders-v2',
        state: 'Running',
        source: {
          kafka: {
            brokers: 'broker-1:9092',
            iamRole: 'arn:aws:iam::1:role/reader',
            caCertificate: 'PEM',
            reversePrivateEndpointIds: ['rpe-1'],
          },
        },
        destination: { table: 'orders', columns: [{ name: 'id' }, { name: 'total' }] },
        settings: { streaming_max_insert_wait_ms: 500, engine_max_threads: 4 },
        createdAt: pipe.createdAt,
        updatedAt: '2025-03-01T12:00:05.000Z',
      });
      expect(updated.fieldMappings).toHaveLength(2);
      expect(updated.source.kafka.credentials).toBeUndefined();
      expect(updated.source.validateSamples).toBeUndefined();
      expect(simulator.storedPipe(pipe.id)?.source.kafka).toMatchObject({
        credentials: { password: 'rotated-password' },
      });
    });

    it('updates an object storage access key without showing it', async () => {
      const pipe = await create(objectStoragePipe(true));
      const response = await send('PATCH', pipesUrl(`/${pipe.id}`), {
        source: {
          objectStorage: {
            path: 'data/2025/*',
            accessKey: { accessKeyId: 'AKIA-NEW', secretKey: 'new-secret' },
          },
        },
      });
      expect(response.status).toBe(200);
      expect(response.json.result.source.objectStorage.path).toBe('data/2025/*');
      expect(response.text).not.toContain('new-secret');
      expect(simulator.storedPipe(pipe.id)?.source.objectStorage).toMatchObject({
        accessKey: { secretKey: 'new-secret' },
      });
    });

    it.each([
      [
        'a source of another kind',
        { source: { kinesis: { iamRole: 'r' } } },
        "source.kinesis: the pipe's source is kafka",
      ],
      ['an empty name', { name: '' }, 'name: must not be empty'],
      ['a name of the wrong type', { name: 5 }, 'name: must be string or null'],
      [
        'an unknown authentication',
        { source: { kafka: { authentication: 'NONE' } } },
        'source.kafka.authentication: must be one of PLAIN',
      ],
    ])('refuses to update %s with 400 and changes nothing', async (_case, patch, message) => {
      const pipe = await create();
      const before = simulator.storedPipe(pipe.id);
      const response = await send('PATCH', pipesUrl(`/${pipe.id}`), patch);
      expect(response.status).toBe(400);
      expect(response.json.error).toContain(message);
      expect(simulator.storedPipe(pipe.id)).toEqual(before);
    });

    it('takes the fields a source was created with and leaves them as they were', async () => {
      const pipe = await create();
      const before = simulator.storedPipe(pipe.id)!;
      const response = await send('PATCH', pipesUrl(`/${pipe.id}`), {
        source: { kafka: { brokers: 'other:9092', topics: 'other', caCertificate: 'NEW-PEM' } },
      });
      expect(response.status).toBe(200);
      expect(simulator.storedPipe(pipe.id)!.source.kafka).toEqual({
        ...(before.source.kafka as object),
        caCertificate: 'NEW-PEM',
      });
    });

    it('clears a field of a value set with null', async () => {
      const pipe = await create();
      const response = await send('PATCH', pipesUrl(`/${pipe.id}`), {
        source: { kafka: { authentication: null } },
      });
      expect(response.status).toBe(200);
      expect(simulator.storedPipe(pipe.id)!.source.kafka).not.toHaveProperty('authentication');
    });

    it('takes fields its document does not name for an update, and changes nothing for them', async () => {
      const pipe = await create();
      const before = simulator.storedPipe(pipe.id)!;
      const response = await send('PATCH', pipesUrl(`/${pipe.id}`), {
        scaling: { replicas: 3 },
        destination: { table: 'other', roles: ['admin'] },
        state: 'Paused',
      });
      expect(response.status).toBe(200);
      expect(simulator.storedPipe(pipe.id)).toEqual({ ...before, updatedAt: expect.any(String) });
    });

    it('updates only syncIntervalSeconds and pullBatchSize of postgres settings', async () => {
      const pipe = await create(postgresPipe());
      const allowed = await send('PATCH', pipesUrl(`/${pipe.id}`), {
        source: { postgres: { settings: { syncIntervalSeconds: 30, pullBatchSize: 500 } } },
      });
      expect(allowed.status).toBe(200);
      expect(allowed.json.result.source.postgres.settings).toMatchObject({
        syncIntervalSeconds: 30,
        pullBatchSize: 500,
        publicationName: 'pub',
      });
      const before = simulator.storedPipe(pipe.id)!.source.postgres;
      const setAtCreate = await send('PATCH', pipesUrl(`/${pipe.id}`), {
        source: { postgres: { settings: { publicationName: 'other' }, tableMappings: [] } },
      });
      expect(setAtCreate.status).toBe(200);
      expect(simulator.storedPipe(pipe.id)!.source.postgres).toEqual(before);
    });

    describe('postgres table mappings', () => {
      const ordersMapping = { sourceSchemaName: 'public', sourceTable: 'orders', targetTable: 'orders' };
      const usersMapping = {
        sourceSchemaName: 'public',
        sourceTable: 'users',
        targetTable: 'users',
        excludedColumns: ['pw'],
      };

      it('refuses edits unless the pipe is paused', async () => {
        const pipe = await create(postgresPipe());
        clock += 10_000;
        const response = await send('PATCH', pipesUrl(`/${pipe.id}`), {
          source: { postgres: { tableMappingsToAdd: [usersMapping] } },
        });
        expect(response.status).toBe(400);
        expect(response.json.error).toMatch(/Running.*must be paused to edit/);
        expect(simulator.storedPipe(pipe.id)?.source.postgres).toMatchObject({
          tableMappings: [ordersMapping],
        });
      });

      it('removes and adds mappings on a paused pipe', async () => {
        const pipe = await create(postgresPipe());
        simulator.setPipeState(pipe.id, 'Paused');
        const added = await send('PATCH', pipesUrl(`/${pipe.id}`), {
          source: { postgres: { tableMappingsToAdd: [usersMapping] } },
        });
        expect(added.status).toBe(200);
        expect(added.json.result.source.postgres.tableMappings).toEqual([ordersMapping, usersMapping]);
        expect(added.json.result.source.postgres.tableMappingsToAdd).toBeUndefined();

        const replaced = await send('PATCH', pipesUrl(`/${pipe.id}`), {
          source: {
            postgres: {
              tableMappingsToRemove: [ordersMapping],
              tableMappingsToAdd: [{ ...ordersMapping, sourceTable: 'orders_v2' }],
            },
          },
        });
        expect(replaced.status).toBe(200);
        expect(replaced.json.result.source.postgres.tableMappings).toEqual([
          usersMapping,
          { ...ordersMapping, sourceTable: 'orders_v2' },
        ]);
      });

      it('refuses removing a mapping that does not exist and adding a second source for a target table', async () => {
        const pipe = await create(postgresPipe());
        simulator.setPipeState(pipe.id, 'Paused');
        const missing = await send('PATCH', pipesUrl(`/${pipe.id}`), {
          source: { postgres: { tableMappingsToRemove: [{ ...ordersMapping, sourceTable: 'nope' }] } },
        });
        expect(missing.status).toBe(400);
        expect(missing.json.error).toContain('tableMappingsToRemove[0]: no such table mapping');
        const clash = await send('PATCH', pipesUrl(`/${pipe.id}`), {
          source: { postgres: { tableMappingsToAdd: [{ ...ordersMapping, sourceTable: 'legacy_orders' }] } },
        });
        expect(clash.status).toBe(400);
        expect(clash.json.error).toContain('target table orders is already mapped');
      });
    });
  });

  describe('lifecycle operations', () => {
    it('lists the pipes of one service and reads one, secrets left out', async () => {
      const first = await create();
      const second = await create(postgresPipe());
      await send('POST', pipesUrl('', ORG, randomUUID()), kafkaPipe());
      const list = await send('GET', pipesUrl());
      expect(list.status).toBe(200);
      expect(list.json.result.map((pipe: { id: string }) => pipe.id)).toEqual([first.id, second.id]);
      expect(list.text).not.toMatch(/kafka-password|postgres-password/);
      const read = await send('GET', pipesUrl(`/${first.id}`));
      expect(read.json.result).toEqual(first);
    });

    it('serves the real resource name too', async () => {
      const pipe = await create();
      const url = `${simulator.url}/v1/organizations/${ORG}/services/${SERVICE}/clickpipes/${pipe.id}`;
      expect((await send('GET', url)).json.result.id).toBe(pipe.id);
    });

    it('deletes a pipe, which is then not found', async () => {
      const pipe = await create();
      const deleted = await send('DELETE', pipesUrl(`/${pipe.id}`));
      expect(deleted.status).toBe(200);
      expect(deleted.json).toEqual({ status: 200, requestId: expect.stringMatching(UUID_V4) });
      expect(simulator.storedPipe(pipe.id)).toBeUndefined();
      expect((await send('DELETE', pipesUrl(`/${pipe.id}`))).status).toBe(404);
    });

    it('stops and starts a streaming pipe through Stopping and Provisioning', async () => {
      const pipe = await create();
      clock += DELAYS.provisioning;
      expect((await command(pipe.id, 'stop')).json.result.state).toBe('Stopping');
      clock += DELAYS.stopping;
      expect(await stateNow(pipe.id)).toBe('Stopped');
      expect((await command(pipe.id, 'stop')).status).toBe(409);
      expect((await command(pipe.id, 'start')).json.result.state).toBe('Provisioning');
      clock += DELAYS.provisioning;
      expect(await stateNow(pipe.id)).toBe('Running');
      const again = await command(pipe.id, 'start');
      expect(again.status).toBe(409);
      expect(again.json.error).toBe('Pipe is Running: only a stopped pipe can be started');
    });

    it('pauses a database pipe and resyncs it through Resync and Snapshot', async () => {
      const pipe = await create(postgresPipe());
      clock += 60_000;
      await command(pipe.id, 'stop');
      expect(await stateNow(pipe.id)).toBe('Pausing');
      clock += DELAYS.stopping;
      expect(await stateNow(pipe.id)).toBe('Paused');
      expect((await command(pipe.id, 'resync')).json.result.state).toBe('Resync');
      clock += DELAYS.setup;
      expect(await stateNow(pipe.id)).toBe('Snapshot');
      clock += DELAYS.snapshot;
      expect(await stateNow(pipe.id)).toBe('Running');
    });

    it('resyncs only database pipes, and takes only the three commands', async () => {
      const pipe = await create();
      const resync = await command(pipe.id, 'resync');
      expect(resync.status).toBe(400);
      expect(resync.json.error).toContain('resync is only for database pipes');
      const unknown = await command(pipe.id, 'pause');
      expect(unknown.status).toBe(400);
      expect(unknown.json.error).toContain('command: must be one of start, stop, resync');
    });

    it('scales a pipe within the published bounds', async () => {
      const pipe = await create();
      const scaled = await send('PATCH', pipesUrl(`/${pipe.id}/scaling`), {
        replicas: 4,
        replicaMemoryGb: 2,
      });
      expect(scaled.status).toBe(200);
      expect(scaled.json.result.scaling).toEqual({
        replicas: 4,
        concurrency: 1,
        replicaCpuMillicores: '125m',
        replicaMemoryGb: '2Gi',
      });
      const refused = await send('PATCH', pipesUrl(`/${pipe.id}/scaling`), { replicas: 41 });
      expect(refused.status).toBe(400);
      expect(simulator.storedPipe(pipe.id)?.scaling.replicas).toBe(4);
    });

    it('replaces the settings object whole', async () => {
      const pipe = await create();
      const replaced = await send('PUT', pipesUrl(`/${pipe.id}/settings`), { clickhouse_max_threads: 8 });
      expect(replaced.json.result).toEqual({ clickhouse_max_threads: 8 });
      expect((await send('GET', pipesUrl(`/${pipe.id}/settings`))).json.result).toEqual({
        clickhouse_max_threads: 8,
      });
      const refused = await send('PUT', pipesUrl(`/${pipe.id}/settings`), { clickhouse_max_threads: 65 });
      expect(refused.status).toBe(400);
    });

    it('lets a read-only key list and read but not change', async () => {
      const pipe = await create();
      const reader = { headers: { authorization: basicAuth(READ_ONLY_KEY.keyId, READ_ONLY_KEY.keySecret) } };
      expect((await send('GET', pipesUrl(), undefined, reader)).status).toBe(200);
      expect((await send('GET', pipesUrl(`/${pipe.id}`), undefined, reader)).status).toBe(200);
      expect((await send('DELETE', pipesUrl(`/${pipe.id}`), undefined, reader)).status).toBe(403);
      expect((await send('PATCH', pipesUrl(`/${pipe.id}/state`), { command: 'stop' }, reader)).status).toBe(
        403,
      );
    });
  });

  describe('settings', () => {
    it('reads the stored settings object, as updated', async () => {
      const pipe = await create();
      const first = await send('GET', pipesUrl(`/${pipe.id}/settings`));
      expect(first.status).toBe(200);
      expect(first.json).toEqual({
        status: 200,
        requestId: expect.stringMatching(UUID_V4),
        result: { streaming_max_insert_wait_ms: 500 },
      });
      await send('PATCH', pipesUrl(`/${pipe.id}`), {
        settings: { object_storage_use_cluster_function: true },
      });
      const second = await send('GET', pipesUrl(`/${pipe.id}/settings`));
      expect(second.json.result).toEqual({
        streaming_max_insert_wait_ms: 500,
        object_storage_use_cluster_function: true,
      });
    });

    it('reads an empty object for a pipe created without settings', async () => {
      const pipe = await create(objectStoragePipe(true));
      expect((await send('GET', pipesUrl(`/${pipe.id}/settings`))).json.result).toEqual({});
    });
  });

  describe('not found', () => {
    it.each([
      ['an unknown pipe', (_id: string) => pipesUrl(`/${randomUUID()}/settings`)],
      ['a pipe of another service', (id: string) => pipesUrl(`/${id}/settings`, ORG, randomUUID())],
      ['a pipe of another organization', (id: string) => pipesUrl(`/${id}/settings`, randomUUID())],
    ])('answers 404 for %s', async (_case, url) => {
      const pipe = await create();
      const read = await send('GET', url(pipe.id));
      expect(read.status).toBe(404);
      expect(read.json).toEqual({
        status: 404,
        error: expect.any(String),
        requestId: expect.stringMatching(UUID_V4),
      });
      expect((await send('PATCH', url(pipe.id).replace(/\/settings$/, ''), { name: 'x' })).status).toBe(404);
    });
  });

  describe('idle service', () => {
    it('answers 424 with the idle state until the service is woken', async () => {
      const pipe = await create();
      simulator.markServiceIdle(SERVICE);
      for (const [method, url, body] of [
        ['GET', pipesUrl(`/${pipe.id}/settings`)],
        ['PATCH', pipesUrl(`/${pipe.id}`), { name: 'x' }],
        ['POST', pipesUrl(), kafkaPipe()],
      ] as const) {
        const response = await send(method, url, body);
        expect(response.status).toBe(424);
        expect(response.json.status).toBe(424);
        expect(response.json.error).toContain('Current state: idle');
      }
      expect((await send('POST', pipesUrl('', ORG, randomUUID()), kafkaPipe())).status).toBe(200);
      simulator.wakeService(SERVICE);
      expect((await send('GET', pipesUrl(`/${pipe.id}/settings`))).status).toBe(200);
    });

    it('marks and wakes services over the control routes', async () => {
      const idle = await call(`${simulator.url}${CONTROL_PREFIX}/services/${SERVICE}/idle`, {
        method: 'POST',
      });
      expect(idle.status).toBe(204);
      expect((await send('POST', pipesUrl(), kafkaPipe())).status).toBe(424);
      await call(`${simulator.url}${CONTROL_PREFIX}/services/${SERVICE}/idle`, { method: 'DELETE' });
      expect((await send('POST', pipesUrl(), kafkaPipe())).status).toBe(200);
    });
  });

  it('echoes the secrets it was sent when a fault asks it to', async () => {
    simulator.faults.add({ kind: 'echoSecrets', times: 1 });
    const echoed = (await send('POST', pipesUrl(), kafkaPipe())).json.result;
    expect(echoed.source.kafka.credentials).toEqual({ username: 'kafka-user', password: 'kafka-password' });
    expect(echoed.source.kafka.schemaRegistry.credentials).toEqual({
      username: 'registry-user',
      password: 'registry-password',
    });
    const next = (await send('POST', pipesUrl(), objectStoragePipe(true))).json.result;
    expect(next.source.objectStorage.accessKey).toBeUndefined();
  });

  it('forgets pipes and idle services on reset', async () => {
    const pipe = await create();
    simulator.markServiceIdle(randomUUID());
    simulator.reset();
    expect(simulator.storedPipes()).toEqual([]);
    expect((await send('GET', pipesUrl(`/${pipe.id}/settings`))).status).toBe(404);
  });
});

describe('pipes simulator rate limit', () => {
  let simulator: PipesSimulator;
  let clock = 0;
  const url = () =>
    `${simulator.url}/v1/organizations/${ORG}/services/${SERVICE}/pipes/${randomUUID()}/settings`;
  const get = (key: { keyId: string; keySecret: string }) =>
    call(url(), { headers: { authorization: basicAuth(key.keyId, key.keySecret) } });

  beforeAll(async () => {
    simulator = await startPipesSimulator({
      keys: [KEY, OTHER_KEY],
      rateLimit: { limit: 3, windowMs: 10_000 },
      now: () => clock,
    });
  });

  afterAll(async () => {
    await simulator.close();
  });

  it('answers 429 with X-RateLimit-Reset once a key has used its window, per key', async () => {
    for (let i = 0; i < 3; i += 1) expect((await get(KEY)).status).toBe(404);
    clock += 2_500;
    const limited = await get(KEY);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-reset')).toBe('8');
    expect(limited.json).toEqual({
      status: 429,
      error: expect.any(String),
      requestId: expect.stringMatching(UUID_V4),
    });
    expect((await get(OTHER_KEY)).status).toBe(404);
    // Calls without a valid key are refused before they are counted.
    expect((await call(url())).status).toBe(401);
    clock += 7_500;
    expect((await get(KEY)).status).toBe(404);
  });
});
