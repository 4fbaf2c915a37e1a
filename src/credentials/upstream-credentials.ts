import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuditService } from '../audit/audit.service';
import { WriteTransactions } from '../database/write-transactions';
import type { Actor } from '../auth/principal';
import { problemFor, ProblemException } from '../common/problem/problem';
import { RefreshingCache } from '../common/refreshing-cache';
import type { AppConfig } from '../config/app-config';
import type { Credential } from '../generated/prisma/client';
import { SecretValueMatcher } from '../redaction/secret-value-matcher';
import { isAllowedHost, NOT_ALLOWED_HOST } from './allowed-hosts';
import { CredentialSealing } from './credential-sealing';
import { CredentialUseTally } from './credential-use-tally';
import { CredentialSecret, DashboardsSecret, PipesSecret, secretTextsOf } from './credential-secret';
import { CredentialsRepository } from './credentials.repository';
import type { CredentialKind } from './dto/credential.dto';
import { VaultValues, vaultVersionOf } from './vault-values';

/** A credential ready for an upstream call: where to send it and what to send. */
export interface UpstreamCredential<S extends CredentialSecret> {
  id: string;
  /** Named in the problem that asks an admin to rotate it. */
  name: string;
  kind: CredentialKind;
  tenantId: string;
  version: number;
  baseUrl: string | null;
  secret: S;
}

// Decrypted secrets are kept briefly so the hot path does not decrypt (or query) per request.
// Rotation and deletion clear this replica's entries at once; other replicas within the TTL.
const SECRET_CACHE_TTL_MS = 30_000;
// A tenant's secret values, which every answer is scrubbed of, are checked against the database this
// often: a credential created, rotated or deleted on another replica is scrubbed within this time.
// On the replica that made the change, at once. Checking costs one query; the values are decrypted
// and the matcher built again only when the vault changed.
const VAULT_VALUES_TTL_MS = 10_000;
// Tenants whose matchers are kept at once; past it the table starts over.
const MAX_VAULTS_KEPT = 1_000;

/**
 * The credentials upstream calls are made with, decrypted and cached briefly; the tenant's vault
 * values their answers are scrubbed of; and the mark of a credential its upstream refused.
 */
@Injectable()
export class UpstreamCredentials {
  /** Decrypted credentials by `tenantId:lookup`. */
  private readonly cache = new RefreshingCache<UpstreamCredential<CredentialSecret>>(SECRET_CACHE_TTL_MS);
  /** Each active tenant's VaultValues, by tenant id. */
  private readonly vaults = new RefreshingCache<VaultValues>(VAULT_VALUES_TTL_MS, MAX_VAULTS_KEPT);

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly sealing: CredentialSealing,
    private readonly uses: CredentialUseTally,
    private readonly audit: AuditService,
    private readonly writes: WriteTransactions,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  /** The tenant's pipes credential for an organization, decrypted; 422 when there is none. */
  async pipesCredential(
    tenantId: string,
    organizationId: string,
    actor: Actor,
  ): Promise<UpstreamCredential<PipesSecret>> {
    const credential = await this.resolve(tenantId, `pipes:${organizationId}`, () =>
      this.credentials.pipes(tenantId, organizationId),
    );
    if (!credential) {
      throw new ProblemException({
        status: 422,
        type: 'pipes-credential-missing',
        title: 'No pipes credential',
        detail: `This tenant has no pipes credential for organization ${organizationId}; an admin can add one with POST /v1/credentials.`,
      });
    }
    this.uses.count(credential, actor);
    return credential as UpstreamCredential<PipesSecret>;
  }

