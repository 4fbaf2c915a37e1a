import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../auth/principal';
import type { AppConfig } from '../config/app-config';
import { createdAtKeyset, createdAtPosition, Page, toPage } from '../common/pagination';
import { problemFor, ProblemException } from '../common/problem/problem';
import { validationProblem } from '../common/problem/validation';
import {
  credentialAssociatedData,
  CryptoService,
  DecryptionError,
  SealedSecret,
} from '../crypto/crypto.service';
import { onDuplicate } from '../database/database-errors';
import { PrismaService, PrismaTx } from '../database/prisma.service';
import { UNIQUE } from '../database/unique-constraints';
import { RefreshingCache } from '../common/refreshing-cache';
import type { Credential } from '../generated/prisma/client';
import {
  CREDENTIAL_KINDS,
  CreateCredentialDto,
  CredentialKind,
  CredentialView,
  FIELDS_BY_KIND,
  RotateCredentialDto,
} from './dto/credential.dto';
import { isAllowedHost } from './allowed-hosts';
import {
  CredentialSecret,
  DashboardsSecret,
  decodeSecret,
  encodeSecret,
  PipesSecret,
  secretHint,
  secretTextsOf,
  VaultSecret,
} from './credential-secret';
import { SecretValueMatcher } from '../redaction/secret-value-matcher';
import { VaultValues, vaultVersionOf } from './vault-values';
import { viewOf } from '../common/views';

/** A credential ready for an upstream call: where to send it and what to send. */
export interface UpstreamCredential<S extends CredentialSecret> {
  id: string;
  kind: CredentialKind;
  tenantId: string;
  version: number;
  baseUrl: string | null;
  secret: S;
}

const NOT_ALLOWED_HOST =
  "baseUrl's host and port must be in DASHBOARDS_ALLOWED_HOSTS (an entry without a port admits only the scheme's default port)";

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

