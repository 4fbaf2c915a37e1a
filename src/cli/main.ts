import 'reflect-metadata';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '../config/app-config';
import { ProblemException } from '../common/problem/problem';
import { KeyRingError } from '../crypto/key-ring';
import { datedKeyId, generateSigningKeyText } from '../crypto/audit-signing-keys';
import { CliModule } from './cli.module';
import { assertDataDirFree, DataDirInUseError } from '../database/data-dir-lock';
import { CliUsageError, migrateDatabase, runCommand, THROUGH_THE_GATEWAY, USAGE } from './commands';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length < 2) {
    console.error(USAGE);
    return 2;
  }
  // Needs neither configuration nor database: it only makes a key.
  if (args[0] === 'keys' && args[1] === 'new-signing-key') {
    try {
      console.log(generateSigningKeyText(args[2] ?? datedKeyId()));
    } catch (error) {
      throw error instanceof RangeError ? new CliUsageError(error.message) : error;
    }
    return 0;
  }
  const config = loadConfig(process.env);
  const { url, dataDir } = config.database;
  // The running gateway owns the embedded database: refused before anything starts.
  if (url === null && !dataDir.startsWith('memory://')) await assertDataDirFree(resolve(dataDir));
  if (args[0] === 'db' && args[1] === 'migrate') {
    for (const line of await migrateDatabase(config.database)) console.log(line);
    return 0;
  }
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
    logger: ['error', 'warn'],
    // A failed start is thrown to the handler below (one line) instead of Nest logging its stack.
    abortOnError: false,
    bufferLogs: true,
    autoFlushLogs: false,
  });
  app.flushLogs();
  try {
    for (const line of await runCommand(app, args)) console.log(line);
    return 0;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof CliUsageError) console.error(error.message);
    else if (error instanceof DataDirInUseError) console.error(`${error.message}\n${THROUGH_THE_GATEWAY}`);
    else if (error instanceof ConfigError || error instanceof KeyRingError)
      console.error(`configuration error: ${error.message}`);
    else if (error instanceof ProblemException) console.error(error.problem.detail);
    else
      console.error(
        `failed: ${(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')}`,
      );
    process.exit(error instanceof CliUsageError ? 2 : 1);
  },
);
