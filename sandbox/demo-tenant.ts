import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { KeysService } from '../src/auth/keys.service';
import { PLATFORM_GRANTOR } from '../src/auth/role-grants';
import { CredentialStore } from '../src/credentials/credential-store';
import { PrismaService } from '../src/database/prisma.service';
import { TenantsService } from '../src/tenants/tenants.service';

export interface DemoUpstreamSecrets {
  pipesKey: { keyId: string; keySecret: string };
  dashboardsToken: string;
}

/** The vault secret of the demo tenant, for pipe specs to reference: `{"$secret": "demo-aws-keys"}`. */
export const DEMO_SECRET = 'demo-aws-keys';

/**
 * A tenant ready to call every route, for the sandbox and the benchmarks: found or made by name,
 * a new key with every tenant role (returned once), and, when upstreams are given, one credential
 * per upstream and a vault secret, replacing any it had (simulator secrets are new on every run).
 */
export async function seedDemoTenant(
  app: INestApplicationContext,
  options: {
    tenantName: string;
    keyName: string;
    organizationId: string;
    upstreams: DemoUpstreamSecrets | null;
  },
): Promise<{ tenantId: string; key: string }> {
  const actor = { actor: 'sandbox', onBehalfOf: null, keyId: null, requestId: randomUUID() };
  const prisma = app.get(PrismaService);
  const credentials = app.get(CredentialStore);
  const tenant =
    (await prisma.tenant.findUnique({ where: { name: options.tenantName } })) ??
    (await app.get(TenantsService).create({ name: options.tenantName }, actor));
  const { key } = await app
    .get(KeysService)
    .issue(
      tenant.id,
      { name: options.keyName, roles: ['admin', 'operator', 'auditor'] },
      actor,
      PLATFORM_GRANTOR,
    );
  if (options.upstreams === null) return { tenantId: tenant.id, key };
  for (const stale of await prisma.credential.findMany({ where: { tenantId: tenant.id } })) {
    await credentials.remove(tenant.id, stale.id, actor);
  }
  await credentials.create(
    tenant.id,
    {
      kind: 'pipes',
      name: 'demo pipes',
      organizationId: options.organizationId,
      ...options.upstreams.pipesKey,
    },
    actor,
  );
  await credentials.create(
    tenant.id,
    { kind: 'dashboards', name: 'demo dashboards', token: options.upstreams.dashboardsToken },
    actor,
  );
  await credentials.create(
    tenant.id,
    {
      kind: 'secret',
      name: DEMO_SECRET,
      value: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretKey: randomBytes(30).toString('base64') },
    },
    actor,
  );
  return { tenantId: tenant.id, key };
}
