import { ConfigService } from '@nestjs/config';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { itWithRedis, redisReachable, TEST_REDIS_URL } from '../../test/support/redis';
import { ProblemException } from '../common/problem/problem';
import { type AppConfig, loadConfig } from '../config/app-config';
import { RateLimitService } from './rate-limit.service';
import {
  type BudgetRefusal,
  budgetRule,
  type BudgetUse,
  MemoryBudgetLog,
  RedisBudgetLog,
} from './upstream-budget';
import { UpstreamBudgets } from './upstream-budgets';

// The pipes API's own limit with the default split: reads may take 5 of 10, each reader is sure of 1.
const PIPES = budgetRule({ limit: 10, windowMs: 10_000 }, 0.5, 0.2);

type Take = (use: BudgetUse, caller: string) => Promise<BudgetRefusal | null>;

/** Takes until one is refused: how many went through, and the refusal. */
async function takeAll(take: Take, use: BudgetUse, caller: string): Promise<[number, BudgetRefusal]> {
  for (let taken = 0; ; taken++) {
    const refusal = await take(use, caller);
    if (refusal !== null) return [taken, refusal];
  }
}

/** The split, the same whichever log counts it. */
function splitCases(makeTake: () => Take): void {
  it('keeps the write reserve from reads, and lets writes take the rest of the window', async () => {
    const take = makeTake();
    // One reader takes all but one caller's share of reads, then a second the last read.
    expect(await takeAll(take, 'read', 'viewer')).toEqual([
      4,
      expect.objectContaining({ reason: 'caller-share' }),
    ]);
    expect(await takeAll(take, 'read', 'other')).toEqual([
      1,
      expect.objectContaining({ reason: 'read-share' }),
    ]);
    expect(await take('read', 'gateway')).toMatchObject({ reason: 'read-share' });
    // The reserve is whole: five writes, and the sixth finds the window spent.
    expect(await takeAll(take, 'write', 'operator')).toEqual([
      5,
      expect.objectContaining({ reason: 'budget' }),
    ]);
  });

  it('shares reads fairly between readers that keep asking', async () => {
    const take = makeTake();
    const taken = { a: 0, b: 0 };
    for (let round = 0; round < 5; round++) {
      if ((await take('read', 'a')) === null) taken.a += 1;
      if ((await take('read', 'b')) === null) taken.b += 1;
    }
    expect(taken).toEqual({ a: 2, b: 2 });
    // One share stays for a reader not yet seen in the window.
    expect(await take('read', 'c')).toBeNull();
    expect(await take('read', 'c')).toMatchObject({ reason: 'read-share' });
  });
}

describe('budgetRule', () => {
  it('splits a limit into the write reserve, reads and each reader', () => {
    expect(PIPES).toEqual({ limit: 10, windowMs: 10_500, readShare: 5, callerShare: 1 });
    expect(budgetRule({ limit: 100, windowMs: 60_000 }, 0.5, 0.2)).toEqual({
      limit: 100,
      windowMs: 61_000,
      readShare: 50,
      callerShare: 10,
    });
    // Reads keep one call of the smallest budgets; a reader is sure of one.
    expect(budgetRule({ limit: 1, windowMs: 30_000 }, 0.5, 0.2)).toMatchObject({
      readShare: 1,
      callerShare: 1,
    });
    expect(budgetRule({ limit: 10, windowMs: 500 }, 0.9, 1)).toMatchObject({
      windowMs: 600,
      readShare: 1,
      callerShare: 1,
    });
    expect(budgetRule({ limit: 10, windowMs: 10_000 }, 0, 1)).toMatchObject({
      readShare: 10,
      callerShare: 10,
    });
  });
});

describe('MemoryBudgetLog', () => {
  let now = 1_000_000;
  splitCases(() => {
    const log = new MemoryBudgetLog(() => now);
    const key = randomUUID();
    return (use, caller) => Promise.resolve(log.take(key, PIPES, use, caller));
  });

  it('slides: a call leaves the window its length after it was counted, and Retry-After says when', () => {
    const log = new MemoryBudgetLog(() => now);
    const rule = budgetRule({ limit: 2, windowMs: 1_000 }, 0, 1);
    expect(log.take('k', rule, 'write', 'w')).toBeNull();
    now += 400;
    expect(log.take('k', rule, 'write', 'w')).toBeNull();
    now += 400;
    expect(log.take('k', rule, 'write', 'w')).toEqual({ reason: 'budget', retryAfterMs: 300 });
    now += 300;
    expect(log.take('k', rule, 'write', 'w')).toBeNull();
    expect(log.take('k', rule, 'write', 'w')).toEqual({ reason: 'budget', retryAfterMs: 400 });
    // Another credential has its own window.
    expect(log.take('other', rule, 'write', 'w')).toBeNull();
  });
});

