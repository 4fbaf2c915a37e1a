import type { SqlSession } from '../../src/database/database-connection';

/**
 * A comparable description of a database schema: tables, columns, constraints, indexes and
 * enums, as Postgres itself reports them (Prisma's bookkeeping table left out).
 */
export async function describeSchema(session: SqlSession): Promise<Record<string, unknown[]>> {
  const columns = await session.query(`
    SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, character_maximum_length
    FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
    ORDER BY table_name, column_name`);
  const constraints = await session.query(`
    SELECT c.conrelid::regclass::text AS table_name, c.conname, c.contype, pg_get_constraintdef(c.oid) AS definition
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE n.nspname = 'public' AND c.conrelid::regclass::text <> '"_prisma_migrations"' AND c.conrelid::regclass::text <> '_prisma_migrations'
    ORDER BY 1, 2`);
  const indexes = await session.query(`
    SELECT tablename, indexname, indexdef FROM pg_indexes
    WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
    ORDER BY tablename, indexname`);
  const enums = await session.query(`
    SELECT t.typname, e.enumlabel, e.enumsortorder
    FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
    ORDER BY t.typname, e.enumsortorder`);
  return { columns, constraints, indexes, enums };
}
