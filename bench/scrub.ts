import { hash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startDashboardsSimulator } from '../sandbox';
import { validDashboardBody } from '../test/fixtures/dashboard-bodies';
import { redactParsedJson } from '../src/redaction/redact';
import { SecretValueMatcher } from '../src/redaction/secret-value-matcher';
import { commandOptions } from './lib/options';
import { DASHBOARD_IDS } from './lib/scenario';

/**
 * What scrubbing a tenant's secret values from an answer costs, in one process: the ways of
 * finding the values side by side, over the strings of the answer `GET dashboards` reads in the
 * benchmark (the dashboards simulator's list of DASHBOARD_IDS), for vaults of several sizes; then
 * what a whole answer costs parsed, redacted and written again, against the digest that lets a
 * repeated answer skip all three.
 */
const flags = commandOptions('bench:scrub', {
  /** Vault sizes: how many values each matcher holds. */
  values: { type: 'string', default: '5,69,256,2048' },
  /** Milliseconds each measurement runs for. */
  ms: { type: 'string', default: '500' },
});
const vaultSizes = flags.values.split(',').map(Number);
const runMs = Number(flags.ms);

/** Mean µs per call of `work`, after a warm-up, over `runMs`. */
function microseconds(work: () => unknown): number {
  for (let index = 0; index < 200; index++) work();
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < runMs) {
    work();
    calls += 1;
  }
  return ((performance.now() - started) / calls) * 1_000;
}

function stringsOf(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      into.push(key);
      stringsOf(inner, into);
    }
  }
  return into;
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function listAnswer(): Promise<string> {
  const token = randomBytes(24).toString('hex');
  const simulator = await startDashboardsSimulator({ tokens: [token] });
  try {
    const { name, tiles, tags } = validDashboardBody();
    for (const id of DASHBOARD_IDS) simulator.seedDashboard({ id, name, tiles, tags });
    const response = await fetch(`${simulator.url}/api/v2/dashboards`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return await response.text();
  } finally {
    await simulator.close();
  }
}

async function main(): Promise<void> {
  const text = await listAnswer();
  const strings = stringsOf(JSON.parse(text));
  console.log(
    `GET dashboards answer: ${text.length} characters, ${strings.length} strings (field names included)\n`,
  );

  console.log('finding the values in every string of the answer, µs per answer:');
  console.log(
    'values | build matcher ms | a loop over the values | one alternation regex | SecretValueMatcher',
  );
  for (const size of vaultSizes) {
    const values = Array.from({ length: size }, () =>
      randomBytes(9 + (randomBytes(1)[0] % 16)).toString('base64url'),
    );
    const started = performance.now();
    const matcher = new SecretValueMatcher(values);
    const buildMs = performance.now() - started;
    const longestFirst = [...values].sort((a, b) => b.length - a.length);
    const alternation = new RegExp(longestFirst.map(escaped).join('|'), 'g');
    const loop = microseconds(() => {
      for (const string of strings) {
        let result = string;
        for (const value of values) if (result.includes(value)) result = result.split(value).join('x');
      }
    });
    const regex = microseconds(() => {
      for (const string of strings) string.replace(alternation, '[redacted]');
    });
    const automaton = microseconds(() => {
      for (const string of strings) matcher.scrub(string);
    });
    console.log(
      `${size} | ${buildMs.toFixed(1)} | ${loop.toFixed(1)} | ${regex.toFixed(1)} | ${automaton.toFixed(1)}`,
    );
  }

  // As many values as the benchmark's tenant holds (bench/children/gateway.ts).
  const vault = new SecretValueMatcher(
    Array.from({ length: 69 }, () => randomBytes(18).toString('base64url')),
  );
  const parse = microseconds(() => JSON.parse(text));
  const redacted = microseconds(() => redactParsedJson(JSON.parse(text), ['a-token-of-48-characters']));
  const scrubbed = microseconds(() =>
    redactParsedJson(JSON.parse(text), ['a-token-of-48-characters'], vault),
  );
  const whole = microseconds(() =>
    JSON.stringify(redactParsedJson(JSON.parse(text), ['a-token-of-48-characters'], vault)),
  );
  const digest = microseconds(() => hash('sha256', `tenant:version\n${text}`, 'base64'));
  console.log('\nthe whole answer, µs (a vault of 69 values):');
  console.log(`parsed                                    ${parse.toFixed(1)}`);
  console.log(`parsed and redacted, no vault             ${redacted.toFixed(1)}`);
  console.log(`parsed and redacted, the vault scrubbed   ${scrubbed.toFixed(1)}`);
  console.log(`the same, and written as JSON again       ${whole.toFixed(1)}`);
  console.log(`its digest, which a repeat costs instead  ${digest.toFixed(1)}`);
}

void main();
