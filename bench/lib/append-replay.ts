import { Client } from 'pg';
import { cpuMs } from './processes';

/** What Postgres spends on one audit append, per statement, the way it is sent and two cheaper ways. */
export interface AppendReplay {
  events: number;
  characters: number;
  parameters: number;
  /** Sent unnamed, as the gateway sends it: parsed and planned each time. */
  asSentMs: number;
  /** A prepared statement planned each time: parsing saved. */
  planEachTimeMs: number;
  /** A prepared statement whose generic plan is reused: parsing and planning saved. */
  planReusedMs: number;
}

const MODES = [
  ['asSentMs', null],
  ['planEachTimeMs', 'force_custom_plan'],
  ['planReusedMs', 'force_generic_plan'],
] as const;

/**
 * Replays an audit append `repeats` times each way on a session of its own and measures its
 * backend's CPU. Each way runs in a transaction rolled back, so nothing is written whatever the
 * head it expects; the head has moved on since anyway.
 */
export async function replayAppend(
  databaseUrl: string,
  append: { text: string; values: unknown[] },
  repeats = 50,
): Promise<AppendReplay> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    const result: AppendReplay = {
      events: append.text.match(/INSERT INTO audit_events\b/gi)?.length ?? 0,
      characters: append.text.length,
      parameters: append.values.length,
      asSentMs: NaN,
      planEachTimeMs: NaN,
      planReusedMs: NaN,
    };
    for (const [figure, planCacheMode] of MODES) {
      await client.query('BEGIN');
      try {
        if (planCacheMode) await client.query(`SET LOCAL plan_cache_mode = ${planCacheMode}`);
        const statement = { text: append.text, values: append.values, name: planCacheMode ?? undefined };
        // Once unmeasured: a prepared statement's first run parses it.
        await client.query(statement);
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
    `\nthe longest audit append ${gateway} sent (${replay.events} events, ` +
    `${replay.characters.toLocaleString('en-US')} characters, ${replay.parameters} parameters), replayed: ` +
    `Postgres CPU per statement\n  sent as the gateway sends it ${ms(replay.asSentMs)}; ` +
    `prepared, planned each time ${ms(replay.planEachTimeMs)}; prepared, plan reused ${ms(replay.planReusedMs)}`
  );
}
