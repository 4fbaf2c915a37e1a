import { Prisma } from '../generated/prisma/client';
import { appendStatement, describedText, groupWrites } from './append-statement';
import { chainedEvent } from '../../test/support/chained-events';
import type { ChainedEvent, TableWrite } from './audit-events.repository';

const TENANT = '00000000-0000-4000-8000-000000000001';
const AT = new Date('2026-11-30T03:00:00.000Z');

const versionGivenBack = (id: string): TableWrite => ({
  update: 'dashboard_versions',
  set: { etag: Prisma.sql`${`etag-${id}`}` },
  where: Prisma.sql`dashboard_versions.id = ${id}::uuid`,
});
const requestKept = (key: string, at: Date): TableWrite => ({
  insert: 'idempotent_requests',
  values: {
    tenant_id: Prisma.sql`${TENANT}::uuid`,
    key: Prisma.sql`${key}`,
    created_at: Prisma.sql`${at}`,
    response: Prisma.sql`${{ answered: key }}::jsonb`,
  },
  onConflict: Prisma.sql`ON CONFLICT DO NOTHING`,
});

function chained(seq: number, change?: ChainedEvent['change']): ChainedEvent {
  return chainedEvent(seq, change, {
    tenantId: TENANT,
    at: AT,
    actor: 'key:ops',
    action: 'dashboard.update',
    target: `dashboard:${seq}`,
    outcome: 'pending',
    httpStatus: seq % 2 === 0 ? 200 : null,
    details: { seq },
  });
}

function statementOf(events: ChainedEvent[]): Prisma.Sql {
  const groups = groupWrites(events);
  return appendStatement(
    TENANT,
    { seq: 0, hash: 'genesis', digest: 'genesis' },
    events,
    groups,
    groups.map((group) =>
      group.text.includes('idempotent_requests')
        ? ['uuid', 'text', 'timestamp with time zone', 'jsonb']
        : ['text', 'uuid'],
    ),
  );
}

describe('the audit append statement', () => {
  it('has one text for every batch carrying the same kinds of writes, whatever their number and order', () => {
    const one = statementOf([chained(1, [versionGivenBack('a'), requestKept('k1', AT)])]);
    const many = statementOf([
      chained(1, requestKept('k1', AT)),
      chained(2),
      chained(3, [versionGivenBack('b'), requestKept('k3', AT)]),
      chained(4, versionGivenBack('c')),
    ]);
    expect(many.text).toBe(one.text);
    expect(many.values.length).toBe(one.values.length);
    // Another kind of write is another text.
    expect(statementOf([chained(1, versionGivenBack('a'))]).text).not.toBe(one.text);
  });

  it("sends the events as one JSON array per column, and each kind of write's values as one JSON array per value", () => {
    const { values } = statementOf([
      chained(1, requestKept('k1', AT)),
      chained(2),
      chained(3, requestKept('k3', new Date('2026-11-30T04:00:00.000Z'))),
    ]);
    const arrays = values.filter(
      (value): value is string => typeof value === 'string' && value.startsWith('['),
    );
    const parsed = arrays.map((text) => JSON.parse(text) as unknown);
    expect(parsed).toContainEqual([1, 2, 3]);
    expect(parsed).toContainEqual([AT.toISOString(), AT.toISOString(), AT.toISOString()]);
    expect(parsed).toContainEqual([null, 200, null]);
    expect(parsed).toContainEqual(['{"seq":1}', '{"seq":2}', '{"seq":3}']);
    // The writes' rows: the seq of each one's event, then each value's array as Postgres reads it.
    expect(parsed).toContainEqual([1, 3]);
    expect(parsed).toContainEqual(['k1', 'k3']);
    expect(parsed).toContainEqual(['2026-11-30T03:00:00.000Z', '2026-11-30T04:00:00.000Z']);
    expect(parsed).toContainEqual(['{"answered":"k1"}', '{"answered":"k3"}']);
  });

  it('sends a lone surrogate as U+FFFD, which Postgres takes in text, as it would in UTF-8', () => {
    const lone = { ...chained(1), event: { ...chained(1).event, target: 'dashboard:\ud800' } };
    const { values } = statementOf([lone]);
    expect(values).toContainEqual(JSON.stringify(['dashboard:\ufffd']));
  });

  it('reads each value of a write from its row, cast to the type Postgres gives it where it stands', () => {
    const { text } = statementOf([chained(1, versionGivenBack('a'))]);
    expect(text).toContain('v.value_1::text AS value_1, v.value_2::uuid AS value_2');
    expect(text).toContain('SET etag = appended.value_1');
    expect(text).toContain('WHERE dashboard_versions.id = appended.value_2::uuid');
  });

  it('describes a kind of write as a statement of its own, reading a row that stands for its event', () => {
    const [group] = groupWrites([chained(1, versionGivenBack('a'))]);
    expect(describedText(group)).toMatch(
      /^WITH appended AS \(SELECT 0::int AS seq, ''::text AS hash\)\s+UPDATE dashboard_versions/,
    );
  });

  it('refuses an ON CONFLICT clause carrying values: with writes of a kind inserted together it can only read EXCLUDED', () => {
    const write: TableWrite = {
      ...requestKept('k', AT),
      onConflict: Prisma.sql`ON CONFLICT DO UPDATE SET key = ${'k'}`,
    };
    expect(() => groupWrites([chained(1, write)])).toThrow(
      'the ON CONFLICT clause of a write to idempotent_requests carries values: read them from EXCLUDED',
    );
  });

  it('refuses a value that is an array or bytes, which an array of values cannot carry', () => {
    const paths: TableWrite = {
      delete: 'secret_uses',
      where: Prisma.sql`secret_uses.path = ANY(${['a', 'b']}::text[])`,
    };
    expect(() => statementOf([chained(1, paths)])).toThrow(
      'a value of an audited write is an array or bytes: pass it as JSON text instead',
    );
  });

  it('refuses a parameter type that is not a type name', () => {
    const events = [chained(1, versionGivenBack('a'))];
    const groups = groupWrites(events);
    expect(() =>
      appendStatement(TENANT, { seq: 0, hash: 'genesis', digest: 'genesis' }, events, groups, [
        ['text); DROP', 'uuid'],
      ]),
    ).toThrow('unexpected parameter type "text); DROP"');
  });
});
