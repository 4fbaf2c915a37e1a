/**
 * The typed client for frontends (clients/typescript): the committed files match the document the
 * gateway serves, and the client drives the gateway wired to the sandbox simulators over real HTTP.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { createGatewayClient } from '../clients/typescript/src';
import { startGateway } from './support/gateway';
import { startUpstreamWorld, type UpstreamWorld } from './support/upstreams';
import {
  createKafkaPipe,
  createKinesisPipe,
  createPostgresPipe,
  createWithMisplacedReference,
  updateKinesisAccessKey,
} from './typed-client/pipe-references';

const ROOT = join(__dirname, '..');

/** The generated files as scripts/client-files.js makes them from `document`. */
function clientFiles(document: unknown): Record<string, string> {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts/client-files.js')], {
    input: JSON.stringify(document),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`scripts/client-files.js failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, string>;
}

/** What the TypeScript compiler reports for `file` with the repository's settings, one line each. */
function typeErrors(file: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    { noEmit: true, incremental: false },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  )!;
  const program = ts.createProgram([file], config.options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${relative(ROOT, diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : 'tsconfig';
    return `${where} TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
}

describe('the committed typed client (e2e)', () => {
  it('matches the OpenAPI document the gateway serves', async () => {
    const gateway = await startGateway();
    let document: unknown;
    try {
      document = (await gateway.http.get('/docs-json').expect(200)).body;
    } finally {
      await gateway.close();
    }
    const stale = Object.entries(clientFiles(document))
      .filter(([path, text]) => readFileSync(join(ROOT, path), 'utf8') !== text)
      .map(([path]) => path);
    if (stale.length > 0) {
      throw new Error(
        `The committed typed client is out of date (${stale.join(', ')} differ from what the served OpenAPI ` +
          'document gives): run `npm run client:generate` and commit the result.',
      );
    }
  });
});

describe('a frontend on the typed client (e2e)', () => {
  let world: UpstreamWorld;

  beforeAll(async () => {
    world = await startUpstreamWorld();
  });
  afterAll(() => world.close());

  const as = (role: 'operator' | 'viewer' | 'auditor') =>
    createGatewayClient({ baseUrl: world.gateway.url, token: world.tenant.keys[role] });

  it('creates and reads a pipe, replaces a dashboard with If-Match, and reads the audit log', async () => {
    const location = { organizationId: world.organizationId, serviceId: world.serviceId };
    const created = await as('operator').POST(
      '/v1/organizations/{organizationId}/services/{serviceId}/pipes',
      {
        params: { path: location, header: { 'Idempotency-Key': `typed-client-${world.serviceId}` } },
        // Written as a frontend would: the compiler checks it against the pipes service's create body.
        body: {
          name: 'orders',
          source: {
            kinesis: {
              streamName: 'orders',
              region: 'us-east-1',
              authentication: 'IAM_USER',
              accessKey: { accessKeyId: 'AKIAEXAMPLE', secretKey: 'typed-client-secret' },
            },
          },
          destination: { database: 'default', table: 'orders', columns: [{ name: 'id', type: 'String' }] },
          fieldMappings: [{ sourceField: 'id', destinationField: 'id' }],
        },
      },
    );
    expect(created.error).toBeUndefined();
    const pipeId = created.data!.result.id!;

    const read = await as('viewer').GET(
      '/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}',
      {
        params: { path: { ...location, pipeId } },
      },
    );
    expect(read.data?.result).toMatchObject({ id: pipeId, name: 'orders' });
    expect(JSON.stringify(read.data)).not.toContain('typed-client-secret');

    const id = world.dashboards.seedDashboard({ name: 'Orders', tags: [], tiles: [] }).id;
    const dashboard = await as('viewer').GET('/v1/dashboards/{id}', { params: { path: { id } } });
    expect(dashboard.data?.data.name).toBe('Orders');
    const etag = dashboard.response.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);

    const replaced = await as('operator').PUT('/v1/dashboards/{id}', {
      params: { path: { id }, header: { 'If-Match': etag } },
      body: { name: 'Orders, replaced', tiles: [], tags: ['typed'] },
    });
    expect(replaced.data?.data.name).toBe('Orders, replaced');
    expect(replaced.response.headers.get('etag')).not.toBe(etag);

    // The tag read before the replace is stale now: the typed error is the problem document.
    const stale = await as('operator').PUT('/v1/dashboards/{id}', {
      params: { path: { id }, header: { 'If-Match': etag } },
      body: { name: 'Orders, stale', tiles: [] },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error).toMatchObject({ status: 412, type: expect.stringMatching(/dashboard-changed$/) });

    const audit = await as('auditor').GET('/v1/audit', { params: { query: { limit: 200 } } });
    const actions = audit.data!.items.map((event) => `${event.action} ${event.outcome}`);
    expect(actions).toEqual(expect.arrayContaining(['pipe.create succeeded', 'dashboard.replace succeeded']));
  });

  describe('vault references', () => {
    const file = join(__dirname, 'typed-client', 'pipe-references.ts');

    it('type-check wherever the gateway takes one, and nowhere else', () => {
      // The file's misplaced reference carries @ts-expect-error: were it accepted, that line errs too.
      expect(typeErrors(file)).toEqual([]);
    }, 120_000);

    it('are sent by the typed client as written and resolved by the gateway', async () => {
      const location = { organizationId: world.organizationId, serviceId: world.serviceId };
      const admin = createGatewayClient({ baseUrl: world.gateway.url, token: world.tenant.keys.admin });
      const store = async (name: string, value: string | Record<string, string>) => {
        const stored = await admin.POST('/v1/credentials', { body: { kind: 'secret', name, value } });
        expect(stored.response.status).toBe(201);
      };
      await store('typed-kafka', { username: 'orders', password: 'typed-kafka-password' });
      await store('typed-postgres', 'typed-postgres-password');
      await store('typed-kinesis', { accessKeyId: 'AKIATYPEDCLIENT', secretKey: 'typed-kinesis-key' });
      const sent = () => world.pipes.requests().at(-1)?.body as any;

      expect((await createKafkaPipe(as('operator'), location, 'typed-kafka')).error).toBeUndefined();
      expect(sent().source.kafka.credentials).toEqual({
        username: 'orders',
        password: 'typed-kafka-password',
      });

      expect((await createPostgresPipe(as('operator'), location, 'typed-postgres')).error).toBeUndefined();
      expect(sent().source.postgres.credentials).toEqual({
        username: 'replicator',
        password: 'typed-postgres-password',
      });

      const kinesis = await createKinesisPipe(as('operator'), location);
      const pipeId = kinesis.data!.result.id!;
      const updated = await updateKinesisAccessKey(as('operator'), { ...location, pipeId }, 'typed-kinesis');
      expect(updated.error).toBeUndefined();
      expect(sent().source.kinesis.accessKey).toEqual({
        accessKeyId: 'AKIATYPEDCLIENT',
        secretKey: 'typed-kinesis-key',
      });

      const misplaced = await createWithMisplacedReference(as('operator'), location, 'typed-kafka');
      expect(misplaced.response.status).toBe(422);
      expect(misplaced.error).toMatchObject({
        type: expect.stringMatching(/secret-reference-misplaced$/),
        errors: [{ path: 'name' }],
      });
    });
  });
});
