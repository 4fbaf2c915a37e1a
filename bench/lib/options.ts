import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The command line's options for `npm run <script>`. `--help` prints them and exits; an option
 * the script does not know, or one missing its value, prints the same list to stderr and exits 2.
 */
export function commandOptions<const T extends Options>(script: string, options: T) {
  const usage = [
    `usage: npm run ${script} -- [options]; what each does is in bench/README.md`,
    ...Object.entries(options).map(([name, option]) =>
      option.type === 'string'
        ? `  --${name} <value>${option.default === undefined ? '' : `  (default ${String(option.default)})`}`
        : `  --${name}`,
    ),
  ].join('\n');
  if (process.argv.slice(2).some((argument) => argument === '--help' || argument === '-h')) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs({ options, args: process.argv.slice(2) }).values;
  } catch (error) {
    console.error(`${script}: ${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}
