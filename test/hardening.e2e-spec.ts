import { randomBytes, randomUUID } from 'node:crypto';
import { validCreateBody } from './fixtures/pipe-bodies';
import { bearer, createTenant, platformAuth } from './support/fixtures';
import { startGateway } from './support/gateway';
import { itWithRedis, itWithRedisAndPostgres, TEST_REDIS_URL as REDIS_URL } from './support/redis';
import { postgresConfigured } from './support/skip';
import { canaryOf, startUpstreamWorld } from './support/upstreams';

describe('limits and protective headers (e2e)', () => {
  it('rate-limits each gateway key with 429 and Retry-After', async () => {
    const gateway = await startGateway({ RATE_LIMIT_PER_KEY: '3/60s' });
    try {
      const tenant = await createTenant(gateway);
      for (let i = 0; i < 3; i++)
        await gateway.http.get('/v1/credentials').set(bearer(tenant.keys.viewer)).expect(200);
      const limited = await gateway.http.get('/v1/credentials').set(bearer(tenant.keys.viewer)).expect(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.body.type).toMatch(/rate-limited$/);
      // Another key of the same tenant has its own budget.
      await gateway.http.get('/v1/credentials').set(bearer(tenant.keys.admin)).expect(200);
    } finally {
      await gateway.close();
    }
  });

  it("rate-limits a tenant's keys together, and no other tenant's", async () => {
    const gateway = await startGateway({ RATE_LIMIT_PER_TENANT: '3/60s' });
    try {
      const tenant = await createTenant(gateway);
      const other = await createTenant(gateway);
      for (const role of ['viewer', 'operator', 'admin'] as const)
        await gateway.http.get('/v1/credentials').set(bearer(tenant.keys[role])).expect(200);
      const limited = await gateway.http.get('/v1/audit').set(bearer(tenant.keys.auditor)).expect(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.body.detail).toMatch(/tenant/);
      await gateway.http.get('/v1/credentials').set(bearer(other.keys.viewer)).expect(200);
    } finally {
      await gateway.close();
    }
  });

  describe('failed authentications', () => {
    const wrongKey = (prefix = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')) =>
      bearer(`pgw_${prefix.slice(0, 12)}_${randomBytes(32).toString('base64url')}`);

    it('refuses wrong credentials from an address that keeps failing, and never one that verifies', async () => {
      const gateway = await startGateway({ RATE_LIMIT_FAILED_AUTH: '5/60s' });
      try {
        const tenant = await createTenant(gateway);
        for (let i = 0; i < 5; i++) await gateway.http.get('/v1/keys').set(wrongKey()).expect(401);
        const limited = await gateway.http.get('/v1/keys').set(wrongKey()).expect(429);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect(limited.body.detail).toMatch(/^Too many failed authentications from this address/);
        await gateway.http
          .post('/v1/admin/tenants')
          .set({ Authorization: `Bearer ${'x'.repeat(40)}` })
          .send({ name: 'nope' })
          .expect(429);
        // The same address with a key that verifies, or the platform token, is not held back.
        for (let i = 0; i < 3; i++)
          await gateway.http.get('/v1/keys').set(bearer(tenant.keys.admin)).expect(200);
        await gateway.http
          .post('/v1/admin/tenants')
          .set(platformAuth)
          .send({ name: `t-${randomUUID()}` })
          .expect(201);
        // Calls that send no credential are told so, and not counted.
        await gateway.http.get('/v1/keys').expect(401);
      } finally {
        await gateway.close();
      }
    });

    it("stops guesses at one key's secret from many addresses, and the key itself still works", async () => {
      const gateway = await startGateway({ RATE_LIMIT_FAILED_AUTH: '3/60s', TRUST_PROXY: '1' });
      try {
        const tenant = await createTenant(gateway);
        const prefix = tenant.keys.viewer.slice(4, 16);
        for (let i = 1; i <= 3; i++) {
          await gateway.http
            .get('/v1/credentials')
            .set(wrongKey(prefix))
            .set('X-Forwarded-For', `203.0.113.${i}`)
            .expect(401);
        }
        const limited = await gateway.http
          .get('/v1/credentials')
          .set(wrongKey(prefix))
          .set('X-Forwarded-For', '203.0.113.99')
          .expect(429);
        expect(limited.body.detail).toMatch(/^Too many failed authentications with this credential/);
        await gateway.http
          .get('/v1/credentials')
          .set(bearer(tenant.keys.viewer))
          .set('X-Forwarded-For', '203.0.113.99')
          .expect(200);
        // Another key's guesses from a fresh address are counted apart.
        await gateway.http
          .get('/v1/credentials')
          .set(wrongKey())
          .set('X-Forwarded-For', '203.0.113.100')
          .expect(401);
      } finally {
        await gateway.close();
      }
    });

    it.each([
      ['unset: the socket peer', {}, (n: number) => `198.51.100.${n}, 10.0.0.${n}`, null],
      [
        'true: one proxy hop',
        { TRUST_PROXY: 'true' },
        (n: number) => `198.51.100.${n}, 10.0.0.1`,
        '10.0.0.2',
      ],
      ['1', { TRUST_PROXY: '1' }, (n: number) => `198.51.100.${n}, 10.0.0.1`, '10.0.0.2'],
      [
        '2',
        { TRUST_PROXY: '2' },
        (n: number) => `198.51.100.${n}, 10.0.0.1, 192.0.2.1`,
        '10.0.0.2, 192.0.2.1',
      ],
      [
        'a proxy list',
        { TRUST_PROXY: '127.0.0.0/8, ::1' },
        (n: number) => `198.51.100.${n}, 10.0.0.1`,
        '10.0.0.2',
      ],
    ] as const)(
      'with TRUST_PROXY %s, a caller-written X-Forwarded-For does not dodge the limit',
      async (_name, env, forwardedFor, otherClient) => {
        const gateway = await startGateway({ RATE_LIMIT_FAILED_AUTH: '3/60s', ...env });
        try {
          // Each guess claims another left-most address; the client address the gateway counts stays one.
          for (let i = 1; i <= 3; i++) {
            await gateway.http
              .get('/v1/keys')
              .set(wrongKey())
              .set('X-Forwarded-For', forwardedFor(i))
              .expect(401);
          }
          await gateway.http
            .get('/v1/keys')
            .set(wrongKey())
            .set('X-Forwarded-For', forwardedFor(4))
            .expect(429);
          // Another client behind the same trusted proxies is counted on its own.
          if (otherClient !== null) {
            await gateway.http
              .get('/v1/keys')
              .set(wrongKey())
              .set('X-Forwarded-For', otherClient)
              .expect(401);
          }
        } finally {
          await gateway.close();
        }
      },
    );
  });

  it('keeps each pipes credential under the upstream limit: a short burst waits, a long one is shed', async () => {
    // The whole budget open to one reader: the split has tests of its own (upstream-budget.e2e-spec.ts).
    const world = await startUpstreamWorld({
      PIPES_API_RATE_LIMIT: '2/500ms',
      UPSTREAM_WRITE_RESERVE: '0',
      UPSTREAM_CALLER_READ_SHARE: '1',
    });
    try {
      // Three different reads: identical ones in flight would share one upstream call.
      const settings = () =>
        `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes/${randomUUID()}/settings`;
      const started = Date.now();
      const burst = await Promise.all(
        [1, 2, 3].map(() => world.gateway.http.get(settings()).set(bearer(world.tenant.keys.viewer))),
      );
      // The third waited for the next window instead of failing; the upstream saw no 429.
      expect(burst.map((r) => r.status)).toEqual([404, 404, 404]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    } finally {
      await world.close();
    }
    const strict = await startUpstreamWorld({ PIPES_API_RATE_LIMIT: '1/30s' });
    try {
      const settings = `/v1/organizations/${strict.organizationId}/services/${strict.serviceId}/pipes/${randomUUID()}/settings`;
      await strict.gateway.http.get(settings).set(bearer(strict.tenant.keys.viewer)).expect(404);
      const shed = await strict.gateway.http.get(settings).set(bearer(strict.tenant.keys.viewer)).expect(429);
      expect(Number(shed.headers['retry-after'])).toBeGreaterThan(1);
      expect(strict.pipes.requests()).toHaveLength(1);
    } finally {
      await strict.close();
    }
  });

  it('refuses writes past MAX_WRITES_IN_FLIGHT at once with 503, and nothing of them is kept', async () => {
    const world = await startUpstreamWorld({ MAX_WRITES_IN_FLIGHT: '2', TENANT_WRITE_SHARE: '2' });
    try {
      const pipes = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`;
      const create = () =>
        world.gateway.http
          .post(pipes)
          .set(bearer(world.tenant.keys.operator))
          .send(validCreateBody('kafka', { secret: `${canaryOf(world)}-shed` }));
      // Two creates held at the upstream take both slots.
      world.pipes.faults.add({ kind: 'latency', ms: 1_000, times: 2 });
      const held = [create().then((r) => r), create().then((r) => r)];
      for (let i = 0; i < 100 && world.pipes.requests().length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const started = Date.now();
      const refused = await create().expect(503);
      expect(Date.now() - started).toBeLessThan(500);
      expect(refused.body.type).toMatch(/overloaded$/);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      // A replace waits on the same slots; a read does not.
      const dashboard = `/v1/dashboards/${randomUUID().replace(/-/g, '').slice(0, 24)}`;
      await world.gateway.http
        .put(dashboard)
        .set(bearer(world.tenant.keys.operator))
        .send({ name: 'x', tiles: [], tags: [] })
        .expect(503);
      // Its body is checked before it would take a slot: a malformed one is told so even now.
      const malformed = await world.gateway.http
        .put(dashboard)
        .set(bearer(world.tenant.keys.operator))
        .send({ name: 'x', tiles: 'none', tags: [] })
        .expect(400);
      expect(malformed.body.errors).toEqual([expect.objectContaining({ path: 'tiles' })]);
      await world.gateway.http.get(dashboard).set(bearer(world.tenant.keys.viewer)).expect(404);
      // A caller without a key is still told so first.
      await world.gateway.http.post(pipes).send(validCreateBody('kafka')).expect(401);

      expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
      expect(world.pipes.requests().filter((r) => r.method === 'POST')).toHaveLength(2);
      const auditor = bearer(world.tenant.keys.auditor);
      const history = await world.gateway.http.get('/v1/history/pipe-specs').set(auditor).expect(200);
      expect(history.body.items).toHaveLength(2);
      const audit = await world.gateway.http.get('/v1/audit?action=pipe.create').set(auditor).expect(200);
      expect(audit.body.items.map((e: { outcome: string }) => e.outcome).sort()).toEqual([
        'pending',
        'pending',
        'succeeded',
        'succeeded',
      ]);
      // Slots come back when writes end, failed ones included: with a leak the last create gets 503.
      for (let i = 0; i < 2; i++) {
        await world.gateway.http
          .post(pipes)
          .set(bearer(world.tenant.keys.operator))
          .send({ ...validCreateBody('kafka'), surprise: 1 })
          .expect(400);
      }
      await create().expect(200);

      const { paths } = (await world.gateway.http.get('/docs-json').expect(200)).body;
      for (const [path, method] of [
        ['/v1/organizations/{organizationId}/services/{serviceId}/pipes', 'post'],
        ['/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}', 'patch'],
        ['/v1/dashboards/{id}', 'put'],
        ['/v1/dashboards/{id}/versions/{n}/restore', 'post'],
      ]) {
        expect(paths[path][method].responses['503'].description).toMatch(/overloaded/);
      }
    } finally {
      await world.close();
    }
  });

  it('opens a circuit after repeated upstream failures and fails fast without calling upstream', async () => {
    const world = await startUpstreamWorld({ UPSTREAM_TIMEOUT_MS: '1000' });
    try {
      const settings = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes/${randomUUID()}/settings`;
      world.pipes.faults.add({ kind: 'status', status: 500 });
      for (let i = 0; i < 5; i++)
        await world.gateway.http.get(settings).set(bearer(world.tenant.keys.viewer)).expect(502);
      const calls = world.pipes.requests().length;
      const open = await world.gateway.http.get(settings).set(bearer(world.tenant.keys.viewer)).expect(503);
      expect(open.body.type).toMatch(/upstream-circuit-open$/);
      expect(Number(open.headers['retry-after'])).toBeGreaterThan(0);
      // The person reading the message learns the wait too, not only a client reading the header.
      expect(open.body.detail).toMatch(
        new RegExp(`calls are paused for ${open.headers['retry-after']} s \\(Retry-After\\)\\.$`),
      );
      expect(world.pipes.requests()).toHaveLength(calls);
      const metrics = await world.gateway.http.get('/metrics').expect(200);
      expect(metrics.text).toMatch(/gateway_upstream_open_circuits\{upstream="pipes"\} 1/);
    } finally {
      await world.close();
    }
  });

  it('serves Prometheus metrics by route and status, with no secret or tenant in any label', async () => {
    const world = await startUpstreamWorld();
    try {
      await world.gateway.http
        .post(`/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes`)
        .set(bearer(world.tenant.keys.operator))
        .send(validCreateBody('kafka', { secret: `${canaryOf(world)}-m` }))
        .expect(200);
      await world.gateway.http
        .get('/v1/credentials')
        .set(bearer(`pgw_${canaryOf(world).slice(0, 12)}_${'z'.repeat(43)}`))
        .expect(401);
      const metrics = await world.gateway.http.get('/metrics').expect(200);
      expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
      expect(metrics.text).toMatch(
        /gateway_http_requests_total\{method="POST",route="\/v1\/organizations\/:organizationId\/services\/:serviceId\/pipes",status="200"\} 1/,
      );
      expect(metrics.text).toMatch(/gateway_upstream_requests_total\{upstream="pipes",outcome="200"\} \d+/);
      expect(metrics.text).toMatch(/process_resident_memory_bytes/);
      expect(metrics.text).not.toContain(canaryOf(world));
      expect(metrics.text).not.toContain(world.tenant.id);
      expect(metrics.text).not.toContain(world.organizationId);
    } finally {
      await world.close();
    }
  });

  describe('request shape', () => {
    let gateway: Awaited<ReturnType<typeof startGateway>>;
    beforeAll(async () => {
      gateway = await startGateway({ CORS_ORIGINS: 'https://app.example.com', BODY_LIMIT_BYTES: '2048' });
    });
    afterAll(() => gateway.close());

    it('refuses bodies over the configured limit with 413 and non-JSON with 415', async () => {
      await gateway.http
        .post('/v1/admin/tenants')
        .set(platformAuth)
        .send({ name: 'x'.repeat(3000) })
        .expect(413)
        .expect((response) =>
          expect(response.body.detail).toBe(
            'The request body is larger than the limit of 2048 bytes (BODY_LIMIT_BYTES).',
          ),
        );
      await gateway.http
        .post('/v1/admin/tenants')
        .set(platformAuth)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('name=x')
        .expect(415);
      await gateway.http
        .post('/v1/admin/tenants')
        .set(platformAuth)
        .set('Content-Type', 'text/plain')
        .send('name')
        .expect(415);
    });

    it('refuses deeply nested JSON and prototype poisoning with 400', async () => {
      let nested: unknown = 1;
      for (let i = 0; i < 40; i++) nested = [nested];
      const deep = await gateway.http
        .post('/v1/admin/tenants')
        .set(platformAuth)
        .send({ name: 'x', nested })
        .expect(400);
      expect(deep.body.detail).toMatch(/deeper than 32 levels/);
      const poisoned = await gateway.http
        .post('/v1/admin/tenants')
        .set(platformAuth)
        .set('Content-Type', 'application/json')
        .send('{"name":"x","__proto__":{"admin":true}}')
        .expect(400);
      expect(poisoned.body.detail).toBe('The request body must not use "__proto__" as a key.');
    });

    it('sets protective headers and answers CORS only for allowed origins', async () => {
      const response = await gateway.http
        .get('/health/live')
        .set('Origin', 'https://app.example.com')
        .expect(200);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['strict-transport-security']).toBeDefined();
      expect(response.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(response.headers['access-control-expose-headers']).toMatch(/X-Request-Id/i);
      const foreign = await gateway.http
        .get('/health/live')
        .set('Origin', 'https://evil.example.com')
        .expect(200);
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await gateway.http
        .options('/v1/credentials')
        .set('Origin', 'https://app.example.com')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type,x-tenant-id');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.com');
      // A browser frontend sends a signed-in user's token in Authorization; no cookies are involved.
      const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'x-tenant-id', 'x-on-behalf-of']),
      );
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      expect(response.headers['access-control-expose-headers']).toMatch(/WWW-Authenticate/i);
    });
  });

  it('answers no CORS at all when no origin is allowed', async () => {
    const gateway = await startGateway();
    try {
      const response = await gateway.http
        .get('/health/live')
        .set('Origin', 'https://app.example.com')
        .expect(200);
      expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      const preflight = await gateway.http
        .options('/v1/credentials')
        .set('Origin', 'https://app.example.com')
        .set('Access-Control-Request-Method', 'POST')
        // No route answers OPTIONS then: the path's own methods are listed, and nothing of CORS.
        .expect(405);
      expect(preflight.headers.allow).toBe('GET, HEAD, POST');
      expect(preflight.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await gateway.close();
    }
  });

  itWithRedis('shares rate-limit counters between replicas through Redis', async () => {
    const env = { REDIS_URL, RATE_LIMIT_PER_KEY: '4/60s' };
    const first = await startGateway(env);
    const tenant = await createTenant(first);
    const second = await startGateway(env);
    try {
      if (!postgresConfigured()) {
        // Without a shared database the second replica cannot know the key: the shared counter is
        // still checked through the first replica twice over.
        for (let i = 0; i < 4; i++)
          await first.http.get('/v1/credentials').set(bearer(tenant.keys.viewer)).expect(200);
        await first.http.get('/v1/credentials').set(bearer(tenant.keys.viewer)).expect(429);
        return;
      }
      for (let i = 0; i < 2; i++) {
        await first.http.get('/v1/credentials').set(bearer(tenant.keys.viewer)).expect(200);
        await second.http.get('/v1/credentials').set(bearer(tenant.keys.viewer)).expect(200);
      }
      await second.http.get('/v1/credentials').set(bearer(tenant.keys.viewer)).expect(429);
      await first.http.get('/v1/credentials').set(bearer(tenant.keys.viewer)).expect(429);
    } finally {
      await first.close();
      await second.close();
    }
  });

  itWithRedisAndPostgres("holds a credential's upstream budget across replicas through Redis", async () => {
    // Both replicas have the suite's master key, so that each can open the credential the other stored.
    const env = {
      REDIS_URL,
      PIPES_API_RATE_LIMIT: '3/60s',
      UPSTREAM_WRITE_RESERVE: '0',
      UPSTREAM_CALLER_READ_SHARE: '1',
    };
    const world = await startUpstreamWorld(env);
    const second = await startGateway({
      ...env,
      PIPES_API_URL: world.pipes.url,
      DASHBOARDS_API_URL: world.dashboards.url,
    });
    try {
      const settings = `/v1/organizations/${world.organizationId}/services/${world.serviceId}/pipes/${randomUUID()}/settings`;
      const viewer = bearer(world.tenant.keys.viewer);
      // Unknown pipe: the upstream answers 404, and each call still spends the budget.
      await world.gateway.http.get(settings).set(viewer).expect(404);
      await second.http.get(settings).set(viewer).expect(404);
      await world.gateway.http.get(settings).set(viewer).expect(404);
      const shed = await second.http.get(settings).set(viewer).expect(429);
      expect(Number(shed.headers['retry-after'])).toBeGreaterThan(1);
      expect(shed.body.detail).toMatch(/pipes API's rate limit/);
      expect(world.pipes.requests().filter((call) => call.method === 'GET')).toHaveLength(3);
    } finally {
      await second.close();
      await world.close();
    }
  });
});