  /** The chosen (or default) dashboards credential, decrypted; 422 when there is none. */
  async dashboardsCredential(
    tenantId: string,
    credentialId: string | undefined,
    actor: Actor,
  ): Promise<UpstreamCredential<DashboardsSecret>> {
    const credential = await this.resolve(tenantId, `dashboards:${credentialId ?? 'default'}`, () =>
      this.credentials.dashboards(tenantId, credentialId),
    );
    if (!credential && credentialId)
      throw problemFor(404, `This tenant has no dashboards credential ${credentialId}.`);
    if (!credential) {
      throw new ProblemException({
        status: 422,
        type: 'dashboards-credential-missing',
        title: 'No dashboards credential',
        detail:
          'This tenant has no default dashboards credential; an admin can add one with POST /v1/credentials.',
      });
    }
    // Stored under an earlier allow-list (or before entries named their ports): checked again.
    const allowedHosts = this.config.get('upstream', { infer: true }).dashboardsAllowedHosts;
    if (credential.baseUrl !== null && !isAllowedHost(new URL(credential.baseUrl), allowedHosts)) {
      throw new ProblemException({
        status: 422,
        type: 'dashboards-base-url-not-allowed',
        title: 'Credential base address not allowed',
        detail: `This dashboards credential's baseUrl is no longer allowed: ${NOT_ALLOWED_HOST}. Nothing was sent; an admin can replace the credential.`,
      });
    }
    this.uses.count(credential, actor);
    return credential as UpstreamCredential<DashboardsSecret>;
  }

  /**
   * Every secret value of the tenant's credentials (vault secrets, keys, tokens), as one matcher
   * built once per version of its vault, for scrubbing answers.
   */
  vaultValues(tenantId: string): VaultValues | Promise<VaultValues> {
    // The load never answers undefined: a tenant without credentials has an empty vault.
    return this.vaults.get(tenantId, (renewed) => this.loadVaultValues(tenantId, renewed)) as
      VaultValues | Promise<VaultValues>;
  }

  /** Marks a credential refused by its upstream (401/403), visible in its metadata until rotated. */
  async markRejected(
    credential: UpstreamCredential<CredentialSecret>,
    status: number,
    actor: Actor,
  ): Promise<void> {
    this.forgetTenant(credential.tenantId);
    await this.writes.run(credential.tenantId, async (tx) => {
      await this.credentials.markRejected(tx, credential, status);
      await this.audit.append(tx, actor, {
        tenantId: credential.tenantId,
        action: 'credential.rejected',
        target: `credential:${credential.id}`,
        outcome: 'failed',
        httpStatus: status,
        details: { version: credential.version, upstreamStatus: status },
      });
    });
  }

  /** After a credential of the tenant was created, rotated or deleted: this replica forgets it at once. */
  forgetTenant(tenantId: string): void {
    this.cache.deleteWhere((key) => key.startsWith(`${tenantId}:`));
    this.vaults.delete(tenantId);
  }

  private async resolve(
    tenantId: string,
    lookup: string,
    find: () => Promise<Credential | null>,
  ): Promise<UpstreamCredential<CredentialSecret> | null> {
    const credential = await this.cache.get(`${tenantId}:${lookup}`, async () => {
      const row = await find();
      if (!row) return undefined;
      return {
        id: row.id,
        name: row.name,
        kind: row.kind,
        tenantId: row.tenantId,
        version: row.version,
        baseUrl: row.baseUrl,
        secret: this.sealing.open(row),
      };
    });
    return credential ?? null;
  }

  private async loadVaultValues(tenantId: string, renewed: VaultValues | undefined): Promise<VaultValues> {
    const rows = await this.credentials.ofTenant(tenantId);
    const vaultVersion = vaultVersionOf(rows);
    if (renewed?.vaultVersion === vaultVersion) return renewed;
    const values: string[] = [];
    for (const row of rows) {
      try {
        values.push(...secretTextsOf(this.sealing.open(row)));
      } catch {
        // Logged by open. A credential that cannot be decrypted cannot be sent either.
      }
    }
    return { identity: `${tenantId}:${vaultVersion}`, vaultVersion, matcher: new SecretValueMatcher(values) };
  }
}
