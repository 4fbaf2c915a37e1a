import type { components } from '../../../../clients/typescript/src';
import { Badge, TableHead } from '../../components/common';
import { PipeLink } from '../../components/pipe-link';

export type Propagation = components['schemas']['PropagationOutcomeView'];

/** What a rotation did to each pipe that used the secret. */
export function PropagationOutcomes({ outcomes }: { outcomes: Propagation[] }) {
  if (outcomes.length === 0)
    return <p className="empty">No pipe uses this secret: there was nothing to update.</p>;
  return (
    <table className="data" aria-label="Pipes updated with the new value">
      <TableHead columns={['Pipe', 'Outcome', 'Places']} />
      <tbody>
        {outcomes.map((outcome) => (
          <tr key={outcome.pipeId}>
            <td className="wrap">
              <PipeLink pipe={outcome} />
            </td>
            <td>
              <Badge
                text={outcome.outcome === 'updated' ? 'updated' : `failed (${outcome.status})`}
                tone={outcome.outcome === 'updated' ? 'good' : 'bad'}
              />
            </td>
            <td>
              {outcome.paths.join(', ')}
              {outcome.notUpdatable.length > 0 &&
                ` (keeps the old value at ${outcome.notUpdatable.join(', ')})`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
