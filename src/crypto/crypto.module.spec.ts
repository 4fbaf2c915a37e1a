import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../config/app-config';
import { AppConfigModule } from '../config/config.module';
import { PrismaService } from '../database/prisma.service';
import { CryptoModule } from './crypto.module';
import { inspect } from 'node:util';
import { AuditChainKeys } from './audit-chain-keys';
import { AuditSigningKeys, generateSigningKeyText } from './audit-signing-keys';
import { CryptoService } from './crypto.service';
import { generateKeyText } from './key-ring';

const emptyDatabase = {
  keyCheck: { findMany: () => Promise.resolve([]), createMany: () => Promise.resolve({ count: 1 }) },
  credential: { findFirst: () => Promise.resolve(null) },
  auditEvent: { findFirst: () => Promise.resolve(null) },
  $executeRaw: () => Promise.resolve(0),
  $queryRaw: () => Promise.resolve([]),
  $transaction: (work: (tx: unknown) => Promise<unknown>) => work(emptyDatabase),
};

async function start(env: Record<string, string>) {
  // KeyChecksService proves the keys against the database at start: here one that holds no data.
  @Global()
  @Module({ providers: [{ provide: PrismaService, useValue: emptyDatabase }], exports: [PrismaService] })
  class EmptyDatabaseModule {}
  @Module({ imports: [AppConfigModule.forRoot(loadConfig(env)), EmptyDatabaseModule, CryptoModule] })
  class RootModule {}
  return NestFactory.createApplicationContext(RootModule, { logger: false, abortOnError: false });
}

describe('CryptoModule', () => {
  it('provides CryptoService built from the configured key ring', async () => {
    const app = await start({
      NODE_ENV: 'production',
      GATEWAY_ENCRYPTION_KEYS: `${generateKeyText('v3')},${generateKeyText('v2')}`,
      AUDIT_CHAIN_KEYS: `${generateKeyText('v7')},${generateKeyText('v6')}`,
      AUDIT_SIGNING_KEYS: `${generateSigningKeyText('new')},${generateSigningKeyText('old')}`,
    });
    try {
      const crypto = app.get(CryptoService);
      expect(crypto.activeKeyVersion).toBe('v3');
      expect(crypto.knownKeyVersions()).toEqual(['v3', 'v2']);
      const chainKeys = app.get(AuditChainKeys);
      expect(chainKeys.activeVersion).toBe('v7');
      expect(chainKeys.versions()).toEqual(['v7', 'v6']);
      expect(inspect(chainKeys, { depth: 10, showHidden: true })).not.toMatch(/KeyObject|<Buffer/);
      const signingKeys = app.get(AuditSigningKeys);
      expect(signingKeys.jwks().keys.map((key) => key.kid)).toEqual(['new', 'old']);
      expect(inspect(signingKeys, { depth: 10, showHidden: true })).not.toMatch(/KeyObject|<Buffer/);
    } finally {
      await app.close();
    }
  });

  it('uses an in-memory key for an in-memory database', async () => {
    const app = await start({ NODE_ENV: 'test', DATA_DIR: 'memory://' });
    try {
      const crypto = app.get(CryptoService);
      expect(crypto.decrypt(crypto.encrypt('x', 'ad'), 'ad').toString()).toBe('x');
    } finally {
      await app.close();
    }
  });

  it.each([
    [{}, /^GATEWAY_ENCRYPTION_KEYS must be set in production/],
    [{ GATEWAY_ENCRYPTION_KEYS: generateKeyText('v1') }, /^AUDIT_CHAIN_KEYS must be set in production/],
    [
      { GATEWAY_ENCRYPTION_KEYS: generateKeyText('v1'), AUDIT_CHAIN_KEYS: generateKeyText('v1') },
      /^AUDIT_SIGNING_KEYS must be set in production/,
    ],
  ])('stops the start in production without keys (%p), writing no key file', async (keys, message) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pipes-gateway-crypto-'));
    try {
      await expect(start({ NODE_ENV: 'production', DATA_DIR: dataDir, ...keys })).rejects.toThrow(message);
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops the start with a malformed key ring', async () => {
    await expect(
      start({ NODE_ENV: 'development', DATA_DIR: 'memory://', GATEWAY_ENCRYPTION_KEYS: 'v1:YWJj' }),
    ).rejects.toThrow(/^GATEWAY_ENCRYPTION_KEYS key v1 must decode to exactly 32 bytes/);
  });
});
