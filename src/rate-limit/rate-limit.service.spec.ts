import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { itWithRedis, TEST_REDIS_URL } from '../../test/support/redis';
import { type AppConfig, loadConfig } from '../config/app-config';
import { ProblemException } from '../common/problem/problem';
import { RateLimitService } from './rate-limit.service';

const OFF = {
  RATE_LIMIT_PER_KEY: '0',
  RATE_LIMIT_PER_TENANT: '0',
  RATE_LIMIT_FAILED_AUTH: '0',
  PIPES_API_RATE_LIMIT: '0',
  DASHBOARDS_API_RATE_LIMIT: '0',
};

function service(env: Record<string, string>): RateLimitService {
  return new RateLimitService(new ConfigService<AppConfig, true>(loadConfig({ ...OFF, ...env })));
}

/** The problem a call threw, or null when it went through. */
async function refusal(call: Promise<void>): Promise<ProblemException['problem'] | null> {
  try {
    await call;
    return null;
  } catch (error) {
    if (error instanceof ProblemException) return error.problem;
    throw error;
  }
}

describe('RateLimitService', () => {
  const services: RateLimitService[] = [];
  const make = async (env: Record<string, string>) => {
    const made = service(env);
    services.push(made);
    await made.onModuleInit();
    return made;
  };
  afterEach(async () => {
    await Promise.all(services.splice(0).map((made) => made.onModuleDestroy()));
  });

  it('refuses the call past the limit with 429 and Retry-After, per key', async () => {
    const limits = await make({ RATE_LIMIT_PER_KEY: '2/60s' });
    await limits.consume('perKey', 'a');
    await limits.consume('perKey', 'a');
    const refused = await refusal(limits.consume('perKey', 'a'));
    expect(refused).toMatchObject({ status: 429, type: 'rate-limited' });
    expect(refused?.detail).toMatch(/^This gateway key has made too many calls; retry after (59|60) s\.$/);
    expect(Number(refused?.headers?.['retry-after'])).toBeGreaterThanOrEqual(59);
    expect(await refusal(limits.consume('perKey', 'b'))).toBeNull();
  });

  it('lets everything through when a limit is off', async () => {
    const limits = await make({});
    for (let i = 0; i < 100; i++) await limits.consume('perKey', 'a');
    await limits.failedAuthentication('127.0.0.1', 'prefix');
  });

  it('starts a new window once the old one is over', async () => {
    const limits = await make({ RATE_LIMIT_PER_KEY: '1/200ms' });
    await limits.consume('perKey', 'c');
    expect(await refusal(limits.consume('perKey', 'c'))).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await refusal(limits.consume('perKey', 'c'))).toBeNull();
  });

  it('counts failed authentications per address and per credential, each refused once over', async () => {
    const limits = await make({ RATE_LIMIT_FAILED_AUTH: '2/60s' });
    await limits.failedAuthentication('10.0.0.1', 'AAAAAAAAAAAA');
    await limits.failedAuthentication('10.0.0.1', null);
    const byAddress = await refusal(limits.failedAuthentication('10.0.0.1', 'BBBBBBBBBBBB'));
    expect(byAddress?.detail).toMatch(/^Too many failed authentications from this address; retry after/);

    // Other addresses guessing the same key's secret are stopped by the credential's count.
    await limits.failedAuthentication('10.0.0.2', 'CCCCCCCCCCCC');
    await limits.failedAuthentication('10.0.0.3', 'CCCCCCCCCCCC');
    const byCredential = await refusal(limits.failedAuthentication('10.0.0.4', 'CCCCCCCCCCCC'));
    expect(byCredential?.detail).toMatch(
      /^Too many failed authentications with this credential; retry after/,
    );
  });

  it('does not load the Redis client without REDIS_URL', async () => {
    jest.doMock('ioredis', () => {
      throw new Error('ioredis was loaded');
    });
    try {
      const limits = await make({ RATE_LIMIT_PER_KEY: '1/60s' });
      await limits.consume('perKey', 'a');
      expect((await refusal(limits.consume('perKey', 'a')))?.status).toBe(429);
      // The same mock fails a start that does need the client, so the check above can fail.
      await expect(make({ REDIS_URL: TEST_REDIS_URL })).rejects.toThrow('ioredis was loaded');
    } finally {
      jest.dontMock('ioredis');
    }
  });

  describe('with Redis', () => {
    itWithRedis('shares counters between instances, as replicas do', async () => {
      const env = { REDIS_URL: TEST_REDIS_URL, RATE_LIMIT_PER_KEY: '3/60s' };
      const [first, second] = [await make(env), await make(env)];
      const key = randomUUID();
      await first.consume('perKey', key);
      await second.consume('perKey', key);
      await first.consume('perKey', key);
      expect((await refusal(second.consume('perKey', key)))?.status).toBe(429);
      expect((await refusal(first.consume('perKey', key)))?.status).toBe(429);
    });
  });

  it('keeps counting in memory while Redis cannot be reached', async () => {
    // Nothing listens on port 1: every Redis call fails at once.
    const limits = await make({ REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PER_KEY: '2/60s' });
    await limits.consume('perKey', 'a');
    await limits.consume('perKey', 'a');
    expect((await refusal(limits.consume('perKey', 'a')))?.status).toBe(429);
  });
});
