/**
 * docs/security.md's table of audit actions is held to the catalogue (src/audit/audit-actions.ts)
 * both ways: an action appended without its row, a row of an action the gateway no longer has, or
 * a meaning, target or upstream mark that differs, fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditActionList } from '../src/audit/audit-actions';

interface DocumentedAction {
  action: string;
  target: string | null;
  upstream: boolean;
  meaning: string;
}

function documentedActions(docs: string): DocumentedAction[] {
  const section = docs.split('\n### Actions\n')[1].split('\n#')[0];
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.map((row) => {
    const [action, target, upstream, meaning] = row
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    return {
      action: action.replace(/`/g, ''),
      target: target === '–' ? null : target.replace(/`/g, ''),
      upstream: upstream === 'yes',
      meaning,
    };
  });
}

describe('docs/security.md', () => {
  const docs = readFileSync(join(__dirname, '..', 'docs', 'security.md'), 'utf8');

  it('lists every audit action of the catalogue, and no other, in its order and with its meaning', () => {
    const documented = documentedActions(docs);
    expect(documented.length).toBeGreaterThan(20);
    expect(documented).toEqual(
      auditActionList().map(({ action, target, upstream, meaning }) => ({
        action,
        target,
        upstream,
        meaning,
      })),
    );
  });
});
