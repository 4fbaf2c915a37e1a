/**
 * People sign in with tokens from an OIDC issuer (docs/sign-in.md): a local issuer (the
 * sandbox's, signing with jose) serves discovery and its key set; the gateway verifies its tokens,
 * turns groups into roles through group mappings, and records the person in the audit log.
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { CompactSign, generateKeyPair, SignJWT } from 'jose';
import { startOidcIssuer, unpublishedKey, type OidcIssuer } from '../sandbox';
import { bearer, createTenant, platformAuth, type TestTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';
import { ROUTES, routeName } from './security/route-catalog';

const ALLOWED = 'only RS256, ES256, PS256';

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('sign-in with OIDC tokens (e2e)', () => {
  let issuer: OidcIssuer;
  let gateway: TestGateway;
  let tenantA: TestTenant;
  let tenantB: TestTenant;
  // Group names are unique to this run: mappings are looked up across all tenants.
  const run = randomUUID().slice(0, 8);
  const groups = {
    aOperators: `a-operators-${run}`,
    aAdmins: `a-admins-${run}`,
    aAuditors: `a-auditors-${run}`,
    bViewers: `b-viewers-${run}`,
    unmapped: `nobody-${run}`,
  };

  const token = (claims: Record<string, unknown>, options?: Parameters<OidcIssuer['mint']>[1]) =>
    issuer.mint(claims, options);
  const asUser = async (userGroups: string[], email = `alice-${run}@example.com`) =>
    bearer(await token({ email, groups: userGroups }));

  beforeAll(async () => {
    issuer = await startOidcIssuer({ audience: 'pipes-gateway-test' });
    gateway = await startGateway({
      OIDC_ISSUER: issuer.url,
      OIDC_AUDIENCE: issuer.audience,
      OIDC_JWKS_COOLDOWN_MS: '1000',
    });
    tenantA = await createTenant(gateway);
    tenantB = await createTenant(gateway);
    const map = (tenant: TestTenant, group: string, roles: string[]) =>
      gateway.http
        .post(`/v1/admin/tenants/${tenant.id}/group-mappings`)
        .set(platformAuth)
        .send({ group, roles })
        .expect(201);
    await map(tenantA, groups.aOperators, ['operator']);
    await map(tenantA, groups.aAdmins, ['admin']);
    await map(tenantA, groups.aAuditors, ['auditor']);
    await map(tenantB, groups.bViewers, ['viewer']);
  });
  afterAll(async () => {
    await gateway?.close();
    await issuer?.close();
  });

  describe('group mappings', () => {
    it('are created by the platform token with 201 {id, group, roles, createdAt}, once per group', async () => {
      const created = await gateway.http
        .post(`/v1/admin/tenants/${tenantB.id}/group-mappings`)
        .set(platformAuth)
        .send({ group: `b-admins-${run}`, roles: ['admin', 'auditor'] })
        .expect(201);
      expect(Object.keys(created.body).sort()).toEqual(['createdAt', 'group', 'id', 'roles']);
      expect(created.body).toMatchObject({ group: `b-admins-${run}`, roles: ['admin', 'auditor'] });
      const again = await gateway.http
        .post(`/v1/admin/tenants/${tenantB.id}/group-mappings`)
        .set(platformAuth)
        .send({ group: `b-admins-${run}`, roles: ['viewer'] })
        .expect(409);
      expect(again.body.detail).toContain(created.body.id);
      await gateway.http
        .post(`/v1/admin/tenants/${randomUUID()}/group-mappings`)
        .set(platformAuth)
        .send({ group: 'x', roles: ['viewer'] })
        .expect(404);
      const listed = await gateway.http
        .get(`/v1/admin/tenants/${tenantB.id}/group-mappings`)
        .set(platformAuth)
        .expect(200);
      expect(listed.body.items.map((item: { group: string }) => item.group)).toEqual([
        groups.bViewers,
        `b-admins-${run}`,
      ]);
      expect(listed.body.nextCursor).toBeNull();
      await gateway.http
        .delete(`/v1/admin/tenants/${tenantB.id}/group-mappings/${created.body.id}`)
        .set(platformAuth)
        .expect(204);
      await gateway.http
        .delete(`/v1/admin/tenants/${tenantB.id}/group-mappings/${created.body.id}`)
        .set(platformAuth)
        .expect(404);
    });

    it("are managed by a tenant's admin at /v1/group-mappings, in that tenant only, and audited", async () => {
      const admin = bearer(tenantA.keys.admin);
      await gateway.http
        .post(`/v1/admin/tenants/${tenantA.id}/groups`)
        .set(platformAuth)
        .send({ group: `a-extra-${run}` })
        .expect(201);
      const created = await gateway.http
        .post('/v1/group-mappings')
        .set(admin)
        .send({ group: `a-extra-${run}`, roles: ['viewer'] })
        .expect(201);
      const first = await gateway.http.get('/v1/group-mappings?limit=1').set(admin).expect(200);
      expect(first.body.items).toHaveLength(1);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const all = await gateway.http.get('/v1/group-mappings?limit=200').set(admin).expect(200);
      expect(all.body.items.map((item: { group: string }) => item.group)).toContain(`a-extra-${run}`);
      expect(all.body.items.map((item: { group: string }) => item.group)).not.toContain(groups.bViewers);

      await gateway.http.get('/v1/group-mappings').set(bearer(tenantA.keys.operator)).expect(403);
      await gateway.http
        .delete(`/v1/group-mappings/${created.body.id}`)
        .set(bearer(tenantB.keys.admin))
        .expect(404);
      await gateway.http.delete(`/v1/group-mappings/${created.body.id}`).set(admin).expect(204);

      const audit = await gateway.http
        .get('/v1/audit?limit=200')
        .set(bearer(tenantA.keys.auditor))
        .expect(200);
      const actions = audit.body.items
        .filter((event: { target: string }) => event.target === `group-mapping:${created.body.id}`)
        .map((event: { action: string }) => event.action);
      expect(actions.sort()).toEqual(['group-mapping.create', 'group-mapping.delete']);
    });

    it.each([
      [{ group: '', roles: ['viewer'] }, 'group', 'must not be empty'],
      [{ group: 'x'.repeat(257), roles: ['viewer'] }, 'group', 'must be at most 256 characters long'],
      [
        { group: 'a\u202eb', roles: ['viewer'] },
        'group',
        'must not contain control, bidirectional-override or invisible characters',
      ],
      [
        { group: `pgw_AbCdEfGhIjKl_${'x'.repeat(43)}`, roles: ['viewer'] },
        'group',
        'must not hold a secret (it looks like a gateway key)',
      ],
      [{ group: 'g', roles: [] }, 'roles', 'must have at least 1 item'],
      [{ group: 'g', roles: ['root'] }, 'roles', 'each item must be one of admin, operator, viewer, auditor'],
      [{ group: 'g', roles: ['viewer'], tenantId: 'x' }, 'tenantId', 'is not a known field'],
    ])('refuses %j with 400 naming the field', async (body, path, message) => {
      const response = await gateway.http
        .post('/v1/group-mappings')
        .set(bearer(tenantA.keys.admin))
        .send(body)
        .expect(400);
      expect(response.body.errors).toEqual([{ path, message }]);
    });
  });

  describe('a valid token', () => {
    it("acts with the union of the roles its groups are mapped to in the user's tenant", async () => {
      const operator = await asUser([groups.aOperators, groups.unmapped]);
      await gateway.http.get('/v1/credentials').set(operator).expect(200);
      const denied = await gateway.http.get('/v1/keys').set(operator).expect(403);
      expect(denied.body.detail).toBe('Your roles in this tenant (operator) do not include admin.');
      await gateway.http.get('/v1/audit').set(operator).expect(403);

      const both = await asUser([groups.aOperators, groups.aAuditors]);
      await gateway.http.get('/v1/audit').set(both).expect(200);
      await gateway.http.get('/v1/credentials').set(both).expect(200);
    });

    it('is recorded as user:<email> with the issuer, in the audit log, its export and what it creates', async () => {
      const email = `carol-${run}@example.com`;
      const admin = await asUser([groups.aAdmins], email);
      const key = await gateway.http
        .post('/v1/keys')
        .set(admin)
        .send({ name: 'made by a person', roles: ['viewer'] })
        .expect(201);
      expect(key.body.createdBy).toBe(`user:${email}`);

      const auditor = await asUser([groups.aAuditors]);
      const review = await gateway.http
        .get('/v1/audit')
        .query({ actor: `user:${email}` })
        .set(auditor)
        .expect(200);
      expect(review.body.items).toHaveLength(1);
      expect(review.body.items[0]).toMatchObject({
        actor: `user:${email}`,
        onBehalfOf: null,
        action: 'key.create',
        target: `key:${key.body.id}`,
        details: expect.objectContaining({ issuer: issuer.url }),
      });
      const exported = await gateway.http.get('/v1/audit/export').set(auditor).expect(200);
      expect(exported.text).toContain(`"actor":"user:${email}"`);
      const verified = await gateway.http.get('/v1/audit/verify').set(auditor).expect(200);
      expect(verified.body.ok).toBe(true);
    });

    it('names the user user-sub:<sub> unless the token holds a verified email', async () => {
      const auditor = bearer(tenantA.keys.auditor);
      for (const claims of [
        { sub: `sub-1-${run}` },
        { sub: `sub-2-${run}`, email: 'bad\u0007@example.com' },
        { sub: `sub-3-${run}`, email: `mallory-${run}@example.com`, email_verified: false },
        { sub: `sub-4-${run}`, email: `mallory-${run}@example.com`, email_verified: undefined },
        { sub: `sub-5-${run}`, email: `mallory-${run}@example.com`, email_verified: 'true' },
      ]) {
        const user = bearer(await token({ ...claims, groups: [groups.aAdmins] }));
        const created = await gateway.http
          .post('/v1/keys')
          .set(user)
          .send({ name: 'by sub', roles: ['viewer'] });
        expect(created.status).toBe(201);
        expect(created.body.createdBy).toBe(`user-sub:${claims.sub}`);
      }
      const review = await gateway.http
        .get('/v1/audit')
        .query({ actor: `user:mallory-${run}@example.com` })
        .set(auditor);
      expect(review.body.items).toEqual([]);
    });

    it('with a sub shaped like an address and no verified email, never reads as that person', async () => {
      const address = `alice-${run}@example.com`;
      const auditor = bearer(tenantA.keys.auditor);
      const impostor = bearer(await token({ sub: address, groups: [groups.aAdmins] }));
      const made = await gateway.http
        .post('/v1/keys')
        .set(impostor)
        .send({ name: 'by an address-shaped sub', roles: ['viewer'] })
        .expect(201);
      expect(made.body.createdBy).toBe(`user-sub:${address}`);

      const asPerson = await gateway.http
        .get('/v1/audit')
        .query({ actor: `user:${address}` })
        .set(auditor);
      expect(asPerson.body.items.map((event: { target: string }) => event.target)).not.toContain(
        `key:${made.body.id}`,
      );
      const asSub = await gateway.http
        .get('/v1/audit')
        .query({ actor: `user-sub:${address}` })
        .set(auditor)
        .expect(200);
      expect(asSub.body.items).toEqual([
        expect.objectContaining({ actor: `user-sub:${address}`, target: `key:${made.body.id}` }),
      ]);

      // The person whose address the issuer verified is user:<address>, and only they.
      const person = bearer(await token({ email: address, email_verified: true, groups: [groups.aAdmins] }));
      const theirs = await gateway.http
        .post('/v1/keys')
        .set(person)
        .send({ name: 'by the person', roles: ['viewer'] })
        .expect(201);
      expect(theirs.body.createdBy).toBe(`user:${address}`);
      const found = await gateway.http
        .get('/v1/audit')
        .query({ actor: `user:${address}` })
        .set(auditor)
        .expect(200);
      expect(found.body.items.map((event: { target: string }) => event.target)).toEqual([
        `key:${theirs.body.id}`,
      ]);
    });

    it('mapped to no role in any tenant is forbidden (403)', async () => {
      const response = await gateway.http
        .get('/v1/credentials')
        .set(await asUser([groups.unmapped]))
        .expect(403);
      expect(response.body.detail).toBe(
        'Your sign-in is valid, but none of your groups is mapped to a role in any tenant.',
      );
      await gateway.http
        .get('/v1/credentials')
        .set(await asUser([]))
        .expect(403);
    });

    it('cannot be claimed by a key through X-On-Behalf-Of written like an actor (400)', async () => {
      for (const name of [`user:carol-${run}@example.com`, `user-sub:carol-${run}`, 'platform']) {
        const response = await gateway.http
          .get('/v1/credentials')
          .set(bearer(tenantA.keys.operator))
          .set('X-On-Behalf-Of', name)
          .expect(400);
        expect(response.body.errors).toEqual([
          {
            path: 'header:X-On-Behalf-Of',
            message: expect.stringMatching(/^must name the person as the frontend knows them/),
          },
        ]);
      }
    });

    it('refuses X-On-Behalf-Of (400): the person is known', async () => {
      const response = await gateway.http
        .get('/v1/credentials')
        .set(await asUser([groups.aOperators]))
        .set('X-On-Behalf-Of', 'bob@example.com')
        .expect(400);
      expect(response.body.errors).toEqual([
        { path: 'header:X-On-Behalf-Of', message: 'is refused with a user token' },
      ]);
    });

    it('does not open the platform routes', async () => {
      await gateway.http
        .post('/v1/admin/tenants')
        .set(await asUser([groups.aAdmins]))
        .send({ name: `t-${run}` })
        .expect(401);
    });
  });

  describe('a user in two tenants', () => {
    let both: { Authorization: string };
    beforeAll(async () => {
      both = await asUser([groups.aAdmins, groups.bViewers], `dana-${run}@example.com`);
    });

    it('must say which tenant with X-Tenant-Id (400 otherwise)', async () => {
      const response = await gateway.http.get('/v1/credentials').set(both).expect(400);
      expect(response.body.detail).toMatch(/several tenants .*X-Tenant-Id/);
      expect(response.body.detail).toContain(tenantA.id);
      expect(response.body.detail).toContain(tenantB.id);
      expect(response.body.errors).toEqual([
        { path: 'header:X-Tenant-Id', message: 'is required: your groups give you roles in 2 tenants' },
      ]);
    });

    it('acts in the tenant it names, with its roles there', async () => {
      const inA = await gateway.http
        .get('/v1/keys?limit=200')
        .set(both)
        .set('X-Tenant-Id', tenantA.id)
        .expect(200);
      expect(inA.body.items.map((key: { id: string }) => key.id)).toContain(tenantA.keyIds.viewer);
      // In B the same person is only a viewer.
      await gateway.http.get('/v1/keys').set(both).set('X-Tenant-Id', tenantB.id).expect(403);
      const credentials = await gateway.http
        .post('/v1/credentials')
        .set(both)
        .set('X-Tenant-Id', tenantA.id)
        .send({ kind: 'dashboards', name: `by dana ${run}`, token: 'dana-dashboards-token' })
        .expect(201);
      // The change is in A's audit log, not B's.
      const inAuditOf = async (tenant: TestTenant) =>
        (await gateway.http.get('/v1/audit?limit=200').set(bearer(tenant.keys.auditor))).body.items.filter(
          (event: { target: string }) => event.target === `credential:${credentials.body.id}`,
        );
      expect(await inAuditOf(tenantA)).toHaveLength(1);
      expect(await inAuditOf(tenantB)).toHaveLength(0);
    });

    it('is forbidden in a tenant its groups are not mapped to, and a bad X-Tenant-Id is a 400', async () => {
      const other = await createTenant(gateway);
      const response = await gateway.http
        .get('/v1/credentials')
        .set(both)
        .set('X-Tenant-Id', other.id)
        .expect(403);
      expect(response.body.detail).toBe(`Your groups give you no role in tenant ${other.id}.`);
      await gateway.http.get('/v1/credentials').set(both).set('X-Tenant-Id', 'tenant-a').expect(400);
    });
  });

  describe('bad tokens: 401 with the reason, and nothing of the token in the answer or the logs', () => {
    const claims = () => ({ email: `eve-${run}@example.com`, groups: [groups.aAdmins] });
    const unsigned = (header: object) =>
      `${base64url(header)}.${base64url({ ...claims(), iss: issuer.url, aud: issuer.audience, exp: Math.floor(Date.now() / 1000) + 600 })}`;

    const CASES: [string, () => Promise<string>, string][] = [
      ['expired', () => token(claims(), { expiresInSeconds: -120 }), 'The token has expired.'],
      [
        'not yet valid',
        () => token(claims(), { notBeforeInSeconds: 600 }),
        'The token is not valid yet (its nbf is in the future).',
      ],
      [
        'from another issuer',
        () => token(claims(), { issuer: 'https://login.evil.example.com' }),
        `The token was not issued by ${'ISSUER'}.`,
      ],
      [
        "from another issuer, signed with that issuer's own key",
        async () =>
          token(claims(), { issuer: 'https://login.evil.example.com', key: await unpublishedKey() }),
        `The token was not issued by ${'ISSUER'}.`,
      ],
      [
        'for another audience',
        () => token(claims(), { audience: 'someone-else' }),
        'The token is not meant for this gateway (audience pipes-gateway-test).',
      ],
      [
        'with a bad signature (another key under the published kid)',
        async () => token(claims(), { key: { ...(await unpublishedKey()), kid: issuer.currentKey.kid } }),
        "The token's signature does not verify against the issuer's keys.",
      ],
      [
        'with a tampered payload',
        async () => {
          const [header, , signature] = (await token(claims())).split('.');
          const payload = base64url({
            ...claims(),
            groups: [groups.aAdmins, groups.bViewers],
            iss: issuer.url,
            aud: issuer.audience,
            exp: 9999999999,
          });
          return `${header}.${payload}.${signature}`;
        },
        "The token's signature does not verify against the issuer's keys.",
      ],
      [
        'with alg none',
        () => Promise.resolve(`${unsigned({ alg: 'none', typ: 'JWT' })}.`),
        `The token is signed with an algorithm the gateway does not accept (${ALLOWED}).`,
      ],
      [
        "HS256-signed with the issuer's public key as the secret (JWK)",
        () => hmacWithPublicKey('jwk'),
        `The token is signed with an algorithm the gateway does not accept (${ALLOWED}).`,
      ],
      [
        "HS256-signed with the issuer's public key as the secret (PEM)",
        () => hmacWithPublicKey('pem'),
        `The token is signed with an algorithm the gateway does not accept (${ALLOWED}).`,
      ],
      [
        'signed with RS384',
        async () => {
          const key = await generateKeyPair('RS384');
          return new SignJWT(claims())
            .setProtectedHeader({ alg: 'RS384', kid: issuer.currentKey.kid })
            .setIssuer(issuer.url)
            .setAudience(issuer.audience)
            .setExpirationTime('10m')
            .sign(key.privateKey);
        },
        `The token is signed with an algorithm the gateway does not accept (${ALLOWED}).`,
      ],
      [
        'without exp',
        () =>
          new SignJWT(claims())
            .setProtectedHeader({ alg: 'RS256', kid: issuer.currentKey.kid })
            .setIssuer(issuer.url)
            .setAudience(issuer.audience)
            .sign(issuer.currentKey.privateKey),
        'The token has no expiry (exp); only expiring tokens are accepted.',
      ],
      [
        'signed with a key the issuer does not publish',
        async () => token(claims(), { key: await unpublishedKey() }),
        "The token names a signing key the issuer does not publish, even after the issuer's keys were fetched again.",
      ],
      [
        'malformed: not a JWT',
        () => Promise.resolve('not-a-token'),
        'The token is malformed: it is not a signed JWT the gateway can read.',
      ],
      [
        'malformed: three garbage parts',
        () => Promise.resolve('abc.def.ghi'),
        'The token is malformed: it is not a signed JWT the gateway can read.',
      ],
      [
        'malformed: a payload that is not JSON',
        () =>
          new CompactSign(new TextEncoder().encode(`not json ${claims().email}`))
            .setProtectedHeader({ alg: 'RS256', kid: issuer.currentKey.kid })
            .sign(issuer.currentKey.privateKey),
        'The token is malformed: it is not a signed JWT the gateway can read.',
      ],
    ];

    async function hmacWithPublicKey(form: 'jwk' | 'pem'): Promise<string> {
      const jwk = issuer.currentKey.publicJwk;
      const secret =
        form === 'jwk'
          ? Buffer.from(JSON.stringify(jwk))
          : Buffer.from(
              createPublicKey({ key: jwk as never, format: 'jwk' }).export({ type: 'spki', format: 'pem' }),
            );
      return new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS256', kid: jwk.kid })
        .setIssuer(issuer.url)
        .setAudience(issuer.audience)
        .setExpirationTime('10m')
        .sign(new Uint8Array(secret));
    }

    it.each(CASES)('%s', async (_name, make, reason) => {
      const bad = await make();
      const response = await gateway.http.get('/v1/credentials').set(bearer(bad)).expect(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.body.type).toMatch(/unauthenticated$/);
      expect(response.body.detail).toBe(reason.replace('ISSUER', issuer.url));
      const logs = gateway.logs.text();
      for (const part of bad.split('.').filter((segment) => segment.length >= 8)) {
        expect(response.text).not.toContain(part);
        expect(logs).not.toContain(part);
      }
      expect(logs).not.toContain(`eve-${run}`);
      expect(response.text).not.toContain(`eve-${run}`);
    });
  });

  it('accepts ES256 and PS256 keys the issuer publishes, and follows a key rotation at the issuer', async () => {
    const user = { email: `rotor-${run}@example.com`, groups: [groups.aOperators] };
    const before = issuer.jwksRequests;
    await gateway.http
      .get('/v1/credentials')
      .set(bearer(await token(user)))
      .expect(200);

    for (const algorithm of ['ES256', 'PS256', 'RS256'] as const) {
      // The issuer signs with a new key and publishes only that one; the gateway has not seen it.
      await issuer.rotateKey({ algorithm });
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // OIDC_JWKS_COOLDOWN_MS in this test
      await gateway.http
        .get('/v1/credentials')
        .set(bearer(await token(user)))
        .expect(200);
    }
    // One fetch per rotation: known keys are served from the cache.
    for (let i = 0; i < 3; i++)
      await gateway.http
        .get('/v1/credentials')
        .set(bearer(await token(user)))
        .expect(200);
    expect(issuer.jwksRequests - before).toBeLessThanOrEqual(3);

    // A token signed with the retired key fails once the gateway has the new set.
    const old = issuer.currentKey;
    await issuer.rotateKey();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await gateway.http
      .get('/v1/credentials')
      .set(bearer(await token(user)))
      .expect(200);
    await gateway.http
      .get('/v1/credentials')
      .set(bearer(await token(user, { key: old })))
      .expect(401);
  });

  it('fetches the key set at most once per cooldown however many unknown keys arrive', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const before = issuer.jwksRequests;
    const unknown = await Promise.all(
      Array.from({ length: 10 }, async () =>
        token(
          { email: `x-${run}@example.com`, groups: [groups.aOperators] },
          { key: await unpublishedKey() },
        ),
      ),
    );
    for (const bad of unknown) await gateway.http.get('/v1/credentials').set(bearer(bad)).expect(401);
    expect(issuer.jwksRequests - before).toBe(1);
  });

  describe('keys issued with delegate: false', () => {
    it('may not send X-On-Behalf-Of (403); keys issued without it still may', async () => {
      const admin = bearer(tenantA.keys.admin);
      const service = await gateway.http
        .post('/v1/keys')
        .set(admin)
        .send({ name: 'nightly job', roles: ['viewer'], delegate: false })
        .expect(201);
      expect(service.body.delegate).toBe(false);
      await gateway.http.get('/v1/credentials').set(bearer(service.body.key)).expect(200);
      const refused = await gateway.http
        .get('/v1/credentials')
        .set(bearer(service.body.key))
        .set('X-On-Behalf-Of', 'alice@example.com')
        .expect(403);
      expect(refused.body.detail).toMatch(/delegate: false/);

      const frontend = await gateway.http
        .post(`/v1/admin/tenants/${tenantA.id}/keys`)
        .set(platformAuth)
        .send({ name: 'frontend', roles: ['viewer'] })
        .expect(201);
      expect(frontend.body.delegate).toBe(true);
      await gateway.http
        .get('/v1/credentials')
        .set(bearer(frontend.body.key))
        .set('X-On-Behalf-Of', 'alice@example.com')
        .expect(200);
      const listed = await gateway.http.get('/v1/keys?limit=200').set(admin).expect(200);
      expect(listed.body.items.find((key: { id: string }) => key.id === service.body.id).delegate).toBe(
        false,
      );
      await gateway.http
        .post('/v1/keys')
        .set(admin)
        .send({ name: 'x', roles: ['viewer'], delegate: 'no' })
        .expect(400);
    });

    it('a key naming another tenant in X-Tenant-Id is refused (403)', async () => {
      await gateway.http
        .get('/v1/credentials')
        .set(bearer(tenantA.keys.viewer))
        .set('X-Tenant-Id', tenantB.id)
        .expect(403);
      await gateway.http
        .get('/v1/credentials')
        .set(bearer(tenantA.keys.viewer))
        .set('X-Tenant-Id', tenantA.id)
        .expect(200);
    });
  });

  it('documents the OIDC scheme beside the gateway key, and the platform token apart', async () => {
    const document = (await gateway.http.get('/docs-json').expect(200)).body;
    expect(document.components.securitySchemes).toEqual({
      'platform-token': expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      'gateway-key': expect.objectContaining({
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'pgw_<prefix>_<secret>',
      }),
      oidc: expect.objectContaining({
        type: 'openIdConnect',
        openIdConnectUrl: `${issuer.url}/.well-known/openid-configuration`,
      }),
    });
    expect(document.components.securitySchemes['platform-token'].bearerFormat).toBeUndefined();
    for (const route of ROUTES) {
      const operation = document.paths[route.template][route.method.toLowerCase()];
      const expected =
        route.access === 'public'
          ? undefined
          : route.access === 'platform'
            ? [{ 'platform-token': [] }]
            : route.access === 'caller'
              ? [{ 'gateway-key': [] }, { 'platform-token': [] }, { oidc: [] }]
              : [{ 'gateway-key': [] }, { oidc: [] }];
      expect([routeName(route), operation.security]).toEqual([routeName(route), expected]);
    }
  });
});

describe('sign-in when the issuer cannot be reached (e2e)', () => {
  it('answers user tokens with 503 and keeps serving gateway keys', async () => {
    const issuer = await startOidcIssuer();
    const url = issuer.url;
    const signed = await issuer.mint({ email: 'x@example.com', groups: ['g'] });
    await issuer.close();
    const gateway = await startGateway({ OIDC_ISSUER: url, OIDC_AUDIENCE: issuer.audience });
    try {
      const tenant = await createTenant(gateway);
      const response = await gateway.http.get('/v1/credentials').set(bearer(signed)).expect(503);
      expect(response.body.type).toMatch(/sign-in-unavailable$/);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      await gateway.http.get('/v1/credentials').set(bearer(tenant.keys.viewer)).expect(200);
    } finally {
      await gateway.close();
    }
  });

  it('without OIDC_ISSUER takes every bearer credential for a gateway key', async () => {
    const gateway = await startGateway();
    try {
      const response = await gateway.http.get('/v1/credentials').set(bearer('abc.def.ghi')).expect(401);
      expect(response.body.detail).toBe('The gateway key is not valid or has been revoked.');
      const document = (await gateway.http.get('/docs-json').expect(200)).body;
      expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
        'gateway-key',
        'platform-token',
      ]);
    } finally {
      await gateway.close();
    }
  });
});
