import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The gateway's memory figures hold for the Node options it runs with (README, "Memory" under
// Benchmarks): every way of starting it must pass the same ones.
const root = join(__dirname, '..');

function nodeOptionsOf(command: string): string[] {
  const match = /node ((?:--\S+ )*)dist\/src\/main\.js$/.exec(command);
  if (!match) throw new Error(`not a gateway start command: ${command}`);
  return match[1].split(' ').filter(Boolean);
}

describe('runtime flags', () => {
  const scripts = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const production = nodeOptionsOf(scripts['start:prod']);

  it('start:prod keeps WebAssembly on the baseline compiler, the young generation measured and a close heap limit', () => {
    expect(production).toEqual(
      expect.arrayContaining(['--liftoff-only', '--max-semi-space-size=16', '--heap-growing-percent=50']),
    );
  });

  it('npm start runs the gateway with the same options', () => {
    expect(nodeOptionsOf(scripts.start)).toEqual(production);
  });

  it("the Dockerfile's CMD runs it with the same options", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(['node', ...production, 'dist/src/main.js']);
  });
});
