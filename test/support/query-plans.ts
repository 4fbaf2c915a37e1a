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

/** How Postgres plans the statement `statement` makes, on the session it is given. */
export function planOf(
  database: DatabaseConnection,
  statement: (session: SqlSession) => Promise<{ text: string; values: unknown[] }>,
): Promise<PlanNode> {
  return database.withLock(0, async (session) => {
    const { text, values } = await statement(session);
    const [row] = await session.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${text}`,
      values,
    );
    return row['QUERY PLAN'][0].Plan;
  });
}
