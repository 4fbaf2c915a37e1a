/**
 * What a statement sent to Postgres is, in a few words, for counting a write's round trips by kind:
 * the audit append (its event rows and every row that goes with them, in one statement), a
 * transaction's edges, the event bus's notify, the background work of the audit sinks and the
 * checkpoints, or else its verb and the first table it names.
 */
export function statementKind(text: string): string {
  const sql = text.trim();
  const verb = /^\w+/.exec(sql)?.[0].toUpperCase() ?? '?';
  if (verb === 'BEGIN' || verb === 'COMMIT' || verb === 'ROLLBACK') return 'transaction begin/end';
  if (/INSERT INTO audit_events\b/i.test(sql)) return AUDIT_APPEND;
  if (/\bpg_notify\(/i.test(sql)) return 'event notify';
  if (/\baudit_sinks?\b|\baudit_sink_cursors\b/i.test(sql)) return AUDIT_SINKS;
  if (/\baudit_checkpoints\b/i.test(sql)) return AUDIT_CHECKPOINTS;
  // Only the audit sinks read events on their own while the bench runs (no export, no verification),
  // whichever table their read names first.
  if (verb === 'SELECT' && /\baudit_events\b/i.test(sql)) return AUDIT_SINKS;
  const table = /\b(?:FROM|INTO|UPDATE)\s+(?:"?public"?\.)?"?(\w+)"?/i.exec(sql)?.[1];
  return table === undefined ? verb : `${verb} ${table}`;
}

/** The kind of the statement that appends audit events and the rows that go with them. */
export const AUDIT_APPEND = 'audit append';

/**
 * The events an audit append's parameters carry: the length of its first JSON array, the events'
 * seqs (every column of the events is a JSON array of that length; the parameters before it are the
 * head's, none of them JSON).
 */
export function appendedEvents(values: readonly unknown[]): number {
  const seqs = values.find((value): value is string => typeof value === 'string' && value.startsWith('['));
  return seqs === undefined ? 0 : (JSON.parse(seqs) as unknown[]).length;
}

const AUDIT_SINKS = 'audit sinks (background)';
const AUDIT_CHECKPOINTS = 'audit checkpoints (background)';
// What the key and credential caches read when an entry runs out, and the last-use times they flush.
const CACHE_TABLES = /^(SELECT|UPDATE) (gateway_keys|credentials)$/;

/**
 * Whether a kind of statement is background work, made on a timer whatever the writes (the audit
 * sinks, checkpoints, cache refills): per write it is what the run's pace spreads it over.
 */
export function isBackground(kind: string): boolean {
  return kind === AUDIT_SINKS || kind === AUDIT_CHECKPOINTS || CACHE_TABLES.test(kind);
}

/** `into` with the round trips made between two tallies (before, after) added, by kind. */
export function addRoundTrips(
  into: Record<string, number>,
  before: Readonly<Record<string, number>>,
  after: Readonly<Record<string, number>>,
): Record<string, number> {
  for (const [kind, count] of Object.entries(after)) {
    const made = count - (before[kind] ?? 0);
    if (made > 0) into[kind] = (into[kind] ?? 0) + made;
  }
  return into;
}