describe('RedisBudgetLog', () => {
  const clients: Redis[] = [];
  const client = () => {
    const made = new Redis(TEST_REDIS_URL);
    clients.push(made);
    return made;
  };
  afterAll(async () => {
    await Promise.all(clients.map((made) => made.quit()));
  });

  if (redisReachable) {
    splitCases(() => {
      // Two replicas, one window.
      const logs = [new RedisBudgetLog(client()), new RedisBudgetLog(client())];
      const key = `test:budget:${randomUUID()}`;
      let turn = 0;
      return (use, caller) => logs[turn++ % 2].take(key, PIPES, use, caller);
    });
  }

  itWithRedis('counts no more than the limit when replicas take at once', async () => {
    const logs = [new RedisBudgetLog(client()), new RedisBudgetLog(client()), new RedisBudgetLog(client())];
    const key = `test:budget:${randomUUID()}`;
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        logs[i % 3].take(key, PIPES, i % 2 === 0 ? 'write' : 'read', `c${i % 4}`),
      ),
    );
    const allowed = outcomes.filter((outcome) => outcome === null).length;
    expect(allowed).toBeGreaterThan(0);
    expect(allowed).toBeLessThanOrEqual(10);
    // Every call let through is in the window, and nothing else.
    expect(await clients[0].zcard(key)).toBe(allowed);
  });
});

describe('UpstreamBudgets', () => {
  const made: RateLimitService[] = [];
  const budgets = async (env: Record<string, string>) => {
    const config = new ConfigService<AppConfig, true>(loadConfig(env));
    const limits = new RateLimitService(config);
    await limits.onModuleInit();
    made.push(limits);
    return new UpstreamBudgets(config, limits);
  };
  afterEach(async () => {
    await Promise.all(made.splice(0).map((limits) => limits.onModuleDestroy()));
  });

  const problemOf = async (taking: Promise<void>) => {
    const error: unknown = await taking.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ProblemException);
    return (error as ProblemException).problem;
  };

  it('waits for room within the longest wait, and refuses beyond it with 429 naming whose share is spent', async () => {
    const upstream = await budgets({ PIPES_API_RATE_LIMIT: '2/300ms', UPSTREAM_WRITE_RESERVE: '0.5' });
    const credential = randomUUID();
    await upstream.take('pipes', credential, 'read', 'key:a', 1_000);
    const started = Date.now();
    // The read share (1) is spent: the next read waits for the first to leave the window.
    await upstream.take('pipes', credential, 'read', 'key:b', 1_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);

    const readShare = await problemOf(upstream.take('pipes', credential, 'read', 'key:a', 0));
    expect(readShare).toMatchObject({ status: 429, type: 'rate-limited' });
    expect(readShare.detail).toMatch(
      /^Reads have spent their share of this credential's budget under the pipes API's rate limit; the rest is kept for writes; retry after 1 s\.$/,
    );
    expect(readShare.headers).toEqual({ 'retry-after': '1' });
    // The write reserve is untouched.
    await upstream.take('pipes', credential, 'write', 'key:a', 0);
  });

  it("names a reader's own share when it is the one spent, on the dashboards API too", async () => {
    const upstream = await budgets({
      DASHBOARDS_API_RATE_LIMIT: '10/60s',
      UPSTREAM_CALLER_READ_SHARE: '0.2',
    });
    const credential = randomUUID();
    for (let i = 0; i < 4; i++)
      await upstream.take('dashboards', credential, 'read', 'user:a@example.com', 0);
    const own = await problemOf(upstream.take('dashboards', credential, 'read', 'user:a@example.com', 1_000));
    expect(own.detail).toMatch(
      /^This caller has spent its share of the reads this credential's budget under the dashboards API's rate limit allows; the rest is kept for other callers; retry after (60|61) s\.$/,
    );
    await upstream.take('dashboards', credential, 'read', 'key:other', 0);
  });

  it('lets everything through when the limit is off', async () => {
    const upstream = await budgets({ PIPES_API_RATE_LIMIT: '0' });
    for (let i = 0; i < 50; i++) await upstream.take('pipes', 'c', 'read', 'key:a', 0);
  });

  itWithRedis('shares the windows between replicas through Redis', async () => {
    const env = { REDIS_URL: TEST_REDIS_URL, PIPES_API_RATE_LIMIT: '2/60s', UPSTREAM_WRITE_RESERVE: '0' };
    const [first, second] = [await budgets(env), await budgets(env)];
    const credential = randomUUID();
    await first.take('pipes', credential, 'write', 'key:a', 0);
    await second.take('pipes', credential, 'write', 'key:a', 0);
    const shed = await problemOf(first.take('pipes', credential, 'write', 'key:a', 1_000));
    expect(shed.detail).toMatch(/^This credential has reached the pipes API's rate limit; retry after/);
    expect(Number(shed.headers?.['retry-after'])).toBeGreaterThan(1);
  });
});
