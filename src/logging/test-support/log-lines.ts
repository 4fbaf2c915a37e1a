/**
 * Writes log lines to stdout through the gateway's buffered destination, then idles, exits or
 * crashes as its argument says (buffered-stdout.spec.ts): node test/support/run-typescript.js <this> <how> <lines>.
 */
import pino from 'pino';
import { bufferedStdout } from '../buffered-stdout';

const [how, lines] = process.argv.slice(2);
const logger = pino({}, bufferedStdout());
for (let i = 0; i < Number(lines); i++) logger.info({ line: i }, 'a line');

if (how === 'idle') setTimeout(() => undefined, 30_000);
if (how === 'exit') process.exit(0);
if (how === 'crash')
  setImmediate(() => {
    throw new Error('crashed on purpose');
  });
