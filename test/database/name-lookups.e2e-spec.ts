/**
 * The names shown beside ids (audit events, vault usage, the console) are looked up per id in
 * tables that grow without bound: each lookup must find its rows through an index on the id it
 * looks up, never by reading a tenant's whole history. Planned by Postgres, as in production.
 */
import type { PrismaService } from '../../src/database/prisma.service';
import { DisplayNamesRepository } from '../../src/display-names/display-names.repository';
import { Prisma } from '../../src/generated/prisma/client';
import { busyTenantHistory, nodesOf, planOf, seededDatabase } from '../support/query-plans';
import { describeWithPostgres } from '../support/skip';

const TENANT = '6f2b7c1e-0000-4000-8000-000000000001';
const ID = '6f2b7c1e-0000-4000-8000-0000000000aa';

// Enough rows, each of its own pipe, that reading them all costs the planner more than an index.
const ROWS = 5_000;

/** The column each growing table is looked up by. */
const LOOKED_UP_BY: Record<string, string> = {
  pipe_spec_records: 'pipe_id',
  audit_events: 'target',
};

// A tenant's history and audit log, a pipe each, as a busy tenant's would be; then their statistics.
const SEED = `${busyTenantHistory(TENANT, ROWS)}
  INSERT INTO audit_events (tenant_id, seq, at, actor, action, target, request_id, outcome, details,
      prev_hash, hash)
    SELECT '${TENANT}', i, now() - i * interval '1 second', 'key:test',
      (ARRAY['pipe.create', 'pipe.update', 'dashboard.replace', 'credential.create'])[1 + i % 4],
      (ARRAY['pipe:pipe-', 'pipe:pipe-', 'dashboard:d-', 'credential:'])[1 + i % 4] || i, md5(i::text),
      'succeeded', jsonb_build_object('name', 'n-' || i), md5(i::text), md5(i::text)
    FROM generate_series(1, ${ROWS}) AS i;
  ANALYZE pipe_spec_records;
  ANALYZE audit_events;`;

type Lookup = 'pipes' | 'dashboards' | 'credentials';

/** The statement the repository sends for `lookup`, taken instead of run. */
async function statementOf(lookup: Lookup): Promise<Prisma.Sql> {
  let taken: Prisma.Sql | undefined;
  const capturing = {
    $queryRaw: (strings: TemplateStringsArray, ...values: unknown[]) => {
      taken = Prisma.sql(strings, ...values);
      return Promise.resolve([]);
    },
  } as unknown as PrismaService;
  await new DisplayNamesRepository(capturing)[lookup](TENANT, [ID]);
  return taken!;
}

describeWithPostgres('display-name lookups', () => {
  const database = seededDatabase(SEED);

  it.each<Lookup>(['pipes', 'dashboards', 'credentials'])(
    '%s: the history and the audit log are read through an index on the id looked up',
    async (lookup) => {
      const sql = await statementOf(lookup);
      const plan = await planOf(database(), () => Promise.resolve(sql));
      const reads = [...nodesOf(plan)].filter(
        (node) => node['Relation Name'] !== undefined && node['Relation Name'] in LOOKED_UP_BY,
      );
      expect(reads.length).toBeGreaterThan(0);
      for (const node of reads) {
        const condition = node['Index Cond'] ?? node['Recheck Cond'] ?? '';
        expect({ table: node['Relation Name'], condition }).toEqual({
          table: node['Relation Name'],
          condition: expect.stringContaining(LOOKED_UP_BY[node['Relation Name']!]),
        });
      }
    },
  );
});
