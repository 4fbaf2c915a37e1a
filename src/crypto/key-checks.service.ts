import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AuditEventsRepository } from '../audit/audit-events.repository';
import { recordLegacyEnds } from '../audit/legacy-ends';
import { CredentialsRepository } from '../credentials/credentials.repository';
import { PrismaService } from '../database/prisma.service';
import { AuditChainKeys } from './audit-chain-keys';
import { credentialAssociatedData, CryptoService, DecryptionError } from './crypto.service';
import { KeyChecksRepository, type KeyPurpose } from './key-checks.repository';
import { AUDIT_CHAIN_KEYS, MASTER_KEYS } from './load-key-ring';

/** A configured key is not the one the database's data was sealed or chained with, or is missing. */
export class KeyCheckError extends Error {
  override name = 'KeyCheckError';
}

/** What the check of one key ring needs to know of it. */
interface CheckedRing {
  purpose: KeyPurpose;
  variable: string;
  versions(): string[];
  has(version: string): boolean;
  checkValue(version: string): Buffer;
  matches(version: string, check: Buffer): boolean;
  /**
   * For a version with a check value that the ring lacks: a sentence saying what still needs it,
   * or null when nothing does (the key was dropped after its data moved to another).
   */
  stillNeeded(version: string): Promise<string | null>;
  /** For a version without a check value yet: throws when data sealed with it does not open. */
  proveOnData(version: string): Promise<void>;
}

/**
 * Proves the configured keys at start, before the gateway serves anything: each key version has a
 * value only that key produces, stored when the version is first used. A key that does not
 * reproduce it, or a missing key that data still needs, stops the start naming the version, so a
 * wrong GATEWAY_ENCRYPTION_KEYS is never taken for altered credentials, nor a wrong AUDIT_CHAIN_KEYS
 * for an altered audit log. Keys generated in memory for an in-memory database are not checked:
 * nothing they seal outlives the process.
 */
@Injectable()
export class KeyChecksService implements OnApplicationBootstrap {
  private readonly logger = new Logger(KeyChecksService.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly crypto: CryptoService,
    private readonly chainKeys: AuditChainKeys,
    private readonly keyChecks: KeyChecksRepository,
    private readonly credentials: CredentialsRepository,
    private readonly events: AuditEventsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.crypto.ephemeral) await this.check(this.encryptionRing());
    if (!this.chainKeys.ephemeral) {
      const recorded = await recordLegacyEnds(this.prisma, this.chainKeys, {
        keyChecks: this.keyChecks,
        events: this.events,
      });
      if (recorded) this.logger.log(`recorded where the legacy events of ${recorded} audit chain(s) end`);
      await this.check(this.chainRing());
    }
  }

  private async check(ring: CheckedRing): Promise<void> {
    const stored = await this.keyChecks.ofPurpose(ring.purpose);
    for (const { keyVersion, checkValue } of stored) {
      if (ring.has(keyVersion)) {
        if (!ring.matches(keyVersion, checkValue)) throw wrongKey(ring, keyVersion);
        continue;
      }
      const needed = await ring.stillNeeded(keyVersion);
      if (needed !== null) {
        throw new KeyCheckError(
          `${ring.variable} lacks key ${keyVersion}, which ${needed}; put it back in ${ring.variable} ` +
            '(it need not be first). Nothing was changed.',
        );
      }
    }
    const checked = new Set(stored.map((row) => row.keyVersion));
    for (const version of ring.versions().filter((each) => !checked.has(each))) {
      await ring.proveOnData(version);
      if (!(await this.keyChecks.storeIfAbsent(ring.purpose, version, ring.checkValue(version)))) {
        // Another process starting at the same time stored it first: it must be the same key.
        const checkValue = await this.keyChecks.checkValue(ring.purpose, version);
        if (!ring.matches(version, checkValue)) throw wrongKey(ring, version);
      } else {
        this.logger.log(`stored the key check of ${ring.variable} key ${version}`);
      }
    }
  }

  private encryptionRing(): CheckedRing {
    const { crypto, credentials } = this;
    return {
      purpose: 'encryption',
      variable: MASTER_KEYS.variable,
      versions: () => crypto.knownKeyVersions(),
      has: (version) => crypto.knownKeyVersions().includes(version),
      checkValue: (version) => crypto.sealKeyCheck(version),
      matches: (version, check) => crypto.keyCheckOpens(version, check),
      // CredentialSealing refuses a start without a key that still seals credentials.
      stillNeeded: () => Promise.resolve(null),
      // Credentials sealed before key checks existed: one of them must open with the key.
      async proveOnData(version) {
        // The oldest: sealed before anyone could have started with a wrong key of the same name.
        const row = await credentials.oldestSealedWith(version);
        if (!row) return;
        try {
          crypto.decrypt(
            {
              keyVersion: version,
              ciphertext: Buffer.from(row.ciphertext),
              iv: Buffer.from(row.iv),
              authTag: Buffer.from(row.authTag),
            },
            credentialAssociatedData(row.tenantId, row.id),
          );
        } catch (error) {
          if (!(error instanceof DecryptionError)) throw error;
          throw new KeyCheckError(
            `${MASTER_KEYS.variable} key ${version} does not open credential ${row.id}, which it sealed: ` +
              `the key is not the one that sealed it (or that row was altered). Nothing was changed.`,
          );
        }
      },
    };
  }

  private chainRing(): CheckedRing {
    const { chainKeys, events } = this;
    return {
      purpose: 'audit-chain',
      variable: AUDIT_CHAIN_KEYS.variable,
      versions: () => chainKeys.versions(),
      has: (version) => chainKeys.has(version),
      checkValue: (version) => chainKeys.keyCheck(version),
      matches: (version, check) => chainKeys.keyCheckMatches(version, check),
      async stillNeeded(version) {
        // Old events come first in the table, so a key still in use is found early in the scan.
        return (await events.anyChainedWith(version))
          ? 'chained audit events still kept (verification needs it)'
          : null;
      },
      // Events are only chained with keys that have a check value.
      proveOnData: () => Promise.resolve(),
    };
  }
}

function wrongKey(ring: CheckedRing, version: string): KeyCheckError {
  return new KeyCheckError(
    `${ring.variable} key ${version} is not the key ${version} this database was ` +
      `${ring.purpose === 'encryption' ? 'sealed' : 'chained'} with (its stored key check does not match); ` +
      `start with the right key ${version}. Nothing was changed.`,
  );
}
