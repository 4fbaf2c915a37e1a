import { Logger } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import type { PrismaService } from '../database/prisma.service';
import { AuditCheckpointsRepository } from './audit-checkpoints.repository';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditRetentionService } from './audit-retention.service';
import type { AuditService } from './audit.service';
import type { WriteTransactions } from '../database/write-transactions';

const HOUR_MS = 60 * 60_000;

function retention(days: number | null) {
  const prisma = { $queryRaw: jest.fn(() => Promise.resolve([])) };
  const settings: Partial<AppConfig> = {
    auditRetentionDays: days,
    auditSinks: { syslog: null, webhook: null } as AppConfig['auditSinks'],
  };
  const config = { get: (key: keyof AppConfig) => settings[key] } as unknown as ConfigService<
    AppConfig,
    true
  >;
  const service = new AuditRetentionService(
    new AuditEventsRepository(prisma as unknown as PrismaService),
    new AuditCheckpointsRepository(prisma as unknown as PrismaService),
    {} as AuditService,
    {} as WriteTransactions,
    config,
  );
  return { service, prisma, prune: jest.spyOn(service, 'pruneExpired') };
}

describe('AuditRetentionService', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('keeps everything, and schedules nothing, when no retention is configured', async () => {
    const { service, prisma, prune } = retention(null);
    service.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3 * HOUR_MS);
    expect(prune).not.toHaveBeenCalled();
    expect(await service.pruneExpired()).toEqual([]);
    expect(prisma.$queryRaw).not.toHaveBeenCalled();
  });

  it('runs shortly after start, then hourly, without holding up the start', async () => {
    const { service, prune } = retention(30);
    expect(service.onApplicationBootstrap()).toBeUndefined();
    expect(prune).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(30_000);
    expect(prune).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(2 * HOUR_MS);
    expect(prune).toHaveBeenCalledTimes(3);
    await service.onModuleDestroy();
    await jest.advanceTimersByTimeAsync(2 * HOUR_MS);
    expect(prune).toHaveBeenCalledTimes(3);
  });

  it('skips a tick while a run is still going, and logs a failed run', async () => {
    const { service, prune } = retention(30);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    let finish: () => void = () => undefined;
    prune.mockImplementationOnce(() => new Promise((resolve) => (finish = () => resolve([]))));
    prune.mockRejectedValueOnce(new Error('database gone'));
    service.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(30_000 + HOUR_MS);
    expect(prune).toHaveBeenCalledTimes(1);
    finish();
    await jest.advanceTimersByTimeAsync(HOUR_MS);
    expect(prune).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      expect.any(String),
    );
    await service.onModuleDestroy();
    warn.mockRestore();
  });
});
