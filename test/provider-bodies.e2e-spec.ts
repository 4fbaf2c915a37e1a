/**
 * The requests the pipes service's own Terraform provider sends (test/fixtures/provider-bodies.ts)
 * pass the gateway and reach the service byte for byte, secrets scrubbed from everything the
 * gateway keeps and answers; what the service refuses comes back as its answer; what no version of
 * the service takes is refused before any upstream call, naming the path.
 */
import { randomUUID } from 'node:crypto';
import {
  baseOfUpdate,
  providerCreateBodies,
  providerScalingBodies,
  providerSettingsBodies,
  providerUpdateBodies,
} from './fixtures/provider-bodies';
import { bearer } from './support/fixtures';
import { canaryOf, expectKeptNowhere, startUpstreamWorld, UpstreamWorld } from './support/upstreams';

describe("bodies from the pipes service's Terraform provider (e2e)", () => {
  let world: UpstreamWorld;
  let canary: string;
  const pipes = (suffix = '') =>
    `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes${suffix}`;
  const operator = () => bearer(world.tenant.keys.operator);

  beforeAll(async () => {
    world = await startUpstreamWorld();
    canary = canaryOf(world);
  });
  afterAll(async () => {
    await world.close();
  });
  beforeEach(() => world.pipes.clearRequests());

  /** The one request the service received, as JSON text. */
  function forwarded(): string {
    const requests = world.pipes.requests();
    expect(requests).toHaveLength(1);
    return JSON.stringify(requests[0].body);
  }

  /** A pipe created from `body` straight in the service, as a starting point. */
  function seeded(body: Record<string, unknown>): string {
    return world.pipes.seedPipe(world.organizationId, world.serviceId, body).id;
  }

  describe.each(providerCreateBodies().map(({ name }, index) => [name, index]))(
    'create: %s',
    (_name, index) => {
      it("is forwarded byte for byte, and the service's answer comes back without a secret", async () => {
        const { body, kind, unmapped } = providerCreateBodies(`${canary}-create-${index}`)[index];
        const response = await world.gateway.http.post(pipes()).set(operator()).send(body);
        expect(forwarded()).toBe(JSON.stringify(body));
        expect(JSON.stringify(response.body)).not.toContain(canary);
        if (unmapped === undefined) {
          expect(response.status).toBe(200);
          expect(response.body.result.source[kind]).toBeDefined();
        } else {
          // The contract's rule is the service's to apply: the gateway relays its refusal.
          expect(response.status).toBe(400);
          expect(response.body.type).toContain('upstream-rejected-request');
          expect(response.body.upstream.body.error).toContain(
            `fieldMappings: must map every destination column; not mapped: ${unmapped.join(', ')}`,
          );
        }
      });
    },
  );

  describe.each(providerUpdateBodies().map(({ name }, index) => [name, index]))(
    'update: %s',
    (_name, index) => {
      it('is forwarded byte for byte, and the answer comes back without a secret', async () => {
        const update = providerUpdateBodies(`${canary}-update-${index}`)[index];
        const pipeId = seeded(baseOfUpdate(update));
        if (update.paused) world.pipes.setPipeState(pipeId, 'Paused');
        const response = await world.gateway.http
          .patch(pipes(`/${pipeId}`))
          .set(operator())
          .send(update.body)
          .expect(200);
        expect(forwarded()).toBe(JSON.stringify(update.body));
        expect(JSON.stringify(response.body)).not.toContain(canary);
      });
    },
  );

  it('applies the fields the service documents as changeable, here a table mapping added while paused', async () => {
    const update = providerUpdateBodies().find(({ name }) =>
      name.startsWith('mysql: a table mapping added'),
    )!;
    const pipeId = seeded(baseOfUpdate(update));
    world.pipes.setPipeState(pipeId, 'Paused');
    await world.gateway.http
      .patch(pipes(`/${pipeId}`))
      .set(operator())
      .send(update.body)
      .expect(200);
    const mappings = world.pipes.storedPipe(pipeId)!.source.mysql as { tableMappings: object[] };
    expect(mappings.tableMappings).toContainEqual(update.body.source.mysql.tableMappingsToAdd[0]);
  });

  it.each(providerSettingsBodies().map((body) => [JSON.stringify(body), body]))(
    'replaces the settings with %s, forwarded as sent, and reads them back',
    async (_name, body) => {
      const base = providerCreateBodies().find(({ unmapped }) => unmapped === undefined)!;
      const pipeId = seeded(base.body);
      const replaced = await world.gateway.http
        .put(pipes(`/${pipeId}/settings`))
        .set(operator())
        .send(body)
        .expect(200);
      expect(forwarded()).toBe(JSON.stringify(body));
      expect(replaced.body.result).toEqual(body);
      const read = await world.gateway.http
        .get(pipes(`/${pipeId}/settings`))
        .set(bearer(world.tenant.keys.viewer))
        .expect(200);
      expect(read.body.result).toEqual(body);
    },
  );

  it.each(providerScalingBodies().map((body) => [JSON.stringify(body), body]))(
    'scales with %s, forwarded as sent',
    async (_name, body) => {
      const pipeId = seeded(providerCreateBodies()[0].body);
      await world.gateway.http
        .patch(pipes(`/${pipeId}/scaling`))
        .set(operator())
        .send(body)
        .expect(200);
      expect(forwarded()).toBe(JSON.stringify(body));
    },
  );

  it('forwards a setting it does not know that is named like a secret, and keeps its value nowhere', async () => {
    const secretSetting = `${canary}-setting`;
    const settings = { kafka_read_committed: true, schema_registry_password: secretSetting };
    const body = { ...providerCreateBodies()[0].body, settings };
    const created = await world.gateway.http.post(pipes()).set(operator()).send(body).expect(200);
    expect(forwarded()).toBe(JSON.stringify(body));
    world.pipes.clearRequests();
    const replaced = await world.gateway.http
      .put(pipes(`/${created.body.result.id}/settings`))
      .set(operator())
      .send(settings)
      .expect(200);
    expect(forwarded()).toBe(JSON.stringify(settings));

    const history = await world.gateway.http
      .get('/v1/history/pipe-specs?limit=200')
      .set(bearer(world.tenant.keys.auditor))
      .expect(200);
    const kept = history.body.items.find(
      (item: { pipeId: string | null }) => item.pipeId === created.body.result.id,
    );
    expect(kept.spec.settings).toEqual({
      kafka_read_committed: true,
      schema_registry_password: '[redacted]',
    });
    expect(JSON.stringify(created.body)).not.toContain(secretSetting);
    expect(JSON.stringify(replaced.body)).not.toContain(secretSetting);
    await expectKeptNowhere(world, secretSetting);
  });

  describe('what no version of the service takes', () => {
    const kafkaCreate = () => providerCreateBodies()[0].body;
    it.each([
      [
        'a kafka authentication outside the documented set',
        () => {
          const body = kafkaCreate();
          body.source.kafka.authentication = 'OAUTHBEARER';
          return body;
        },
        'source.kafka.authentication',
        'must be one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, IAM_ROLE, IAM_USER, MUTUAL_TLS',
      ],
      [
        'a kinesis timestamp that is true',
        () => {
          const body = providerCreateBodies().find(({ kind }) => kind === 'kinesis')!.body;
          body.source.kinesis.timestamp = true;
          return body;
        },
        'source.kinesis.timestamp',
        'must be an integer, a string or null',
      ],
      [
        'a setting it does not list, given a list',
        () => ({ ...kafkaCreate(), settings: { kafka_read_committed: [true] } }),
        'settings.kafka_read_committed',
        'must be a string, a number, true or false, or null',
      ],
      [
        'a known setting of the wrong type',
        () => ({ ...kafkaCreate(), settings: { clickhouse_max_threads: '8' } }),
        'settings.clickhouse_max_threads',
        'must be an integer or null',
      ],
    ])('refuses a create with %s: 400 naming the path', async (_name, body, path, message) => {
      const response = await world.gateway.http.post(pipes()).set(operator()).send(body()).expect(400);
      expect(response.body.errors).toEqual([{ path, message }]);
      expect(world.pipes.requests()).toHaveLength(0);
    });

    it.each([
      [
        'a kinesis iterator type outside the documented set',
        { source: { kinesis: { iteratorType: 'AT_SEQUENCE_NUMBER' } } },
        'source.kinesis.iteratorType',
        'must be one of TRIM_HORIZON, LATEST, AT_TIMESTAMP',
      ],
      [
        'a mysql port given as text',
        { source: { mysql: { host: 'h', port: '3306' } } },
        'source.mysql.port',
        'must be an integer or null',
      ],
      [
        'a table mapping that names no source table',
        { source: { mongodb: { tableMappingsToAdd: [{ sourceDatabaseName: 'd', targetTable: 't' }] } } },
        'source.mongodb.tableMappingsToAdd[0].sourceCollection',
        'is required',
      ],
    ])('refuses an update with %s: 400 naming the path', async (_name, body, path, message) => {
      const response = await world.gateway.http
        .patch(pipes(`/${randomUUID()}`))
        .set(operator())
        .send(body)
        .expect(400);
      expect(response.body.errors).toEqual([{ path, message }]);
      expect(world.pipes.requests()).toHaveLength(0);
    });

    it.each([
      [
        { streaming_max_insert_wait_ms: 100 },
        'streaming_max_insert_wait_ms',
        'must be a whole number from 500 to 60000',
      ],
      [
        { kafka_read_committed: { on: true } },
        'kafka_read_committed',
        'must be a string, a number, true or false, or null',
      ],
    ])('refuses the settings %p: 400 naming the path', async (body, path, message) => {
      const response = await world.gateway.http
        .put(pipes(`/${randomUUID()}/settings`))
        .set(operator())
        .send(body)
        .expect(400);
      expect(response.body.errors).toEqual([{ path, message }]);
      expect(world.pipes.requests()).toHaveLength(0);
    });
  });

  it('keeps every planted secret out of the history, the audit log and the logs', async () => {
    await expectKeptNowhere(world, canary);
  });
});
