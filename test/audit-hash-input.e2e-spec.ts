import fc from 'fast-check';
import { AuditService } from '../src/audit/audit.service';
import { PrismaService } from '../src/database/prisma.service';
import { bearer, createTenant } from './support/fixtures';
import { startGateway, TestGateway } from './support/gateway';
import { plantedAction } from './support/planted-action';

/**
 * Verification renders each event's hash input in SQL, writing renders it in JavaScript
 * (audit-chain.ts): any content an event can hold must render the same both ways, or an
 * untouched chain would be reported as edited.
 */
describe('audit hash input rendered by Postgres and by the gateway (e2e)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => {
    await gateway.close();
  });

  // Postgres text holds no NUL; everything else, control characters and astral planes included.
  const text = fc
    .oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.string({ unit: fc.integer({ min: 1, max: 0x1f }).map((code) => String.fromCharCode(code)) }),
      fc.constantFrom('"', '\\', '\u2028\u2029', '\u007f', '</script>', '{"a":1}', 'é', '𝄞'),
    )
    .filter((value) => !value.includes('\u0000'));
  const details = fc
    .oneof(fc.constant(undefined), fc.dictionary(text, fc.jsonValue({ maxDepth: 3 })))
    .filter((value) => !JSON.stringify(value ?? null).includes('\\u0000'));

  it('verifies every event whatever its strings, numbers and details hold', async () => {
    const tenant = await createTenant(gateway);
    const audit = gateway.app.get(AuditService);
    const prisma = gateway.app.get(PrismaService);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          actor: text,
          onBehalfOf: fc.option(text, { nil: null }),
          requestId: text,
          action: text,
          target: fc.option(text, { nil: null }),
          httpStatus: fc.option(fc.integer({ min: -1, max: 2 ** 31 - 1 }), { nil: null }),
          details,
        }),
        async (event) => {
          await prisma.$transaction((tx) =>
            audit.append(
              tx,
              { actor: event.actor, onBehalfOf: event.onBehalfOf, keyId: null, requestId: event.requestId },
              {
                tenantId: tenant.id,
                action: plantedAction(event.action),
                target: event.target,
                outcome: 'succeeded',
                httpStatus: event.httpStatus,
                details: event.details,
              },
            ),
          );
          const verdict = await gateway.http
            .get('/v1/audit/verify')
            .set(bearer(tenant.keys.auditor))
            .expect(200);
          expect(verdict.body).toMatchObject({ ok: true });
        },
      ),
      { numRuns: 150 },
    );
  });
});
