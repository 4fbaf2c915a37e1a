import { formatAppendReplay } from './append-replay';

describe('formatAppendReplay', () => {
  it('names the append replayed and gives its Postgres CPU each way', () => {
    const text = formatAppendReplay('gateway (info)', {
      events: 26,
      characters: 44_526,
      parameters: 893,
      texts: 12,
      asSentMs: 2.9,
      unnamedMs: 21.6,
      planEachTimeMs: 11.6,
      planReusedMs: 2.75,
    });
    expect(text).toContain(
      'the audit append with the most events that gateway (info) sent (26 events, 44,526 characters, 893 parameters; 12 texts among its appends)',
    );
    expect(text).toContain(
      'as the gateway sends it (prepared) 2.90 ms (0.112 ms an event); unnamed 21.60 ms (0.831 ms an event); ' +
        'prepared, planned each time 11.60 ms (0.446 ms an event); prepared, plan reused 2.75 ms (0.106 ms an event)',
    );
  });
});
