/**
 * An audit append carries the writes of its batch's few events: a history record's outcome, an
 * idempotency key's answer. Each update must find its rows through the table's index, never by
 * reading the whole table, which grows with every create. Planned by Postgres, as in production: for
 * the values of a statement sent once, and for any (the plan a prepared statement keeps).
 */
import { appendStatement, describedText, groupWrites } from '../../src/audit/append-statement';
import type { ChainedEvent, TableWrite } from '../../src/audit/audit-events.repository';
import type { SqlSession } from '../../src/database/database-connection';
import type { PrismaService } from '../../src/database/prisma.service';
import { IdempotentRequestsRepository } from '../../src/idempotency/idempotent-requests.repository';
import { PipeSpecRecordsRepository } from '../../src/pipes/history/pipe-spec-records.repository';
import { busyTenantHistory, nodesOf, planOf, seededDatabase } from '../support/query-plans';
import { chainedEvent } from '../support/chained-events';
import { describeWithPostgres } from '../support/skip';

const TENANT = '6f2b7c1e-0000-4000-8000-000000000001';
// Enough rows that reading them all costs the planner more than a few index lookups.
const ROWS = 5_000;

// A busy tenant's history and idempotency keys, then their statistics.
const SEED = `${busyTenantHistory(TENANT, ROWS)}
  INSERT INTO idempotent_requests (tenant_id, operation, key, fingerprint, outcome, created_at)
    SELECT '${TENANT}', 'pipe.create', 'key-' || i, md5(i::text), 'succeeded', now() - i * interval '1 second'
    FROM generate_series(1, ${ROWS}) AS i;
  ANALYZE pipe_spec_records;
  ANALYZE idempotent_requests;`;

const unused = null as unknown as PrismaService;
const history = new PipeSpecRecordsRepository(unused);
const idempotency = new IdempotentRequestsRepository(unused);

/** The table each write changes, by what its update looks rows up. */
const WRITES: [name: string, table: string, lookedUpBy: string, write: (n: number) => TableWrite][] = [
  [
    "a create's outcome in its history record",
    'pipe_spec_records',
    'id',
    (n) =>
      history.succeeded(`6f2b7c1e-0000-4000-8000-${String(n).padStart(12, '0')}`, {
        pipeId: `pipe-${n}`,
        upstreamRequestId: `upstream-${n}`,
        upstreamStatus: 200,
      }),
  ],
  [
    'a deleted pipe in its history records',
    'pipe_spec_records',
    'pipe_id',
    (n) => history.pipeDeleted(TENANT, `pipe-${n}`),
  ],
  [
    "a create's answer under its idempotency key",
    'idempotent_requests',
    'key',
    (n) =>
      idempotency.completed(
        { tenantId: TENANT, operation: 'pipe.create', key: `key-${n}` },
        true,
        '{"status":200}',
      ),
  ],
];

/** The append of `events` as the gateway sends it, its writes' parameter types asked of Postgres. */
async function statementOf(
  session: SqlSession,
  events: ChainedEvent[],
): Promise<{ text: string; values: unknown[] }> {
  const groups = groupWrites(events);
  const types: string[][] = [];
  for (const group of groups) {
    await session.exec(`PREPARE described AS ${describedText(group)}`);
    const [{ parameter_types }] = await session.query<{ parameter_types: string[] }>(
      "SELECT parameter_types::text[] FROM pg_prepared_statements WHERE name = 'described'",
    );
    await session.exec('DEALLOCATE described');
    types.push(parameter_types);
  }
  const sql = appendStatement(TENANT, { seq: 0, hash: 'genesis', digest: 'genesis' }, events, groups, types);
  return { text: sql.text, values: sql.values };
}

describeWithPostgres('the writes an audit append carries', () => {
  const database = seededDatabase(SEED);

  const cases = WRITES.flatMap(([name, ...rest]) =>
    (['sent once', 'prepared'] as const).map((sent) => [name, sent, ...rest] as const),
  );

  it.each(cases)(
    '%s, %s: its rows are found through an index, never by reading the table',
    async (_name, sent, table, lookedUpBy, write) => {
      const plan = await planOf(
        database(),
        (session) =>
          statementOf(
            session,
            [1, 2, 3].map((n) => chainedEvent(n, write(n), { tenantId: TENANT })),
          ),
        { generic: sent === 'prepared' },
      );
      const reads = [...nodesOf(plan)].filter(
        (node) => node['Relation Name'] === table && node['Node Type'] !== 'ModifyTable',
      );
      expect(reads.length).toBeGreaterThan(0);
      for (const node of reads) {
        expect({ node: node['Node Type'], condition: node['Index Cond'] ?? '' }).toEqual({
          node: expect.stringMatching(/Index/),
          condition: expect.stringContaining(lookedUpBy),
        });
      }
    },
  );
});
