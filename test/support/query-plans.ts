import { escapeLiteral } from 'pg';
import type { DatabaseConnection, SqlSession } from '../../src/database/database-connection';

/** A node of a plan as `EXPLAIN (FORMAT JSON)` gives it. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

export function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

/**
 * How Postgres plans the statement `statement` makes, on the session it is given: for its values
 * (the plan of a statement sent once), or `generic`, for any (the plan a prepared statement keeps).
 */
export function planOf(
  database: DatabaseConnection,
  statement: (session: SqlSession) => Promise<{ text: string; values: unknown[] }>,
  { generic = false } = {},
): Promise<PlanNode> {
  return database.withLock(0, async (session) => {
    const { text, values } = await statement(session);
    if (!generic) return explained(session, text, values);
    await session.exec(`PREPARE planned AS ${text}`);
    try {
      await session.exec('SET plan_cache_mode = force_generic_plan');
      // EXECUTE's arguments are not parameters of their own: they go as literals.
      return await explained(session, `EXECUTE planned(${values.map(literal).join(', ')})`, []);
    } finally {
      await session.exec('DEALLOCATE planned; RESET plan_cache_mode');
    }
  });
}

async function explained(session: SqlSession, text: string, values: unknown[]): Promise<PlanNode> {
  const [row] = await session.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (FORMAT JSON) ${text}`,
    values,
  );
  return row['QUERY PLAN'][0].Plan;
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  return escapeLiteral(typeof value === 'string' ? value : JSON.stringify(value));
}
