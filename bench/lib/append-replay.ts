import { Client } from 'pg';
import { cpuMs } from './processes';

/** What Postgres spends on one audit append, per statement, as the gateway sends it and three other ways. */
export interface AppendReplay {
  events: number;
  characters: number;
  parameters: number;
  /** How many texts the gateway's audit appends had between them in the run. */
  texts: number;
  /** Prepared, as the gateway sends it: Postgres plans it each time or keeps a generic plan, as it judges. */
  asSentMs: number;
  /** Sent unnamed: parsed and planned each time. */
  unnamedMs: number;
  /** A prepared statement planned each time: parsing saved. */
  planEachTimeMs: number;
  /** A prepared statement whose generic plan is reused: parsing and planning saved. */
  planReusedMs: number;
}

// Postgres weighs a generic plan against custom ones after five runs of a prepared statement.
const WARM_RUNS = 6;

const MODES = [
  ['asSentMs', 'as_sent', null],
  ['unnamedMs', undefined, null],
  ['planEachTimeMs', 'custom', 'force_custom_plan'],
  ['planReusedMs', 'generic', 'force_generic_plan'],
] as const;

/**
 * Replays an audit append `repeats` times each way on a session of its own and measures its
 * backend's CPU. Each way runs in a transaction rolled back, so nothing is written whatever the
 * head it expects; the head has moved on since anyway.
 */
export async function replayAppend(
  databaseUrl: string,
  append: { text: string; values: unknown[]; events: number },
  texts: number,
  repeats = 50,
): Promise<AppendReplay> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    const result: AppendReplay = {
      events: append.events,
      characters: append.text.length,
      parameters: append.values.length,
      texts,
      asSentMs: NaN,
      unnamedMs: NaN,
      planEachTimeMs: NaN,
      planReusedMs: NaN,
    };
    for (const [figure, name, planCacheMode] of MODES) {
      await client.query('BEGIN');
      try {
        if (planCacheMode) await client.query(`SET LOCAL plan_cache_mode = ${planCacheMode}`);
        const statement = { text: append.text, values: append.values, name };
        // Unmeasured first: a prepared statement's first runs parse it and try custom plans.
        for (let run = 0; run < WARM_RUNS; run++) await client.query(statement);
        const before = cpuMs(pid);
        for (let run = 0; run < repeats; run++) await client.query(statement);
        result[figure] = (cpuMs(pid) - before) / repeats;
      } finally {
        await client.query('ROLLBACK');
      }
    }
    return result;
  } finally {
    await client.end();
  }
}

/** The replay's figures in two lines, for the runner's output. */
export function formatAppendReplay(gateway: string, replay: AppendReplay): string {
  const ms = (value: number): string =>
    `${value.toFixed(2)} ms (${(value / Math.max(replay.events, 1)).toFixed(3)} ms an event)`;
  return (
    `\nthe audit append with the most events that ${gateway} sent (${replay.events} events, ` +
    `${replay.characters.toLocaleString('en-US')} characters, ${replay.parameters} parameters; ` +
    `${replay.texts} texts among its appends), replayed: ` +
    `Postgres CPU per statement\n  as the gateway sends it (prepared) ${ms(replay.asSentMs)}; ` +
    `unnamed ${ms(replay.unnamedMs)}; prepared, planned each time ${ms(replay.planEachTimeMs)}; ` +
    `prepared, plan reused ${ms(replay.planReusedMs)}`
  );
}
