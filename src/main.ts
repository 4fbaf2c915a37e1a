import 'reflect-metadata';
import { closeGracefully, createApp } from './bootstrap';
import { loadConfig } from './config/app-config';
import { listenOrNameSetting } from './port-in-use';
import { listeningBase, startBanner } from './start-banner';
import { startFailureLine } from './start-failure';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await createApp(config);
  await listenOrNameSetting({ PORT: config.http.port }, () =>
    app.listen({ port: config.http.port, host: config.http.host }),
  );
  console.log(startBanner(config, listeningBase(app.getHttpServer(), config.http.host)));

  // In-flight requests finish, then the process exits 0 (Nest's own hooks re-raise the signal).
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    console.log(`pipes-gateway: ${signal} received, finishing in-flight requests`);
    closeGracefully(app).then(
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
