/**
 * Scrubbing answers by value would confirm a guess: a caller who sends candidate values where no
 * secret belongs sees "[redacted]" where one of them is held by the vault. Such an answer is
 * audited (`vault.value-echo`, paths only) and counted, and past VAULT_VALUE_ECHO_LIMIT the caller's
 * requests that send a body upstream are refused.
 */
import { validCreateBody } from './fixtures/pipe-bodies';
import { bearer } from './support/fixtures';
import { canaryOf, startUpstreamWorld, UpstreamWorld } from './support/upstreams';

describe('guessing a vault secret through redaction (e2e)', () => {
  let world: UpstreamWorld;
  let password: string;
  const pipes = () => `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`;
  const operator = () => bearer(world.tenant.keys.operator);
  const auditor = () => bearer(world.tenant.keys.auditor);

  /** A kafka create whose destination has a column for each of `guesses` (mapped), after the usual ones. */
  const guessing = (guesses: string[]) => {
    const body = validCreateBody('kafka');
    body.source.kafka.credentials = { $secret: 'kafka-prod' };
    body.destination.columns = [
      ...body.destination.columns,
      ...guesses.map((name) => ({ name, type: 'String' })),
    ];
    body.fieldMappings = [
      ...body.fieldMappings,
      ...guesses.map((name) => ({ sourceField: 'payload', destinationField: name })),
    ];
    return body;
  };

  const echoEvents = async () => {
    const audit = await world.gateway.http
      .get('/v1/audit?action=vault.value-echo')
      .set(auditor())
      .expect(200);
    return audit.body.items as { actor: string; outcome: string; details: Record<string, unknown> }[];
  };

  const echoesCounted = async () => {
    const metrics = await world.gateway.http.get('/metrics').expect(200);
    const line = /^gateway_vault_value_echoes_total\{upstream="pipes"\} (\d+)$/m.exec(metrics.text);
    return line === null ? 0 : Number(line[1]);
  };

  beforeAll(async () => {
    world = await startUpstreamWorld({ VAULT_VALUE_ECHO_LIMIT: '2/1h' });
    password = `${canaryOf(world)}Guessed`;
    await world.gateway.http
      .post('/v1/credentials')
      .set(bearer(world.tenant.keys.admin))
      .send({ kind: 'secret', name: 'kafka-prod', value: { username: 'orders', password } })
      .expect(201);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('does not count a reference at a secret place, whose value goes upstream', async () => {
    const body = validCreateBody('kafka');
    body.source.kafka.credentials = { $secret: 'kafka-prod' };
    body.source.kafka.schemaRegistry.credentials = { $secret: 'kafka-prod' };
    await world.gateway.http.post(pipes()).set(operator()).send(body).expect(200);
    expect(JSON.stringify(world.pipes.requests().at(-1)?.body)).toContain(password);
    expect(await echoEvents()).toEqual([]);
    expect(await echoesCounted()).toBe(0);
  });

  it('audits and counts an answer scrubbed of a value the request carried outside a secret place', async () => {
    const candidates = Array.from({ length: 40 }, (_, index) => `${canaryOf(world)}Wrong${index}`);
    const body = guessing([...candidates.slice(0, 20), password, ...candidates.slice(20)]);
    const answer = await world.gateway.http.post(pipes()).set(operator()).send(body).expect(200);
    const columns = answer.body.result.destination.columns as { name: string }[];
    expect(columns[3 + 20].name).toBe('[redacted]');
    expect(columns[3 + 19].name).toBe(candidates[19]);
    expect(answer.text).not.toContain(password);

    const events = await echoEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      outcome: 'succeeded',
      details: {
        upstream: 'pipes',
        paths: [`destination.columns[${3 + 20}].name`, `fieldMappings[${3 + 20}].destinationField`],
      },
    });
    expect(await echoesCounted()).toBe(1);

    const audit = await world.gateway.http.get('/v1/audit/export').set(auditor()).expect(200);
    expect(audit.text).not.toContain(password);
    expect(world.gateway.logs.text()).not.toContain(password);
  });

  it('names a guess sent as a field name by its path, scrubbed', async () => {
    const body = guessing([]);
    (body.settings as Record<string, unknown>)[password] = 1;
    const answer = await world.gateway.http.post(pipes()).set(operator()).send(body);
    expect(answer.text).not.toContain(password);
    const events = await echoEvents();
    expect(events).toHaveLength(2);
    expect(events[0].details.paths).toEqual(['settings.[redacted]']);
    expect(JSON.stringify(events)).not.toContain(password);
    expect(await echoesCounted()).toBe(2);
  });

  it('past the limit refuses the caller every request that sends a body upstream, naming why', async () => {
    const before = world.pipes.requests().length;
    const refused = await world.gateway.http
      .post(pipes())
      .set(operator())
      .send(validCreateBody('kafka'))
      .expect(429);
    expect(refused.body.detail).toMatch(/scrubbed of vault secret values .* outside secret places/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(world.pipes.requests()).toHaveLength(before);
    // Reads send nothing of the caller's, and another caller is not held back.
    await world.gateway.http.get(pipes()).set(operator()).expect(200);
    await world.gateway.http
      .post(pipes())
      .set(bearer(world.tenant.keys.admin))
      .send(validCreateBody('kafka'))
      .expect(200);
    expect(await echoesCounted()).toBe(2);
  });
});
