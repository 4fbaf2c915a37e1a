import { Prisma } from '../generated/prisma/client';
import { storableJson } from '../common/json-body';
import { GENESIS_HASH } from './audit-chain';
import type { AuditChange, ChainedEvent, ChainHead, TableWrite } from './audit-events.repository';

/**
 * The append's text depends only on which kinds of writes its batch carries, never on how many
 * events or writes it has: the events go in as one array per column, and the writes of each kind
 * (same text, different values) as one array per value. Postgres can then keep one plan per kind
 * of batch (prepared statements) instead of parsing and planning a text of its own for each batch.
 *
 * Each array is sent as JSON text and read back with `json_array_elements_text`, each element cast
 * to its column's type: JSON.stringify escapes a column's texts (specs and answers as JSON) in one
 * native pass, where a Postgres array literal would be escaped element by element in script. A lone
 * surrogate goes as U+FFFD, as it would in UTF-8.
 */

/** The writes of one kind in a batch: the text they share, each one's event and values. */
export interface WriteGroup {
  /** The write's statement, `$n` standing for its n-th value and `appended` for its event's row. */
  text: string;
  seqs: number[];
  /** Per write, its values in the order of the text's `$n`. */
  rows: unknown[][];
}

/** The writes of `events` grouped by text, in a fixed order (by text) whatever the batch's order. */
export function groupWrites(events: readonly ChainedEvent[]): WriteGroup[] {
  const groups = new Map<string, WriteGroup>();
  for (const { change, seq } of events) {
    const writes: readonly TableWrite[] = change === undefined ? [] : isWriteList(change) ? change : [change];
    for (const write of writes) {
      const { text, values } = renderWrite(write);
      const group = groups.get(text) ?? { text, seqs: [], rows: [] };
      groups.set(text, group);
      group.seqs.push(seq);
      group.rows.push(values);
    }
  }
  return [...groups.values()].sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}

/**
 * A statement whose parameters' types Postgres infers exactly as in the append: a write's values
 * are sent as arrays of the types Postgres would give each value where it stands.
 */
export function describedText(group: Pick<WriteGroup, 'text'>): string {
  return `WITH appended AS (SELECT 0::int AS seq, ''::text AS hash) ${group.text}`;
}

/**
 * The append, in one statement: it locks the chain row, compares the head with `expected`, inserts
 * the events and runs each group's writes (`types`: each group's parameter types, as Postgres names
 * them), and moves the head. Answers one row, `written`: 1 when the head was `expected`, else 0.
 */
export function appendStatement(
  tenantId: string,
  expected: ChainHead,
  events: readonly ChainedEvent[],
  groups: readonly WriteGroup[],
  types: readonly (readonly string[])[],
): Prisma.Sql {
  const writes = groups.map((group, index) => {
    const rows = jsonRows(
      'v',
      [
        { name: 'event_seq', type: 'int', values: group.seqs },
        ...types[index].map((type, at) => ({
          name: `value_${at + 1}`,
          type,
          values: group.rows.map((row) => arrayElement(row[at])),
        })),
      ],
      { few: true },
    );
    return Prisma.sql`, write_${Prisma.raw(String(index + 1))} AS (
        WITH appended AS (
          SELECT a.seq, a.hash, ${Prisma.raw(rows.select.join(', '))}
          FROM appended_events a JOIN ${rows.from} ON v.event_seq::int = a.seq
        ) ${Prisma.raw(group.text.replace(/\$(\d+)/g, 'appended.value_$1'))})`;
  });
  const eventRows = jsonRows('e', [
    { name: 'seq', type: 'int', values: events.map((e) => e.seq) },
    { name: 'at', type: 'timestamptz', values: events.map((e) => e.event.at.toISOString()) },
    ...TEXT_COLUMNS.map(([name, pick]) => ({ name, type: 'text', values: events.map(pick) })),
    { name: 'http_status', type: 'int', values: events.map((e) => e.event.httpStatus) },
    {
      name: 'details',
      type: 'jsonb',
      values: events.map((e) => (e.event.details === null ? null : JSON.stringify(e.event.details))),
    },
    ...CHAIN_COLUMNS.map(([name, pick]) => ({ name, type: 'text', values: events.map(pick) })),
  ]);
  const last = events[events.length - 1];
  return Prisma.sql`
    WITH chain AS (
      SELECT last_seq, last_hash FROM audit_chains WHERE tenant_id = ${tenantId}::uuid FOR UPDATE
    ), expected AS (
      SELECT 1 FROM chain WHERE last_seq = ${expected.seq}::int AND last_hash = ${expected.hash}
        AND ${expected.digest}::text IS NOT DISTINCT FROM ${headDigest(tenantId, expected.seq)}
    ), appended_events AS (
      INSERT INTO audit_events (tenant_id, seq, at, actor, on_behalf_of, action, target, request_id,
                                outcome, http_status, details, prev_hash, hash, chain_key,
                                prev_digest, digest)
      SELECT ${tenantId}::uuid, ${Prisma.raw(eventRows.select.join(', '))}
      FROM expected, ${eventRows.from}
      RETURNING seq, hash
    )${writes.length === 0 ? Prisma.empty : Prisma.join(writes, '')}, head AS (
      UPDATE audit_chains SET last_seq = ${last.seq}::int, last_hash = ${last.hash}
      FROM expected WHERE audit_chains.tenant_id = ${tenantId}::uuid
    )
    SELECT count(*)::int AS written FROM expected`;
}

