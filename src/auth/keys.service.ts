import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import { WriteTransactions } from '../database/write-transactions';
import { createdAtPosition, Page, toPage } from '../common/pagination';
import { problemFor } from '../common/problem/problem';
import { RefreshingCache } from '../common/refreshing-cache';
import { matchesDigest, sha256, SHA256_BYTES } from '../crypto/hashing';
import type { GatewayKey } from '../generated/prisma/client';
import { TenantsRepository } from '../tenants/tenants.repository';
import { CreatedGatewayKeyView, CreateGatewayKeyDto, GatewayKeyView } from './dto/gateway-key.dto';
import { gatewayKeyPrefix, generateGatewayKey } from './gateway-key';
import { KeyRow, KeysRepository } from './keys.repository';
import { createdByOf, type Actor } from './principal';
import { assertMayDelegate, assertMayGrant, type Grantor } from './role-grants';
import type { Role } from './roles';
import { viewOf } from '../common/views';

export interface AuthenticatedKey {
  id: string;
  tenantId: string;
  roles: Role[];
  /** May name a person in X-On-Behalf-Of. */
  delegate: boolean;
}

// Compared against when no key has the prefix: the same work as a real comparison.
const NO_KEY_DIGEST = Buffer.alloc(SHA256_BYTES);

// Lookups are cached briefly so the hot path does not query per request. Revocation clears the
// entry on this replica at once; other replicas notice within this time.
const KEY_CACHE_TTL_MS = 2_000;
// lastUsedAt is written at most this often per key: freshness for reviewers, no write per call.
const LAST_USED_FLUSH_MS = 30_000;

@Injectable()
export class KeysService implements OnModuleDestroy {
  private readonly logger = new Logger(KeysService.name);
  /** By prefix; null for a prefix no key has. */
  private readonly cache = new RefreshingCache<KeyRow | null>(KEY_CACHE_TTL_MS);
  private readonly lastUsed = new Map<string, Date>();
  private readonly flushTimer: NodeJS.Timeout;

  constructor(
    private readonly keys: KeysRepository,
    private readonly tenants: TenantsRepository,
    private readonly audit: AuditService,
    private readonly writes: WriteTransactions,
  ) {
    this.flushTimer = setInterval(() => void this.flushLastUsed(), LAST_USED_FLUSH_MS);
    this.flushTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flushLastUsed();
  }

  async issue(
    tenantId: string,
    input: CreateGatewayKeyDto,
    actor: Actor,
    grantor: Grantor,
  ): Promise<CreatedGatewayKeyView> {
    assertMayGrant(grantor, input.roles);
    const delegate = input.delegate ?? true;
    assertMayDelegate(grantor, delegate);
    const { key, prefix } = generateGatewayKey();
    const row = await this.writes.run(tenantId, async (tx) => {
      if (!(await this.tenants.exists(tx, tenantId)))
        throw problemFor(404, `Tenant ${tenantId} does not exist.`);
      const created = await this.keys.insert(tx, {
        id: randomUUID(),
        tenantId,
        name: input.name,
        prefix,
        hash: new Uint8Array(sha256(key)),
        roles: input.roles,
        delegate,
        createdBy: createdByOf(actor),
      });
      await this.audit.append(tx, actor, {
        tenantId,
        action: 'key.create',
        target: `key:${created.id}`,
        outcome: 'succeeded',
        httpStatus: 201,
        details: { name: input.name, roles: input.roles, delegate },
      });
      return created;
    });
    return { ...toView(row), key };
  }

  async list(tenantId: string, cursor: string | undefined, limit = 50): Promise<Page<GatewayKeyView>> {
    const rows = await this.keys.page(tenantId, cursor, limit);
    return toPage(rows, limit, createdAtPosition, toView);
  }

  async revoke(tenantId: string, id: string, actor: Actor): Promise<GatewayKeyView> {
    const row = await this.writes.run(tenantId, async (tx) => {
      const existing = await this.keys.find(tx, tenantId, id);
      if (!existing) throw problemFor(404, `Gateway key ${id} does not exist.`);
      const revoked = existing.revokedAt ? existing : await this.keys.revoke(tx, id);
      await this.audit.append(tx, actor, {
        tenantId,
        action: 'key.revoke',
        target: `key:${id}`,
        outcome: 'succeeded',
        httpStatus: 200,
        details: { alreadyRevoked: existing.revokedAt !== null },
      });
      return revoked;
    });
    this.cache.delete(row.prefix);
    return toView(row);
  }

  /** The key's identity when `token` is a live gateway key, else null. Constant-time comparison. */
  async authenticate(token: string): Promise<AuthenticatedKey | null> {
    const prefix = gatewayKeyPrefix(token);
    if (prefix === null) return null;
    const row = await this.lookup(prefix);
    // Compare even when no row matched, so timing does not tell whether a prefix exists.
    const matches = matchesDigest(token, row ? row.hash : NO_KEY_DIGEST);
    if (!row || !matches || row.revokedAt !== null) return null;
    this.lastUsed.set(row.id, new Date());
    return { id: row.id, tenantId: row.tenantId, roles: row.roles, delegate: row.delegate };
  }

  private async lookup(prefix: string): Promise<KeyRow | null> {
    const row = await this.cache.get(prefix, () => this.keys.byPrefix(prefix));
    return row ?? null;
  }

  private async flushLastUsed(): Promise<void> {
    const pending = [...this.lastUsed.entries()];
    this.lastUsed.clear();
    for (const [id, at] of pending) {
      try {
        await this.keys.markUsed(id, at);
      } catch (error) {
        this.logger.warn({ err: error }, 'could not record key use');
      }
    }
  }
}

function toView(row: GatewayKey): GatewayKeyView {
  return {
    ...viewOf(row, ['id', 'tenantId', 'name', 'roles', 'delegate']),
    keyPrefix: `pgw_${row.prefix}`,
    ...viewOf(row, ['createdBy', 'createdAt', 'lastUsedAt', 'revokedAt']),
  };
}