@Injectable()
export class CredentialsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(CredentialsService.name);
  /** Decrypted credentials by `tenantId:lookup`. */
  private readonly cache = new RefreshingCache<UpstreamCredential<CredentialSecret>>(SECRET_CACHE_TTL_MS);
  /** Each active tenant's VaultValues, by tenant id. */
  private readonly vaults = new RefreshingCache<VaultValues>(VAULT_VALUES_TTL_MS, MAX_VAULTS_KEPT);
  private readonly uses = new Map<string, UseTally>();
  private readonly flushTimer: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaService,
    private readonly crypto: CryptoService,
    private readonly audit: AuditService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {
    this.flushTimer = setInterval(() => void this.flushUses(), USE_FLUSH_MS);
    this.flushTimer.unref();
  }

  /** A master key that still seals credentials must stay configured: refuse to start without it. */
  async onModuleInit(): Promise<void> {
    const usage = await this.keyVersionUsage();
    const known = this.crypto.knownKeyVersions();
    const missing = Object.keys(usage).filter((version) => !known.includes(version));
    if (missing.length > 0) {
      throw new Error(
        `GATEWAY_ENCRYPTION_KEYS lacks ${missing.join(', ')}, which still seal ${missing.map((v) => usage[v]).join(' + ')} credential(s); ` +
          'put the key back, run "keys rewrap", and only then remove it',
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flushUses();
  }

  async create(tenantId: string, input: CreateCredentialDto, actor: Actor): Promise<CredentialView> {
    this.assertFieldsMatchKind(input);
    const baseUrl =
      input.kind === 'dashboards' && input.baseUrl !== undefined ? this.checkBaseUrl(input.baseUrl) : null;
    const secret = secretOf(input);
    const id = randomUUID();
    // The unique secret name and organization are the checks: taken before, or by a create racing
    // this one, they are a 409.
    const creating = this.audit.transaction(tenantId, async (tx) => {
      const makeDefault =
        input.kind === 'dashboards' &&
        (input.isDefault === true ||
          (await tx.credential.count({ where: { tenantId, kind: 'dashboards' } })) === 0);
      if (makeDefault && input.isDefault) {
        await tx.credential.updateMany({
          where: { tenantId, kind: 'dashboards' },
          data: { isDefault: false },
        });
      }
      const created = await tx.credential.create({
        data: {
          id,
          tenantId,
          kind: input.kind,
          name: input.name,
          organizationId: input.kind === 'pipes' ? input.organizationId : null,
          baseUrl,
          isDefault: makeDefault,
          secretName: input.kind === 'secret' ? input.name : null,
          fields: fieldsOf(secret),
          hint: secretHint(secret),
          ...this.seal(tenantId, id, secret),
        },
      });
      await this.audit.append(tx, actor, {
        tenantId,
        action: 'credential.create',
        target: `credential:${id}`,
        outcome: 'succeeded',
        httpStatus: 201,
        details: { kind: input.kind, name: input.name, organizationId: created.organizationId, baseUrl },
      });
      return created;
    });
    const row = await creating
      .catch(
        onDuplicate(UNIQUE.secretName, () =>
          problemFor(409, `This tenant already has a secret named "${input.name}"; rotate it instead.`),
        ),
      )
      .catch(
        onDuplicate(UNIQUE.pipesCredentialOrganization, () =>
          problemFor(
            409,
            `This tenant already has a pipes credential for organization ${input.organizationId}; rotate it instead.`,
          ),
        ),
      );
    this.forgetTenant(tenantId);
    return toView(row);
  }

  async list(tenantId: string, cursor: string | undefined, limit = 50): Promise<Page<CredentialView>> {
    const keyset = createdAtKeyset(cursor, 'asc');
    const rows = await this.prisma.credential.findMany({
      where: { tenantId, ...keyset.where },
      orderBy: keyset.orderBy,
      take: limit + 1,
    });
    return toPage(rows, limit, createdAtPosition, toView);
  }

  async get(tenantId: string, id: string): Promise<CredentialView> {
    return toView(await this.findOwned(this.prisma, tenantId, id));
  }

  async rotate(
    tenantId: string,
    id: string,
    input: RotateCredentialDto,
    actor: Actor,
  ): Promise<CredentialView> {
    const row = await this.audit.transaction(tenantId, async (tx) => {
      const existing = await this.lockOwned(tx, tenantId, id);
      const secret = this.rotatedSecret(existing, input);
      const updated = await tx.credential.update({
        where: { id },
        data: {
          ...this.seal(tenantId, id, secret),
          hint: secretHint(secret),
          fields: fieldsOf(secret),
          version: { increment: 1 },
          updatedAt: new Date(),
          rejectedAt: null,
          rejectedStatus: null,
        },
      });
      await this.audit.append(tx, actor, {
        tenantId,
        action: 'credential.rotate',
        target: `credential:${id}`,
        outcome: 'succeeded',
        httpStatus: 200,
        details: { kind: existing.kind, version: updated.version },
      });
      return updated;
    });
    this.forgetTenant(tenantId);
    return toView(row);
  }

  async remove(tenantId: string, id: string, actor: Actor): Promise<void> {
    await this.audit.transaction(tenantId, async (tx) => {
      const existing = await this.lockOwned(tx, tenantId, id);
      await tx.credential.delete({ where: { id } });
      if (existing.kind === 'dashboards' && existing.isDefault) {
        // Keep a default while any dashboards credential is left: the oldest one.
        const next = await tx.credential.findFirst({
          where: { tenantId, kind: 'dashboards' },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        });
        if (next) await tx.credential.update({ where: { id: next.id }, data: { isDefault: true } });
      }
      await this.audit.append(tx, actor, {
        tenantId,
        action: 'credential.delete',
        target: `credential:${id}`,
        outcome: 'succeeded',
        httpStatus: 204,
        details: { kind: existing.kind, name: existing.name },
      });
    });
    this.forgetTenant(tenantId);
  }

  /** The tenant's pipes credential for an organization, decrypted; 422 when there is none. */
  async pipesCredential(
    tenantId: string,
    organizationId: string,
    actor: Actor,
  ): Promise<UpstreamCredential<PipesSecret>> {
    const credential = await this.resolve(tenantId, `pipes:${organizationId}`, () =>
      this.prisma.credential.findFirst({ where: { tenantId, kind: 'pipes', organizationId } }),
    );
    if (!credential) {
      throw new ProblemException({
        status: 422,
        type: 'pipes-credential-missing',
        title: 'No pipes credential',
        detail: `This tenant has no pipes credential for organization ${organizationId}; an admin can add one with POST /v1/credentials.`,
      });
    }
    this.tallyUse(credential, actor);
    return credential as UpstreamCredential<PipesSecret>;
  }

  /** The chosen (or default) dashboards credential, decrypted; 422 when there is none. */
  async dashboardsCredential(
    tenantId: string,
    credentialId: string | undefined,
    actor: Actor,
  ): Promise<UpstreamCredential<DashboardsSecret>> {
    const credential = await this.resolve(tenantId, `dashboards:${credentialId ?? 'default'}`, () =>
      this.prisma.credential.findFirst({
        where: {
          tenantId,
          kind: 'dashboards',
          ...(credentialId ? { id: credentialId } : { isDefault: true }),
        },
      }),
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
    this.tallyUse(credential, actor);
    return credential as UpstreamCredential<DashboardsSecret>;
  }

  /**
   * The tenant's vault secrets that `references` (names or ids) name, decrypted, by reference.
   * A reference that names none is absent from the answer.
   */
  async vaultSecrets(
    tenantId: string,
    references: readonly string[],
    actor: Actor,
  ): Promise<Map<string, { id: string; secret: VaultSecret }>> {
    const ids = references.filter((reference) => isUUID(reference, 'all'));
    const rows = await this.prisma.credential.findMany({
      where: { tenantId, kind: 'secret', OR: [{ secretName: { in: [...references] } }, { id: { in: ids } }] },
    });
    const found = new Map<string, { id: string; secret: VaultSecret }>();
    for (const row of rows) {
      const secret = this.open(row) as VaultSecret;
      for (const reference of [row.id, row.secretName]) {
        if (reference !== null && references.includes(reference))
          found.set(reference, { id: row.id, secret });
      }
      this.tallyUse(
        { id: row.id, kind: row.kind, tenantId, version: row.version, baseUrl: null, secret },
        actor,
      );
    }
    return found;
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
    await this.audit.transaction(credential.tenantId, async (tx) => {
      await tx.credential.updateMany({
        // Only the version that was refused: a rotation that raced this call is not undone.
        where: { id: credential.id, tenantId: credential.tenantId, version: credential.version },
        data: { rejectedAt: new Date(), rejectedStatus: status },
      });
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

  /**
   * Moves every credential sealed with an older key version to the active one, row by row under
   * a row lock, so rotations and reads carry on meanwhile. Returns how many rows moved.
   */
  async rewrapAll(): Promise<number> {
    const active = this.crypto.activeKeyVersion;
    let moved = 0;
    for (;;) {
      const batch = await this.prisma.credential.findMany({
        where: { keyVersion: { not: active } },
        select: { id: true },
        take: 100,
      });
      if (batch.length === 0) return moved;
      for (const { id } of batch) {
        await this.prisma.$transaction(async (tx) => {
          await tx.$queryRaw`SELECT id FROM credentials WHERE id = ${id}::uuid FOR UPDATE`;
          const current = await tx.credential.findUnique({ where: { id } });
          if (!current || current.keyVersion === active) return;
          const sealed = this.crypto.rewrap(
            sealedOf(current),
            credentialAssociatedData(current.tenantId, id),
          );
          await tx.credential.update({ where: { id }, data: sealedColumns(sealed) });
          moved += 1;
        });
      }
      this.cache.clear();
    }
  }

  /** How many credentials each key version still seals (a version in use must stay configured). */
  async keyVersionUsage(): Promise<Record<string, number>> {
    const rows = await this.prisma.credential.groupBy({ by: ['keyVersion'], _count: { _all: true } });
    return Object.fromEntries(rows.map((row) => [row.keyVersion, row._count._all]));
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
        kind: row.kind,
        tenantId: row.tenantId,
        version: row.version,
        baseUrl: row.baseUrl,
        secret: this.open(row),
      };
    });
    return credential ?? null;
  }

  private async loadVaultValues(tenantId: string, renewed: VaultValues | undefined): Promise<VaultValues> {
    const rows = await this.prisma.credential.findMany({ where: { tenantId } });
    const vaultVersion = vaultVersionOf(rows);
    if (renewed?.vaultVersion === vaultVersion) return renewed;
    const values: string[] = [];
    for (const row of rows) {
      try {
        values.push(...secretTextsOf(this.open(row)));
      } catch {
        // Logged by open. A credential that cannot be decrypted cannot be sent either.
      }
    }
    return { identity: `${tenantId}:${vaultVersion}`, vaultVersion, matcher: new SecretValueMatcher(values) };
  }

  private open(row: Credential): CredentialSecret {
    try {
      return decodeSecret(this.crypto.decrypt(sealedOf(row), credentialAssociatedData(row.tenantId, row.id)));
    } catch (error) {
      this.logger.error(
        { credentialId: row.id, keyVersion: row.keyVersion, err: error },
        'stored credential failed to decrypt: altered, copied, or sealed with a key that is not configured',
      );
      throw new ProblemException({
        status: 500,
        type: 'credential-unreadable',
        title: 'Stored credential unreadable',
        detail: `Credential ${row.id} cannot be decrypted${
          error instanceof DecryptionError ? ' (it was altered or copied)' : ''
        }; nothing was sent upstream. An admin should rotate it.`,
      });
    }
  }

  private seal(tenantId: string, id: string, secret: CredentialSecret): ReturnType<typeof sealedColumns> {
    return sealedColumns(this.crypto.encrypt(encodeSecret(secret), credentialAssociatedData(tenantId, id)));
  }

  private rotatedSecret(existing: Credential, input: RotateCredentialDto): CredentialSecret {
    if (existing.kind === 'secret') {
      const problems = [
        ...(['keyId', 'keySecret', 'token'] as const)
          .filter((field) => input[field] !== undefined)
          .map((field) => ({ path: field, message: `${field} is not allowed for secret credentials` })),
        ...(input.value === undefined
          ? [{ path: 'value', message: 'value is required to rotate a secret' }]
          : []),
      ];
      if (problems.length > 0) throw validationProblem(problems);
      return { value: input.value! };
    }
    if (input.value !== undefined) {
      throw validationProblem([{ path: 'value', message: 'value is only allowed for secret credentials' }]);
    }
    if (existing.kind === 'pipes') {
      const problems = [
        ...(input.token !== undefined
          ? [{ path: 'token', message: 'token is only allowed for dashboards credentials' }]
          : []),
        ...(input.keySecret === undefined
          ? [{ path: 'keySecret', message: 'keySecret is required to rotate a pipes credential' }]
          : []),
      ];
      if (problems.length > 0) throw validationProblem(problems);
      const keyId = input.keyId ?? (this.open(existing) as PipesSecret).keyId;
      return { keyId, keySecret: input.keySecret! };
    }
    const problems = [
      ...(['keyId', 'keySecret'] as const)
        .filter((field) => input[field] !== undefined)
        .map((field) => ({ path: field, message: `${field} is only allowed for pipes credentials` })),
      ...(input.token === undefined
        ? [{ path: 'token', message: 'token is required to rotate a dashboards credential' }]
        : []),
    ];
    if (problems.length > 0) throw validationProblem(problems);
    return { token: input.token! };
  }

  private assertFieldsMatchKind(input: CreateCredentialDto): void {
    const misplaced = CREDENTIAL_KINDS.filter((kind) => kind !== input.kind)
      .flatMap((kind) => FIELDS_BY_KIND[kind])
      .filter((field) => (input as unknown as Record<string, unknown>)[field] !== undefined);
    if (misplaced.length > 0) {
      throw validationProblem(
        misplaced.map((field) => ({
          path: field,
          message: `${field} is not allowed for kind ${input.kind}`,
        })),
      );
    }
  }

  /** https (http only in the sandbox), no credentials or query, host and port on the allow-list. */
  private checkBaseUrl(raw: string): string {
    const upstream = this.config.get('upstream', { infer: true });
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw validationProblem([{ path: 'baseUrl', message: 'baseUrl must be an absolute URL' }]);
    }
    const problems: string[] = [];
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && upstream.allowInsecureUpstreams)) {
      problems.push('baseUrl must use https');
    }
    if (url.username || url.password || url.search || url.hash)
      problems.push('baseUrl must not carry credentials, a query or a fragment');
    if (!isAllowedHost(url, upstream.dashboardsAllowedHosts)) problems.push(NOT_ALLOWED_HOST);
    if (problems.length > 0)
      throw validationProblem(problems.map((message) => ({ path: 'baseUrl', message })));
    return url.toString().replace(/\/+$/, '');
  }

  private async findOwned(
    client: PrismaService | PrismaTx,
    tenantId: string,
    id: string,
  ): Promise<Credential> {
    const row = await client.credential.findFirst({ where: { id, tenantId } });
    if (!row) throw problemFor(404, `Credential ${id} does not exist.`);
    return row;
  }

  private async lockOwned(tx: PrismaTx, tenantId: string, id: string): Promise<Credential> {
    await tx.$queryRaw`SELECT id FROM credentials WHERE id = ${id}::uuid AND tenant_id = ${tenantId}::uuid FOR UPDATE`;
    return this.findOwned(tx, tenantId, id);
  }

  private forgetTenant(tenantId: string): void {
    this.cache.deleteWhere((key) => key.startsWith(`${tenantId}:`));
    this.vaults.delete(tenantId);
  }

  private tallyUse(credential: UpstreamCredential<CredentialSecret>, actor: Actor): void {
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

  private async flushUses(): Promise<void> {
    const pending = [...this.uses.entries()];
    this.uses.clear();
    for (const [id, tally] of pending) {
      try {
        await this.audit.transaction(tally.tenantId, async (tx) => {
          await tx.credential.updateMany({
            where: { id, tenantId: tally.tenantId },
            data: { lastUsedAt: tally.lastAt },
          });
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

function sealedOf(row: Credential): SealedSecret {
  return {
    ciphertext: Buffer.from(row.ciphertext),
    iv: Buffer.from(row.iv),
    authTag: Buffer.from(row.authTag),
    keyVersion: row.keyVersion,
  };
}

function sealedColumns(sealed: SealedSecret) {
  return {
    ciphertext: new Uint8Array(sealed.ciphertext),
    iv: new Uint8Array(sealed.iv),
    authTag: new Uint8Array(sealed.authTag),
    keyVersion: sealed.keyVersion,
  };
}

const CREDENTIAL_VIEW = [
  'id',
  'kind',
  'name',
  'hint',
  'version',
  'createdAt',
  'updatedAt',
  'lastUsedAt',
  'rejectedAt',
  'rejectedStatus',
] as const;

function toView(row: Credential): CredentialView {
  const view: CredentialView = viewOf(row, CREDENTIAL_VIEW);
  if (row.kind === 'pipes') view.organizationId = row.organizationId ?? undefined;
  if (row.kind === 'dashboards') {
    view.isDefault = row.isDefault;
    if (row.baseUrl) view.baseUrl = row.baseUrl;
  }
  if (row.kind === 'secret' && row.fields.length > 0) view.fields = row.fields;
  return view;
}

function secretOf(input: CreateCredentialDto): CredentialSecret {
  switch (input.kind) {
    case 'pipes':
      return { keyId: input.keyId!, keySecret: input.keySecret! };
    case 'dashboards':
      return { token: input.token! };
    case 'secret':
      return { value: input.value! };
  }
}

/** An object secret's field names, shown in its metadata; none for every other secret. */
function fieldsOf(secret: CredentialSecret): string[] {
  return 'value' in secret && typeof secret.value === 'object' ? Object.keys(secret.value) : [];
}
