/**
 * The writes that commit with an audit event name columns by the Prisma model's fields in
 * snake_case (src/audit/table-columns.ts): held here to prisma/schema.prisma, so a column mapped to
 * another name, or a table to another model, fails here as a renamed field fails the type check.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');
const schema = readFileSync(join(root, 'prisma', 'schema.prisma'), 'utf8');
const tableColumns = readFileSync(join(root, 'src', 'audit', 'table-columns.ts'), 'utf8');

/** The tables of AuditedTables with their models, as the interface lists them. */
function auditedTables(): [table: string, model: string][] {
  const body = /export interface AuditedTables \{([^}]*)\}/.exec(tableColumns)![1];
  return [...body.matchAll(/^\s*(\w+): (\w+);/gm)].map((match) => [match[1], match[2]]);
}

/** The model's table and its scalar fields with their columns, from the schema. */
function modelOf(name: string): { table: string; columns: [field: string, column: string][] } {
  const body = new RegExp(`^model ${name} \\{\\n([\\s\\S]*?)^\\}`, 'm').exec(schema)![1];
  const lines = body.split('\n').map((line) => line.trim());
  const table = /^@@map\("(\w+)"\)/m.exec(lines.filter((line) => line.startsWith('@@map')).join('\n'))?.[1];
  const columns = lines
    .filter((line) => /^\w/.test(line) && !line.includes('@relation'))
    .map((line): [string, string] => {
      const field = line.split(/\s+/)[0];
      return [field, /@map\("(\w+)"\)/.exec(line)?.[1] ?? field];
    });
  return { table: table ?? name, columns };
}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

describe('the tables written with audit events', () => {
  const tables = auditedTables();

  it('are found', () => {
    expect(tables.map(([table]) => table)).toContain('idempotent_requests');
    expect(tables.length).toBeGreaterThanOrEqual(5);
  });

  it.each(tables)('%s is the table of model %s, each column its field in snake_case', (table, model) => {
    const found = modelOf(model);
    expect(found.table).toBe(table);
    expect(found.columns.length).toBeGreaterThan(2);
    expect(found.columns.filter(([field, column]) => column !== snakeCase(field))).toEqual([]);
  });
});
