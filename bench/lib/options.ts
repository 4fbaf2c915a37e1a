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

/**
 * The items a comma-separated option names (`--routes "GET settings,POST pipe"`), in the order
 * named; all of them when the option is left out. An unknown name throws, listing the known ones.
 */
export function namedInOrder<T extends { name: string }>(
  all: readonly T[],
  names: readonly string[] | undefined,
): T[] {
  if (!names) return [...all];
  return names.map((name) => {
    const item = all.find((candidate) => candidate.name === name);
    if (!item)
      throw new Error(`no route "${name}"; the routes are: ${all.map((known) => known.name).join(', ')}`);
    return item;
  });
}
