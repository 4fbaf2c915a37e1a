/**
 * The pipes simulator checks bodies against the service's own published OpenAPI document
 * (sandbox/vendor), not the gateway's schema module: a body the gateway's schema lets through but
 * the service's document refuses is answered 400 by the simulator, so tests that send it through
 * the gateway see the drift instead of a simulator that agrees with the gateway by construction.
 */
import { randomUUID } from 'node:crypto';
import { startPipesSimulator } from '../sandbox';
import type { PipesSimulator } from '../sandbox';
import { basicAuth, call } from '../sandbox/test-http-client';
import { checkCreatePipeBody, checkUpdatePipeBody } from '../src/pipes/schema/pipe-bodies';
import { validCreateBody } from './fixtures/pipe-bodies';
import type { PipeBody } from './fixtures/pipe-bodies';

const KEY = { keyId: 'drift-key', keySecret: 'drift-secret' };
const ORG = randomUUID();
const SERVICE = randomUUID();

function postgresWith(fields: PipeBody): PipeBody {
  const body = validCreateBody('postgres');
  return { ...body, source: { postgres: { ...body.source.postgres, ...fields } } };
}

const CREATES: Array<[string, PipeBody, string]> = [
  [
    'a postgres host that is no host name',
    postgresWith({ host: 'shop db' }),
    'source.postgres.host: must be a hostname',
  ],
  [
    'fewer rows per snapshot partition than the service takes',
    postgresWith({
      settings: { ...validCreateBody('postgres').source.postgres.settings, snapshotNumRowsPerPartition: 500 },
    }),
    'source.postgres.settings.snapshotNumRowsPerPartition: must be at least 1000',
  ],
];

const UPDATES: Array<[string, PipeBody, string]> = [
  [
    'a postgres host that is no host name',
    { source: { postgres: { host: 'shop db' } } },
    'source.postgres.host: must be a hostname',
  ],
];

describe("the pipes simulator checks bodies against the service's document, not the gateway's schema", () => {
  let simulator: PipesSimulator;
  const pipesUrl = (suffix = '') =>
    `${simulator.url}/v1/organizations/${ORG}/services/${SERVICE}/clickpipes${suffix}`;
  const send = (method: string, url: string, body: unknown) =>
    call(url, { method, body, headers: { authorization: basicAuth(KEY.keyId, KEY.keySecret) } });

  beforeAll(async () => {
    simulator = await startPipesSimulator({ keys: [KEY] });
  });
  afterAll(async () => {
    await simulator.close();
  });

  it.each(CREATES)(
    "refuses a create with %s, which the gateway's schema takes",
    async (_name, body, problem) => {
      expect(checkCreatePipeBody(body)).toEqual([]);
      const response = await send('POST', pipesUrl(), body);
      expect(response.status).toBe(400);
      expect(response.json.error).toContain(problem);
    },
  );

  it.each(UPDATES)(
    "refuses an update with %s, which the gateway's schema takes",
    async (_name, body, problem) => {
      expect(checkUpdatePipeBody(body)).toEqual([]);
      const pipe = simulator.seedPipe(ORG, SERVICE, validCreateBody('postgres'));
      const response = await send('PATCH', pipesUrl(`/${pipe.id}`), body);
      expect(response.status).toBe(400);
      expect(response.json.error).toContain(problem);
      expect(simulator.storedPipe(pipe.id)?.source).toEqual(pipe.source);
    },
  );

  it('takes the same fixture unchanged', async () => {
    const response = await send('POST', pipesUrl(), validCreateBody('postgres'));
    expect(response.status).toBe(200);
  });
});
