import { addRoundTrips, isBackground, statementKind } from './statements';

describe('statement kinds', () => {
  it('names the audit append, the edges of a transaction, the notify and else verb and table', () => {
    expect(
      statementKind(`WITH chain AS (SELECT last_seq FROM audit_chains), appended_1 AS (INSERT INTO audit_events (seq) SELECT 1)
        , change_1_1 AS (INSERT INTO pipe_spec_records (id) SELECT 2) SELECT count(*) FROM expected`),
    ).toBe('audit append');
    expect(statementKind('BEGIN')).toBe('transaction begin/end');
    expect(statementKind('COMMIT')).toBe('transaction begin/end');
    expect(statementKind('SELECT pg_notify($1, $2)')).toBe('event notify');
    expect(
      statementKind(
        'SELECT "public"."idempotent_requests"."key" FROM "public"."idempotent_requests" WHERE 1=1',
      ),
    ).toBe('SELECT idempotent_requests');
    expect(statementKind('SELECT 1')).toBe('SELECT');
  });

  it("tells the background's statements from a write's own", () => {
    const sinks = statementKind('UPDATE audit_sink_cursors SET delivered_seq = 3');
    expect(sinks).toBe('audit sinks (background)');
    expect(statementKind('SELECT "public"."audit_events"."seq" FROM "public"."audit_events"')).toBe(sinks);
    expect(
      statementKind(`SELECT e.seq FROM unnest($1::uuid[], $2::int[], $3::int[]) AS r (tenant_id, after, through)
        JOIN audit_events e ON e.tenant_id = r.tenant_id`),
    ).toBe(sinks);
    expect(isBackground(sinks)).toBe(true);
    expect(isBackground(statementKind('SELECT p.jws FROM audit_checkpoints p'))).toBe(true);
    expect(isBackground('SELECT gateway_keys')).toBe(true);
    expect(isBackground('audit append')).toBe(false);
    expect(isBackground('SELECT idempotent_requests')).toBe(false);
  });

  it('adds what was made between two tallies', () => {
    expect(addRoundTrips({ a: 1 }, { a: 5, b: 2 }, { a: 7, b: 2, c: 1 })).toEqual({ a: 3, c: 1 });
  });
});
