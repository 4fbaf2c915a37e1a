import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm start`, `npm run sandbox` and `npm run cli` build only what is older than its sources.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isStale } = require('../scripts/build-if-stale.js') as {
  isStale(part: { stamp: string; sources: string[] }, root: string): boolean;
};

describe('build-if-stale', () => {
  let root: string;
  const part = () => ({ stamp: join(root, 'dist/.built'), sources: ['src', 'package.json'] });
  const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pgw-build-'));
    mkdirSync(join(root, 'src/deep'), { recursive: true });
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'src/deep/a.ts'), '');
    writeFileSync(join(root, 'package.json'), '{}');
    writeFileSync(join(root, 'dist/.built'), '');
    for (const path of ['src/deep/a.ts', 'src/deep', 'src', 'package.json']) at(join(root, path), 1_000);
    at(join(root, 'dist/.built'), 2_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is current when every source is older than the last build', () => {
    expect(isStale(part(), root)).toBe(false);
  });

  it('is stale when never built, or a file, deep or not, changed since', () => {
    rmSync(join(root, 'dist/.built'));
    expect(isStale(part(), root)).toBe(true);
    writeFileSync(join(root, 'dist/.built'), '');
    at(join(root, 'dist/.built'), 2_000);
    at(join(root, 'src/deep/a.ts'), 3_000);
    expect(isStale(part(), root)).toBe(true);
    at(join(root, 'src/deep/a.ts'), 1_000);
    at(join(root, 'package.json'), 3_000);
    expect(isStale(part(), root)).toBe(true);
  });

  it('is stale when a file was added or removed', () => {
    at(join(root, 'src/deep'), 3_000);
    expect(isStale(part(), root)).toBe(true);
  });
});
