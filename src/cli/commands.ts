import type { INestApplicationContext } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { connectEmbedded, connectPostgres } from '../database/database-connection';
import { applyMigrations, readMigrations } from '../database/migrator';
import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { KeysRepository } from '../auth/keys.repository';
import { KeysService } from '../auth/keys.service';
import type { Actor } from '../auth/principal';
import { PLATFORM_GRANTOR } from '../auth/role-grants';
import { ROLES, type Role } from '../auth/roles';
import { CredentialsRepository } from '../credentials/credentials.repository';
import { CryptoService } from '../crypto/crypto.service';
import { TenantsService } from '../tenants/tenants.service';
import { rewrapCredentials } from './key-ring-rewrap';

export const USAGE = `usage: npm run cli -- <command>

  db migrate                                   apply pending migrations (needs no keys; also done at every start)
  tenant create NAME                           create a tenant
  tenant list [--name NAME]                    list the tenants (id, name, created), oldest first
  key create --tenant ID --roles R1,R2 [--name NAME]
                                               issue a gateway key (printed once)
  key revoke KEY_ID                            revoke a gateway key
  keys rewrap                                  move every credential to the active master key
  keys usage                                   how many credentials each master key version seals
  keys drop VERSION                            check that VERSION may be removed from GATEWAY_ENCRYPTION_KEYS
  keys new-signing-key [KID]                   print a new AUDIT_SIGNING_KEYS entry (Ed25519; KID: audit-<date>)

roles: ${ROLES.join(', ')}`;

/** What the commands are while a gateway runs on the embedded database (it alone may open it). */
export const THROUGH_THE_GATEWAY = `While the gateway runs, use its API instead (GATEWAY_ADMIN_TOKEN, or a tenant admin key):
  tenant create NAME         POST /v1/admin/tenants {"name": NAME}
  tenant list [--name NAME]  GET /v1/admin/tenants[?name=NAME]
  key create --tenant ID     POST /v1/admin/tenants/ID/keys {"name": ..., "roles": [...]}
  key revoke KEY_ID          DELETE /v1/keys/KEY_ID (with a key of that tenant's admins)
  keys rewrap, usage, drop   stop the gateway first`;

export class CliUsageError extends Error {}

/**
 * `db migrate`: applies pending migrations and says what it did. It opens the database alone, so it
 * needs no keys: migrations read and seal nothing.
 */
export async function migrateDatabase(database: AppConfig['database']): Promise<string[]> {
  const connection = database.url
    ? connectPostgres(database.url, { queryTimeoutMs: database.queryTimeoutMs })
    : await connectEmbedded(database.dataDir);
  try {
    const migrations = readMigrations();
    const applied = await applyMigrations(connection, migrations);
    if (applied.length === 0) {
      return [`database ${connection.description} is already up to date (${migrations.length} migrations)`];
    }
    const count = applied.length === 1 ? '1 migration' : `${applied.length} migrations`;
    return [`applied ${count} to database ${connection.description}:`, ...applied.map((name) => `  ${name}`)];
  } finally {
    await connection.close();
  }
}

function cliActor(): Actor {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // containers may run as a uid with no name
  }
  return { actor: 'cli', onBehalfOf: user, keyId: null, requestId: randomUUID() };
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
}

function parseRoles(text: string | undefined): Role[] {
  const roles = (text ?? '')
    .split(',')
    .map((role) => role.trim())
    .filter(Boolean);
  const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role));
  if (roles.length === 0 || unknown.length > 0) {
    throw new CliUsageError(
      `--roles must list some of ${ROLES.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`,
    );
  }
  return roles as Role[];
}

/** Runs one command; returns the lines to print. Throws CliUsageError for bad arguments. */
export async function runCommand(app: INestApplicationContext, args: string[]): Promise<string[]> {
  const [group, command, ...rest] = args;
  switch (`${group} ${command}`) {
    case 'tenant create': {
      if (!rest[0]) throw new CliUsageError('tenant create needs a NAME');
      const tenant = await app.get(TenantsService).create({ name: rest[0] }, cliActor());
      return [`tenant ${tenant.name}: ${tenant.id}`];
    }
    case 'tenant list': {
      const name = option(rest, 'name');
      if (rest.includes('--name') && !name) throw new CliUsageError('tenant list --name needs a NAME');
      return listTenants(app.get(TenantsService), name);
    }
    case 'key create': {
      const tenantId = option(rest, 'tenant');
      if (!tenantId) throw new CliUsageError('key create needs --tenant ID');
      const roles = parseRoles(option(rest, 'roles'));
      const created = await app
        .get(KeysService)
        .issue(
          tenantId,
          { name: option(rest, 'name') ?? `cli-${roles.join('-')}`, roles },
          cliActor(),
          PLATFORM_GRANTOR,
        );
      return [
        `key ${created.id} (${created.roles.join(', ')}) for tenant ${tenantId}`,
        `  ${created.key}`,
        'Store it now: it is not shown again.',
      ];
    }
    case 'key revoke': {
      if (!rest[0]) throw new CliUsageError('key revoke needs a KEY_ID');
      const key = await app.get(KeysRepository).tenantOf(rest[0]);
      if (!key) throw new CliUsageError(`no gateway key ${rest[0]}`);
      await app.get(KeysService).revoke(key.tenantId, rest[0], cliActor());
      return [`key ${rest[0]} revoked`];
    }
    case 'keys rewrap': {
      const moved = await rewrapCredentials(app.get(CredentialsRepository), app.get(CryptoService));
      return [`${moved} credential(s) moved to master key ${app.get(CryptoService).activeKeyVersion}`];
    }
    case 'keys usage': {
      const usage = await app.get(CredentialsRepository).keyVersionUsage();
      const crypto = app.get(CryptoService);
      return crypto
        .knownKeyVersions()
        .map(
          (version) =>
            `${version}${version === crypto.activeKeyVersion ? ' (active)' : ''}: ${usage[version] ?? 0} credential(s)`,
        );
    }
    case 'keys drop': {
      const version = rest[0];
      if (!version) throw new CliUsageError('keys drop needs a VERSION such as v1');
      const crypto = app.get(CryptoService);
      if (version === crypto.activeKeyVersion)
        throw new CliUsageError(
          `${version} is the active key; put a new key first in GATEWAY_ENCRYPTION_KEYS`,
        );
      const inUse = (await app.get(CredentialsRepository).keyVersionUsage())[version] ?? 0;
      if (inUse > 0)
        throw new CliUsageError(`${version} still seals ${inUse} credential(s); run "keys rewrap" first`);
      return [`no credential uses ${version}: it can be removed from GATEWAY_ENCRYPTION_KEYS`];
    }
    default:
      throw new CliUsageError(USAGE);
  }
}

/** Every tenant (or the one named `name`), a line each, page after page. */
async function listTenants(tenants: TenantsService, name: string | undefined): Promise<string[]> {
  const lines: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await tenants.list({ name, cursor, limit: 200 });
    for (const tenant of page.items) {
      lines.push(`${tenant.id}  ${tenant.name}  created ${tenant.createdAt.toISOString()}`);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  if (lines.length === 0) return [name === undefined ? 'no tenants yet' : `no tenant named "${name}"`];
  return lines;
}
