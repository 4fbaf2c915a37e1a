// First: with tracing on, the SDK must instrument http, undici, pg and ioredis before they load.
import './tracing/register';
import 'reflect-metadata';
import { createApp, drainAndClose } from './bootstrap';
import { loadConfig } from './config/app-config';
import { listenOrNameSetting } from './port-in-use';
import { listeningBase, startBanner } from './start-banner';
import { startFailureLine } from './start-failure';
import { tracingStarted } from './tracing/start-tracing';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await createApp(config);
  await listenOrNameSetting({ PORT: config.http.port }, () =>
    app.listen({ port: config.http.port, host: config.http.host }),
  );
  console.log(startBanner(config, listeningBase(app.getHttpServer(), config.http.host), tracingStarted()));

  // SIGTERM, the platform's stop, drains first (drainAndClose); SIGINT, Ctrl-C at a terminal with no
  // balancer in front, closes at once, as does a second signal during the drain. In-flight requests
  // finish, then the process exits 0.
  const cut = new AbortController();
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) {
      cut.abort();
      return;
    }
    closing = true;
    const drainMs = signal === 'SIGTERM' ? config.http.shutdownDrainMs : 0;
    console.log(
      drainMs > 0
        ? `pipes-gateway: ${signal} received, draining for ${drainMs} ms (readiness answers 503), then finishing in-flight requests`
        : `pipes-gateway: ${signal} received, finishing in-flight requests`,
    );
    drainAndClose(app, drainMs, cut.signal).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('pipes-gateway: shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error(startFailureLine('pipes-gateway', error));
  process.exit(1);
});
