import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../config/app-config';
import { AppConfigModule } from '../config/config.module';
import { CryptoModule } from './crypto.module';
import { CryptoService } from './crypto.service';
import { generateKeyText } from './key-ring';

async function start(env: Record<string, string>) {
  @Module({ imports: [AppConfigModule.forRoot(loadConfig(env)), CryptoModule] })
  class RootModule {}
  return NestFactory.createApplicationContext(RootModule, { logger: false, abortOnError: false });
}

describe('CryptoModule', () => {
  it('provides CryptoService built from the configured key ring', async () => {
    const app = await start({
      NODE_ENV: 'production',
      GATEWAY_ENCRYPTION_KEYS: `${generateKeyText('v3')},${generateKeyText('v2')}`,
    });
    try {
      const crypto = app.get(CryptoService);
      expect(crypto.activeKeyVersion).toBe('v3');
      expect(crypto.knownKeyVersions()).toEqual(['v3', 'v2']);
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

  it('stops the start in production without keys', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pipes-gateway-crypto-'));
    try {
      await expect(start({ NODE_ENV: 'production', DATA_DIR: dataDir })).rejects.toThrow(
        /^GATEWAY_ENCRYPTION_KEYS must be set in production/,
      );
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
