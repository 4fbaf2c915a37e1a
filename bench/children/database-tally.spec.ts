import { Client } from 'pg';

describe('the round-trip tally', () => {
  const original = Client.prototype.query;
  afterEach(() => {
    Client.prototype.query = original;
    jest.resetModules();
  });

  it('counts statements by kind, and keeps the longest audit append alone of the long texts', () => {
    const sent: unknown[] = [];
    Client.prototype.query = function (...args: unknown[]) {
      sent.push(args[0]);
      return Promise.resolve({ rows: [] });
    } as typeof Client.prototype.query;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const tally = require('./database-tally') as typeof import('./database-tally');
    tally.countDatabaseRoundTrips();
    const append = (events: number): string =>
      'WITH chain AS (SELECT 1)' + ', x AS (INSERT INTO audit_events (seq) SELECT 1)'.repeat(events);
    const client = Object.create(Client.prototype) as Client;

    void client.query('SELECT * FROM gateway_keys WHERE id = $1', ['k']);
    void client.query({ text: append(60), values: [1, 2] });
    void client.query({ text: append(90), values: [3] });
    void client.query(append(70), [4]);

    expect(sent).toHaveLength(4);
    expect(tally.databaseTally().roundTrips).toEqual({ 'SELECT gateway_keys': 1, 'audit append': 3 });
    expect(tally.longestAuditAppend().append).toEqual({ text: append(90), values: [3] });
  });
});
