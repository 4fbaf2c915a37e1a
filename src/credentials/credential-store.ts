import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { AuditService } from '../audit/audit.service';
import { WriteTransactions } from '../database/write-transactions';
import type { Actor } from '../auth/principal';
import { createdAtPosition, Page, toPage } from '../common/pagination';
import { problemFor } from '../common/problem/problem';
import { validationProblem } from '../common/problem/validation';
import type { AppConfig } from '../config/app-config';
import { onDuplicate } from '../database/database-errors';
import type { PrismaTx } from '../database/prisma.service';
import { UNIQUE } from '../database/unique-constraints';
import type { Credential } from '../generated/prisma/client';
import { isAllowedHost, NOT_ALLOWED_HOST } from './allowed-hosts';
import { CredentialSealing } from './credential-sealing';
import { CredentialSecret, PipesSecret, secretHint } from './credential-secret';
import { CredentialsRepository } from './credentials.repository';
import {
  CREDENTIAL_KINDS,
  CreateCredentialDto,
  CredentialView,
  FIELDS_BY_KIND,
  RotateCredentialDto,
} from './dto/credential.dto';
import { UpstreamCredentials } from './upstream-credentials';
import { viewOf } from '../common/views';

/**
 * The tenant's stored credentials: created, listed, read, rotated and deleted, each change audited
 * with it. A secret is sealed before it is stored and never returned: answers carry metadata.
 */
@Injectable()
export class CredentialStore {
  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly sealing: CredentialSealing,
    private readonly upstream: UpstreamCredentials,
    private readonly audit: AuditService,
    private readonly writes: WriteTransactions,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async create(tenantId: string, input: CreateCredentialDto, actor: Actor): Promise<CredentialView> {
    this.assertFieldsMatchKind(input);
    const baseUrl =
      input.kind === 'dashboards' && input.baseUrl !== undefined ? this.checkBaseUrl(input.baseUrl) : null;
    const secret = secretOf(input);
    const id = randomUUID();
    // The unique secret name and organization are the checks: taken before, or by a create racing
    // this one, they are a 409.
    const creating = this.writes.run(tenantId, async (tx) => {
      const makeDefault =
        input.kind === 'dashboards' &&
        (input.isDefault === true || (await this.credentials.countDashboards(tx, tenantId)) === 0);
      if (makeDefault && input.isDefault) await this.credentials.clearDashboardsDefault(tx, tenantId);
      const created = await this.credentials.insert(tx, {
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
        ...this.sealing.seal(tenantId, id, secret),
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
    this.upstream.forgetTenant(tenantId);
    return toView(row);
  }

  async list(tenantId: string, cursor: string | undefined, limit = 50): Promise<Page<CredentialView>> {
    const rows = await this.credentials.page(tenantId, cursor, limit);
    return toPage(rows, limit, createdAtPosition, toView);
  }

  async get(tenantId: string, id: string): Promise<CredentialView> {
    return toView(ownedOr404(await this.credentials.find(tenantId, id), id));
  }

  /** 404 unless the tenant has the credential. */
  async assertExists(tenantId: string, id: string): Promise<void> {
    if (!(await this.credentials.exists(tenantId, id))) throw notFound(id);
  }

  async rotate(
    tenantId: string,
    id: string,
    input: RotateCredentialDto,
    actor: Actor,
  ): Promise<CredentialView> {
    const row = await this.writes.run(tenantId, async (tx) => {
      const existing = await this.lockOwned(tx, tenantId, id);
      const secret = this.rotatedSecret(existing, input);
      const updated = await this.credentials.replaceSecret(tx, id, {
        ...this.sealing.seal(tenantId, id, secret),
        hint: secretHint(secret),
        fields: fieldsOf(secret),
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
    this.upstream.forgetTenant(tenantId);
    return toView(row);
  }

  /** `usedBy`: the pipes that used a vault secret when it was deleted, for its event. */
  async remove(tenantId: string, id: string, actor: Actor, usedBy: string[] = []): Promise<void> {
    await this.writes.run(tenantId, async (tx) => {
      const existing = await this.lockOwned(tx, tenantId, id);
      await this.credentials.delete(tx, id);
      // Keep a default while any dashboards credential is left: the oldest one.
      if (existing.kind === 'dashboards' && existing.isDefault)
        await this.credentials.defaultToOldestDashboards(tx, tenantId);
      await this.audit.append(tx, actor, {
        tenantId,
        action: 'credential.delete',
        target: `credential:${id}`,
        outcome: 'succeeded',
        httpStatus: 204,
        details: { kind: existing.kind, name: existing.name, ...(usedBy.length > 0 ? { usedBy } : {}) },
      });
    });
    this.upstream.forgetTenant(tenantId);
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
      const keyId = input.keyId ?? (this.sealing.open(existing) as PipesSecret).keyId;
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

  private async lockOwned(tx: PrismaTx, tenantId: string, id: string): Promise<Credential> {
    return ownedOr404(await this.credentials.lock(tx, tenantId, id), id);
  }
}

function notFound(id: string) {
  return problemFor(404, `Credential ${id} does not exist.`);
}

function ownedOr404(row: Credential | null, id: string): Credential {
  if (!row) throw notFound(id);
  return row;
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
