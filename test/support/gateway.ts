import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { closeGracefully, createApp, type CreateAppOptions } from '../../src/bootstrap';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { embeddedDatabaseImage } from './embedded-database-image';
import { LogCapture } from './log-capture';
import { postgresConfigured, postgresUrl } from './skip';

export interface TestGateway {
  app: NestFastifyApplication;
  config: AppConfig;
  /** supertest bound to the running server (real HTTP over loopback). */
  http: TestAgent;
  /** Base URL of the running server. */
  url: string;
  /** Every log line the gateway wrote while it ran. */
  logs: LogCapture;
  close(): Promise<void>;
}

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef0123456789';
/**
 * One master key and one audit chain key for every test gateway: gateways share a database (the
 * run's Postgres, a scratch one) and must open each other's credentials and verify each other's
 * events; each start proves its keys against what the database holds.
 */
export const TEST_ENCRYPTION_KEYS = 'v1:ZP2ukTkOcyGY0purlg0FEmaHDs3gvJXPRleRHvhTZjg=';
export const TEST_AUDIT_CHAIN_KEYS = 'v1:iYSGIlFGIDhIANRrAhY9ofqB80uF30nTFbyEMccXs14=';
/** For gateways and CLI runs on a data folder, which would otherwise generate (and warn of) a development one. */
export const TEST_AUDIT_SIGNING_KEYS =
  'test-1:MC4CAQAwBQYDK2VwBCIEIGmF2sci3vj2kYxtz3xHX0YqRFHSFB6T/I8UuQXzYSR1';

/**
 * Starts the real gateway (same bootstrap as main.ts) on a random loopback port. The database is
 * the run's Postgres when DATABASE_URL is set (scripts/run-tests.js made it fresh), else a private
 * in-memory embedded database.
 */
export async function startGateway(
  env: Record<string, string> = {},
  options: Pick<CreateAppOptions, 'consoleDirectory'> = {},
): Promise<TestGateway> {
  const config = loadConfig(testGatewayEnv(env));
  const logs = new LogCapture();
  const app = await createApp(config, {
    quiet: true,
    logDestination: logs,
    embeddedDatabaseImage: embeddedDatabaseImage(),
    ...options,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const url = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  return {
    app,
    config,
    http: request(url),
    url,
    logs,
    close: async () => {
      await closeGracefully(app);
    },
  };
}

/**
 * The settings of every test gateway, in-process or a process of its own (gateway-process.ts):
 * the test keys and tokens, loopback on a free port, the run's database, limits and caches off.
 */
export function testGatewayEnv(env: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATA_DIR: 'memory://',
    GATEWAY_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    GATEWAY_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    AUDIT_CHAIN_KEYS: TEST_AUDIT_CHAIN_KEYS,
    ...(postgresConfigured() ? { DATABASE_URL: postgresUrl()! } : {}),
    PORT: '0',
    HOST: '127.0.0.1',
    // Suites share keys and credentials across many calls; the limits have tests of their own.
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_TENANT: '0',
    RATE_LIMIT_FAILED_AUTH: '0',
    PIPES_API_RATE_LIMIT: '0',
    DASHBOARDS_API_RATE_LIMIT: '0',
    // Suites read what they just arranged upstream; the pipe read cache has tests of its own.
    PIPE_READ_CACHE_MS: '0',
    // Suites that call every route expect each call to end; the event stream has tests of its own.
    PIPE_STREAM_MAX_MS: '300',
    ...env,
  };
}
