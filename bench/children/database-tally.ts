import { Client } from 'pg';
import type { Message } from '../lib/processes';
import { statementKind } from '../lib/statements';

/** Answer to `database-tally`: the round trips to Postgres so far, by what they were (statementKind). */
export interface DatabaseTally extends Message {
  type: 'database-tally';
  roundTrips: Record<string, number>;
}

const roundTrips: Record<string, number> = {};
// Statement texts repeat (a statement's parameters are not in it): each short one is classified
// once. An audit append's text is long and differs with its batch: kept, they would be most of the
// gateway's heap, and its kind is found near its start anyway.
const kinds = new Map<string, string>();
const MAX_KINDS_REMEMBERED = 10_000;
const MAX_TEXT_REMEMBERED = 2_000;

/**
 * Counts every round trip this process makes to Postgres: every query a pg client sends, whether
 * through Prisma's adapter, the pool directly or a client of its own (the event bus's). Each call
 * of Client.query is one round trip; a text of several statements would still be one.
 */
export function countDatabaseRoundTrips(): void {
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
    if (text !== undefined) {
      let kind = kinds.get(text);
      if (kind === undefined) {
        kind = statementKind(text);
        if (text.length <= MAX_TEXT_REMEMBERED) {
          if (kinds.size >= MAX_KINDS_REMEMBERED) kinds.clear();
          kinds.set(text, kind);
        }
      }
      roundTrips[kind] = (roundTrips[kind] ?? 0) + 1;
    }
    return query.apply(this, args);
  } as typeof Client.prototype.query;
}

export function databaseTally(): DatabaseTally {
  return { type: 'database-tally', roundTrips: { ...roundTrips } };
}
