import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import { WriteTransactions } from '../database/write-transactions';
import type { Actor } from '../auth/principal';
import { CredentialsRepository } from './credentials.repository';

// Credential use is recorded (lastUsedAt and one aggregated audit event per credential) at most
// this often, instead of a write per proxied call.
const USE_FLUSH_MS = 30_000;

interface UseTally {
  tenantId: string;
  uses: number;
  firstAt: Date;
  lastAt: Date;
  actors: Record<string, number>;
}

/** Counts each credential's uses in memory and records them together, on a timer and at shutdown. */
@Injectable()
export class CredentialUseTally implements OnModuleDestroy {
  private readonly logger = new Logger(CredentialUseTally.name);
  private readonly uses = new Map<string, UseTally>();
  private readonly flushTimer: NodeJS.Timeout;

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly audit: AuditService,
    private readonly writes: WriteTransactions,
  ) {
    this.flushTimer = setInterval(() => void this.flush(), USE_FLUSH_MS);
    this.flushTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flush();
  }

  count(credential: { id: string; tenantId: string }, actor: Actor): void {
    const now = new Date();
    const tally = this.uses.get(credential.id) ?? {
      tenantId: credential.tenantId,
      uses: 0,
      firstAt: now,
      lastAt: now,
      actors: {},
    };
    tally.uses += 1;
    tally.lastAt = now;
    tally.actors[actor.actor] = (tally.actors[actor.actor] ?? 0) + 1;
    this.uses.set(credential.id, tally);
  }

  private async flush(): Promise<void> {
    const pending = [...this.uses.entries()];
    this.uses.clear();
    for (const [id, tally] of pending) {
      try {
        await this.writes.run(tally.tenantId, async (tx) => {
          await this.credentials.markUsed(tx, tally.tenantId, id, tally.lastAt);
          await this.audit.append(
            tx,
            { actor: 'gateway', onBehalfOf: null, keyId: null, requestId: randomUUID() },
            {
              tenantId: tally.tenantId,
              action: 'credential.use',
              target: `credential:${id}`,
              outcome: 'succeeded',
              details: {
                uses: tally.uses,
                from: tally.firstAt.toISOString(),
                to: tally.lastAt.toISOString(),
                byActor: tally.actors,
              },
            },
          );
        });
      } catch (error) {
        this.logger.warn({ err: error, credentialId: id }, 'could not record credential use');
      }
    }
  }
}
