import { useCallback, useState, type FormEvent } from 'react';
import { ErrorNote, TableHead, Time } from '../../components/common';
import { RefusalNote } from '../../components/refused-fields';
import { useConsole } from '../../console-context';
import { answer } from '../../gateway';
import { resubmitSpec } from '../../resubmit';
import { href, navigate } from '../../router';
import { useData } from '../../use-data';
import type { PipePath } from '../pipe-detail';

/** The create specs the gateway kept for this pipe, each one submittable again as a new pipe. */
export function PipeSpecs({ path, canResubmit }: { path: PipePath; canResubmit: boolean }) {
  const { client } = useConsole();
  const { organizationId, serviceId, pipeId } = path;
  const specs = useData(
    useCallback(
      // The history is listed by service; this pipe's entries are among its newest.
      (signal: AbortSignal) =>
        answer(
          client.GET('/v1/history/pipe-specs', {
            params: { query: { organizationId, serviceId, limit: 200 } },
            signal,
          }),
        ).then((page) => page.items.filter((record) => record.pipeId === pipeId)),
      [client, organizationId, serviceId, pipeId],
    ),
  );
  const records = specs.value;
  const [refusal, setRefusal] = useState<unknown>(null);

  const resubmit = (recordId: string, event: FormEvent<HTMLFormElement>): void => {
    setRefusal(null);
    resubmitSpec(client, recordId, event).then((created) => {
      if (created.id) navigate(href('pipes', organizationId, serviceId, created.id));
    }, setRefusal);
  };

  return (
    <section aria-labelledby="pipe-specs-title">
      <h2 id="pipe-specs-title">Its spec history</h2>
      <ErrorNote message={specs.problem} onRetry={specs.retry} />
      {records === null ? (
        !specs.problem && <p role="status">Reading the spec history…</p>
      ) : records.length === 0 ? (
        <p className="empty">No create spec of this pipe was kept: it was not created through the gateway.</p>
      ) : (
        <table className="data">
          <TableHead columns={['Submitted', 'By', 'Outcome', canResubmit && 'Submit again']} />
          <tbody>
            {records.map((record) => (
              <tr key={record.id}>
                <td>
                  <a href={href('history', record.id)}>
                    <Time at={record.createdAt} />
                  </a>
                </td>
                <td className="wrap">
                  {record.onBehalfOf ? `${record.actor} for ${record.onBehalfOf}` : record.actor}
                </td>
                <td>{record.outcome}</td>
                {canResubmit && (
                  <td>
                    <form
                      className="inline-form tight"
                      onSubmit={(event) => resubmit(record.id, event)}
                      aria-label="Submit this spec again"
                    >
                      <label>
                        New pipe name <input name="name" required />
                      </label>
                      <button type="submit">Submit again</button>
                    </form>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RefusalNote error={refusal} id="resubmit-refused" labels={{ name: 'New pipe name' }} />
    </section>
  );
}
