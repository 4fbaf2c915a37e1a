import { diffLines } from 'diff';
import { useMemo } from 'react';
import { TableHead } from './common';

interface Row {
  left: string | null;
  right: string | null;
  kind: 'same' | 'changed' | 'removed' | 'added';
}

/** JSON with its keys sorted at every level, so a diff shows changes, not reordering. */
export function stableJson(value: unknown): string {
  const sorted = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sorted);
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(
        Object.keys(item)
          .sort()
          .map((key) => [key, sorted((item as Record<string, unknown>)[key])]),
      );
    }
    return item;
  };
  return JSON.stringify(sorted(value), null, 2);
}

function lines(text: string): string[] {
  const split = text.split('\n');
  if (split[split.length - 1] === '') split.pop();
  return split;
}

/** Lines of both sides aligned: a removal beside the addition that replaced it. */
function rowsOf(before: string, after: string): Row[] {
  const rows: Row[] = [];
  const changes = diffLines(before, after);
  for (let index = 0; index < changes.length; index++) {
    const change = changes[index];
    if (!change.added && !change.removed) {
      for (const line of lines(change.value)) rows.push({ left: line, right: line, kind: 'same' });
      continue;
    }
    const next = changes[index + 1];
    const removed = change.removed ? lines(change.value) : [];
    const added = change.added ? lines(change.value) : next?.added && change.removed ? lines(next.value) : [];
    if (change.removed && next?.added) index++;
    for (let at = 0; at < Math.max(removed.length, added.length); at++) {
      const left = removed[at] ?? null;
      const right = added[at] ?? null;
      rows.push({
        left,
        right,
        kind: left !== null && right !== null ? 'changed' : left !== null ? 'removed' : 'added',
      });
    }
  }
  return rows;
}

/** Two JSON documents side by side, changed lines marked in words as well as colour. */
export function DiffView({
  before,
  after,
  beforeLabel,
  afterLabel,
}: {
  before: unknown;
  after: unknown;
  beforeLabel: string;
  afterLabel: string;
}) {
  const rows = useMemo(() => rowsOf(stableJson(before), stableJson(after)), [before, after]);
  const changed = rows.filter((row) => row.kind !== 'same').length;
  return (
    <figure className="diff">
      <figcaption>
        {changed === 0 ? 'No differences' : `${changed} changed line${changed === 1 ? '' : 's'}`}:{' '}
        {beforeLabel} (left) against {afterLabel} (right)
      </figcaption>
      <div
        className="diff-scroll"
        tabIndex={0}
        role="region"
        aria-label={`Differences: ${beforeLabel} against ${afterLabel}`}
      >
        <table>
          <TableHead columns={[beforeLabel, afterLabel]} />
          <tbody>
            {rows.map((row, index) => (
              <tr key={index} className={row.kind}>
                <td>
                  {row.left !== null && row.kind !== 'same' && <span className="sr-only">removed: </span>}
                  <code>{row.left ?? ''}</code>
                </td>
                <td>
                  {row.right !== null && row.kind !== 'same' && <span className="sr-only">added: </span>}
                  <code>{row.right ?? ''}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
