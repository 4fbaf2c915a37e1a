/**
 * A quiet start: Nest's own start-up lines (modules initialised, every route mapped) are written at
 * debug, so a start at the default level shows what matters. scripts/smoke-start.sh checks the
 * banner of `npm start` itself.
 */
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { closeGracefully, createApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/app-config';
import { LogCapture } from './support/log-capture';

const DEBUG = 20;

async function startUpLines(level: 'info' | 'debug'): Promise<Record<string, unknown>[]> {
  // nestjs-pino keeps the first logger it builds in a process for Nest's own lines: each start
  // here needs its own.
  __resetOutOfContextForTests();
  const logs = new LogCapture();
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory://', LOG_LEVEL: level, PORT: '0' });
  const app = await createApp(config, { logDestination: logs });
  await closeGracefully(app);
  return logs.entries();
}

const isFrameworkLine = (entry: Record<string, unknown>) =>
  /Mapped \{|dependencies initialized|Nest application successfully started|Starting Nest application/.test(
    String(entry.msg),
  );

describe('start-up logs (e2e)', () => {
  it('keeps the framework start-up lines out of the default level', async () => {
    const lines = await startUpLines('info');
    expect(lines.filter(isFrameworkLine)).toEqual([]);
  });

  it('writes them at debug, every route mapped included', async () => {
    const framework = (await startUpLines('debug')).filter(isFrameworkLine);
    expect(framework.length).toBeGreaterThan(40);
    expect(new Set(framework.map((entry) => entry.level))).toEqual(new Set([DEBUG]));
    expect(framework.map((entry) => String(entry.msg))).toContainEqual(
      expect.stringContaining('Mapped {/v1/credentials, POST} route'),
    );
  });
});
