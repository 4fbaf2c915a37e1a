/**
 * Every secret field of a pipe body, as the pipes service's own OpenAPI document marks them and as
 * docs/vault.md lists them (test/support/secret-fields.ts), planted one canary per field in a
 * create sent through the gateway to the pipes simulator, which echoes the secrets back: no canary
 * appears in the gateway's answer, the spec history, the audit export or the logs.
 * (src/redaction/vendor-secret-fields.spec.ts checks the same list against the redaction alone.)
 */
import { realShapedCreateBodies } from './fixtures/pipe-bodies';
import type { PipeBody } from './fixtures/pipe-bodies';
import { bearer } from './support/fixtures';
import { documentedSecretPlaces, markedSecretPaths } from './support/secret-fields';
import { canaryOf, startUpstreamWorld } from './support/upstreams';
import type { UpstreamWorld } from './support/upstreams';

const places = new Set([...markedSecretPaths(), ...documentedSecretPlaces()]);
// A place holding an object (`credentials`) is planted through each field the document gives it.
const fields = [...places].filter((path) => ![...places].some((other) => other.startsWith(`${path}.`)));

/** A real-shaped create body of the source kind `path` is under, with `value` at `path`. */
function bodyWithSecretAt(path: string, value: string): PipeBody {
  const [, kind, ...rest] = path.split('.');
  const shaped = realShapedCreateBodies().find(({ body }) => body.source[kind] !== undefined);
  if (shaped === undefined) throw new Error(`no fixture body has a ${kind} source`);
  const body = structuredClone(shaped.body);
  let at = body.source[kind] as PipeBody;
  for (const [index, segment] of rest.entries()) {
    const last = index === rest.length - 1;
    const place = ['source', kind, ...rest.slice(0, index + 1)].join('.');
    if (last) at[segment] = value;
    // A secret object holds one of its forms: the field alone, not mixed into the fixture's form.
    else if (places.has(place)) at = at[segment] = {};
    else at = at[segment] = (at[segment] as PipeBody | undefined) ?? {};
  }
  return body;
}

describe('no secret field of the pipes service is kept or answered (e2e)', () => {
  let world: UpstreamWorld;
  const canaries = new Map<string, string>();
  const pipes = () => `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`;

  beforeAll(async () => {
    world = await startUpstreamWorld();
    fields.forEach((path, index) => canaries.set(path, `${canaryOf(world)}F${index}X`));
    world.pipes.faults.add({ kind: 'echoSecrets' });
  });
  afterAll(async () => {
    await world.close();
  });

  it('plants a canary at every field the document and the vault docs name', () => {
    expect(fields).toEqual(
      expect.arrayContaining([
        'source.kafka.credentials.password',
        'source.kafka.credentials.privateKey',
        'source.kafka.schemaRegistry.credentials.password',
        'source.objectStorage.connectionString',
        'source.objectStorage.serviceAccountKey',
        'source.kinesis.accessKey.secretKey',
        'source.pubsub.serviceAccountKey.serviceAccountFile',
        'source.bigquery.credentials.serviceAccountFile',
        'source.mongodb.credentials.password',
      ]),
    );
  });

  it.each(fields.map((path) => [path]))('creates a pipe with %s and answers without it', async (path) => {
    const canary = canaries.get(path)!;
    const before = world.pipes.requests().length;
    const response = await world.gateway.http
      .post(pipes())
      .set(bearer(world.tenant.keys.operator))
      .send(bodyWithSecretAt(path, canary))
      .expect(200);
    // The service got the value and sent it back; the gateway's answer holds none of it.
    expect(JSON.stringify(world.pipes.requests().slice(before))).toContain(canary);
    expect(JSON.stringify(response.body)).not.toContain(canary);
  });

  it('keeps none of them in the spec history, the audit export or the logs', async () => {
    const auditor = bearer(world.tenant.keys.auditor);
    const history = await world.gateway.http.get('/v1/history/pipe-specs?limit=200').set(auditor).expect(200);
    const audit = await world.gateway.http.get('/v1/audit/export').set(auditor).expect(200);
    expect(history.body.items.length).toBeGreaterThanOrEqual(fields.length);
    const kept = {
      history: JSON.stringify(history.body),
      audit: audit.text,
      logs: world.gateway.logs.text(),
    };
    for (const [where, text] of Object.entries(kept)) {
      const found = fields.filter((path) => text.includes(canaries.get(path)!));
      expect({ where, found }).toEqual({ where, found: [] });
    }
  });
});
