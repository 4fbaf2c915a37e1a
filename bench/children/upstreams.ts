import { randomBytes, randomUUID } from 'node:crypto';
import { startDashboardsSimulator, startPipesSimulator } from '../../sandbox';
import type { PipesSimulator } from '../../sandbox';
import { validDashboardBody } from '../../test/fixtures/dashboard-bodies';
import type { Message } from '../lib/processes';
import {
  DASHBOARD_IDS,
  PIPE_BODY,
  PipesReset,
  pipesAuthorization,
  pipesPath,
  UpstreamsReady,
} from '../lib/scenario';
import { serveChild } from './child';

// Every call is recorded; a small bound keeps that cost flat however long a run is.
const MAX_RECORDED_REQUESTS = 100;

/** Both sandbox simulators, rate limits off, with the dashboards and the pipe the benchmark reads. */
serveChild(async () => {
  const pipesKey = { keyId: `bench-${randomUUID()}`, keySecret: randomBytes(24).toString('base64url') };
  const dashboardsToken = randomBytes(24).toString('hex');
  const pipes = await startPipesSimulator({ keys: [pipesKey], maxRecordedRequests: MAX_RECORDED_REQUESTS });
  const dashboards = await startDashboardsSimulator({
    tokens: [dashboardsToken],
    maxRecordedRequests: MAX_RECORDED_REQUESTS,
  });
  const { name, tiles, tags } = validDashboardBody();
  for (const id of DASHBOARD_IDS) dashboards.seedDashboard({ id, name, tiles, tags });

  const createPipe = async (simulator: PipesSimulator): Promise<string> => {
    const response = await fetch(`${simulator.url}${pipesPath()}`, {
      method: 'POST',
      headers: { authorization: pipesAuthorization(pipesKey), 'content-type': 'application/json' },
      body: PIPE_BODY,
    });
    const envelope = (await response.json()) as { result?: { id?: string } };
    if (!response.ok || !envelope.result?.id) throw new Error(`pipe create answered ${response.status}`);
    return envelope.result.id;
  };

  const ready: UpstreamsReady = {
    type: 'ready',
    pipesUrl: pipes.url,
    dashboardsUrl: dashboards.url,
    pipesKey,
    dashboardsToken,
    pipeId: await createPipe(pipes),
  };
  return {
    ready,
    stop: async () => {
      await Promise.all([pipes.close(), dashboards.close()]);
    },
    handle: async (message: Message): Promise<PipesReset> => {
      if (message.type !== 'reset-pipes') throw new Error(`unknown request ${message.type}`);
      pipes.reset();
      return { type: 'pipes-reset', pipeId: await createPipe(pipes) };
    },
  };
});