// The digest of the head event at `seq` (genesis for an empty chain), read in a statement.
function headDigest(tenantId: string, seq: number): Prisma.Sql {
  return seq === 0
    ? Prisma.sql`${GENESIS_HASH}::text`
    : Prisma.sql`(SELECT digest FROM audit_events WHERE tenant_id = ${tenantId}::uuid AND seq = ${seq}::int)`;
}

type TextColumn = [name: string, pick: (event: ChainedEvent) => string | null];

// The audit_events columns of text, in the table's order: those after `at`, and those after `details`.
const TEXT_COLUMNS: TextColumn[] = [
  ['actor', (e) => e.event.actor],
  ['on_behalf_of', (e) => e.event.onBehalfOf],
  ['action', (e) => e.event.action],
  ['target', (e) => e.event.target],
  ['request_id', (e) => e.event.requestId],
  ['outcome', (e) => e.event.outcome],
];
const CHAIN_COLUMNS: TextColumn[] = [
  ['prev_hash', (e) => e.prevHash],
  ['hash', (e) => e.hash],
  ['chain_key', (e) => e.chainKey],
  ['prev_digest', (e) => e.prevDigest],
  ['digest', (e) => e.digest],
];

interface JsonColumn {
  name: string;
  /** As Postgres names it (`format_type`): "timestamp with time zone", "jsonb". */
  type: string;
  values: readonly (string | number | null)[];
}

/**
 * Rows zipped from one JSON array per column (`ROWS FROM`, as `unnest` of several arrays does), and
 * each column read from them cast to its type and named, in the order given.
 *
 * `few`: rows a write joins to its table. Postgres plans a set-returning function for 100 rows, so
 * an update or delete of a batch's few rows would read its whole table and hash it. Under a limit
 * it cannot see (all the rows), it plans 10, and finds the rows through the table's index.
 */
function jsonRows(
  alias: string,
  columns: readonly JsonColumn[],
  { few = false } = {},
): { from: Prisma.Sql; select: string[] } {
  const arrays = columns.map(
    ({ values }) => Prisma.sql`json_array_elements_text(${storableJson(values)}::json)`,
  );
  const names = columns.map(({ name }) => name).join(', ');
  const rows = Prisma.sql`ROWS FROM (${Prisma.join(arrays, ', ')}) AS ${Prisma.raw(`${alias} (${names})`)}`;
  return {
    from: few
      ? Prisma.sql`(SELECT * FROM ${rows} LIMIT ${columns[0].values.length}::int) AS ${Prisma.raw(alias)}`
      : rows,
    select: columns.map(({ name, type }) => `${alias}.${name}::${typeName(type)} AS ${name}`),
  };
}

// Postgres names types as `format_type` does ("timestamp with time zone"); nothing else is spliced in.
function typeName(type: string): string {
  if (!/^[a-z][a-z0-9_ ."]*$/i.test(type))
    throw new Error(`unexpected parameter type ${JSON.stringify(type)}`);
  return type;
}

/** A write's value as an element of its array, which Postgres reads as it would read the value. */
function arrayElement(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return String(value);
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    throw new Error('a value of an audited write is an array or bytes: pass it as JSON text instead');
  }
  return JSON.stringify(value);
}

function isWriteList(change: AuditChange): change is readonly TableWrite[] {
  return Array.isArray(change);
}

/** The columns given a value, with it. */
function columnValues(values: Readonly<Partial<Record<string, Prisma.Sql>>>): [string, Prisma.Sql][] {
  return Object.entries(values).filter((entry): entry is [string, Prisma.Sql] => entry[1] !== undefined);
}

/**
 * The statement of a write that reads `appended` (its event's row): with no event written, it
 * selects, updates or deletes nothing. An `ON CONFLICT` clause carries no value: with the writes
 * of a kind inserted together it may only read the row and `EXCLUDED`.
 */
function renderWrite(write: TableWrite): Prisma.Sql {
  if ('insert' in write) {
    if (write.onConflict && write.onConflict.values.length > 0) {
      throw new Error(
        `the ON CONFLICT clause of a write to ${write.insert} carries values: read them from EXCLUDED`,
      );
    }
    const values = columnValues(write.values);
    return Prisma.sql`
      INSERT INTO ${Prisma.raw(write.insert)} (${Prisma.raw(values.map(([column]) => column).join(', '))})
      SELECT ${Prisma.join(
        values.map(([, value]) => value),
        ', ',
      )}
      FROM appended
      ${write.onConflict ?? Prisma.empty}`;
  }
  if ('update' in write) {
    const assignments = columnValues(write.set).map(
      ([column, value]) => Prisma.sql`${Prisma.raw(column)} = ${value}`,
    );
    return Prisma.sql`
      UPDATE ${Prisma.raw(write.update)} SET ${Prisma.join(assignments, ', ')}
      FROM appended WHERE ${write.where}`;
  }
  return Prisma.sql`DELETE FROM ${Prisma.raw(write.delete)} USING appended WHERE ${write.where}`;
}
