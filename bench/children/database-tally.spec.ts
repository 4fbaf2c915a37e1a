import { Client } from 'pg';

describe('the round-trip tally', () => {
  const original = Client.prototype.query;
  afterEach(() => {
    Client.prototype.query = original;
    jest.resetModules();
  });

  it('counts statements by kind, keeps the audit append with the most events and counts the texts of the appends', () => {
    const sent: unknown[] = [];
    Client.prototype.query = function (...args: unknown[]) {
      sent.push(args[0]);
      return Promise.resolve({ rows: [] });
    } as typeof Client.prototype.query;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const tally = require('./database-tally') as typeof import('./database-tally');
    tally.countDatabaseRoundTrips();
    const append =
      'WITH chain AS (SELECT 1), x AS (INSERT INTO audit_events (seq) SELECT json_array_elements_text($2::json)::int)';
    const seqs = (events: number): string =>
      JSON.stringify(Array.from({ length: events }, (_, index) => index + 1));
    const client = Object.create(Client.prototype) as Client;

    void client.query('SELECT * FROM gateway_keys WHERE id = $1', ['k']);
    void client.query({ text: append, values: ['tenant', seqs(60)], name: 'prepared_1' });
    void client.query({ text: append, values: ['tenant', seqs(90)] });
    void client.query(append, ['tenant', seqs(70)]);

    expect(sent).toHaveLength(4);
    expect(tally.databaseTally().roundTrips).toEqual({ 'SELECT gateway_keys': 1, 'audit append': 3 });
    void client.query({ text: `${append} -- another kind`, values: ['tenant', seqs(1)] });
    expect(tally.largestAuditAppend()).toEqual({
      type: 'largest-append',
      append: { text: append, values: ['tenant', seqs(90)], events: 90 },
      appendTexts: 2,
    });
  });
});
