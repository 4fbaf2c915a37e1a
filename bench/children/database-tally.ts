import { createHash } from 'node:crypto';
import { Client } from 'pg';
import type { Message } from '../lib/processes';
import { AUDIT_APPEND, appendedEvents, statementKind } from '../lib/statements';

/** Answer to `database-tally`: the round trips to Postgres so far, by what they were (statementKind). */
export interface DatabaseTally extends Message {
  type: 'database-tally';
  roundTrips: Record<string, number>;
}

/** Answer to `largest-append`: the audit append with the most events sent so far, as sent; null before any. */
export interface LargestAppend extends Message {
  type: 'largest-append';
  append: { text: string; values: unknown[]; events: number } | null;
  /** How many texts the audit appends sent had between them (up to MAX_APPEND_TEXTS). */
  appendTexts: number;
}

const roundTrips: Record<string, number> = {};
// Statement texts repeat (a statement's parameters are not in it): each short one is classified
// once. Long texts are classified each time: kept, they would grow the heap of the gateway measured.
const kinds = new Map<string, string>();
const MAX_KINDS_REMEMBERED = 10_000;
const MAX_TEXT_REMEMBERED = 2_000;
let largestAppend: LargestAppend['append'] = null;
// Digests, not texts: an append's text may be long, and each batch's may be its own.
const appendTexts = new Set<string>();
const MAX_APPEND_TEXTS = 10_000;

/**
 * Counts every round trip this process makes to Postgres: every query a pg client sends, whether
 * through Prisma's adapter, the pool directly or a client of its own (the event bus's). Each call
 * of Client.query is one round trip; a text of several statements would still be one. The audit
 * append with the most events is kept too, for the runner to replay (append-replay.ts).
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
      if (kind === AUDIT_APPEND) {
        const given = typeof first === 'string' ? args[1] : (first as { values?: unknown }).values;
        const values = Array.isArray(given) ? given : [];
        if (appendTexts.size < MAX_APPEND_TEXTS)
          appendTexts.add(createHash('sha1').update(text).digest('hex'));
        const events = appendedEvents(values);
        if (events > (largestAppend?.events ?? 0)) largestAppend = { text, values, events };
      }
    }
    return query.apply(this, args);
  } as typeof Client.prototype.query;
}

export function databaseTally(): DatabaseTally {
  return { type: 'database-tally', roundTrips: { ...roundTrips } };
}

export function largestAuditAppend(): LargestAppend {
  return { type: 'largest-append', append: largestAppend, appendTexts: appendTexts.size };
}
