/**
 * Every relative link of the README, docs/ and bench/README.md points at a file of the repository,
 * and every `#fragment` at a heading of its page, so moving a section or a file cannot leave a
 * reader at a dead end.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..');
const PAGES = [
  'README.md',
  'bench/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1])));
}

/** Markdown links `[text](target)` outside code blocks, external ones left out. */
function linksOf(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z]+:/i.test(target));
}

describe('links between the documents', () => {
  it.each(PAGES)('%s links only to files and headings that exist', (page) => {
    const broken = linksOf(page).filter((target) => {
      const [file, fragment] = target.split('#');
      const path = file === '' ? join(ROOT, page) : join(ROOT, dirname(page), file);
      if (!existsSync(path)) return true;
      if (fragment === undefined || !path.endsWith('.md')) return false;
      return !anchorsOf(relative(ROOT, path)).has(fragment);
    });
    expect(broken).toEqual([]);
  });

  it('spells anchors as GitHub does, so a wrong fragment is caught', () => {
    expect(anchor('Who am I: `GET /v1/me`')).toBe('who-am-i-get-v1me');
    expect(anchorsOf('README.md').has('quick-start')).toBe(true);
    expect(anchorsOf('README.md').has('no-such-heading')).toBe(false);
  });
});
