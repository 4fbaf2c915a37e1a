import { errorMessage, GatewayError } from '../gateway';
import { JsonBlock } from './common';

/**
 * Why the gateway refused a form: its message, each refused field with what is wrong (by the
 * label the person sees, where `labels` names it), and what the upstream answered when its
 * answer was the cause. Read out when it appears.
 */
export function RefusalNote({
  error,
  id,
  labels = {},
}: {
  error: unknown;
  id: string;
  /** The form's labels by the field's path in the request. */
  labels?: Record<string, string>;
}) {
  if (error === null) return null;
  const message = errorMessage(error);
  const problem = error instanceof GatewayError ? error.problem : null;
  const fields = problem?.errors ?? [];
  return (
    <div className="error" role="alert" id={id}>
      {fields.length > 0 ? (
        <>
          <p>The gateway refused {fields.length === 1 ? 'this field' : `these ${fields.length} fields`}:</p>
          <ul className="fields">
            {fields.map((field, index) => (
              <li key={index}>
                {labels[field.path] ? <strong>{labels[field.path]}</strong> : <code>{field.path}</code>}{' '}
                {field.message}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>{message}</p>
      )}
      {problem?.upstream && (
        <>
          <p>The upstream answered {problem.upstream.status}:</p>
          <JsonBlock value={problem.upstream.body} label="The upstream's answer" />
        </>
      )}
      {problem?.requestId && <p className="small-print">Request id {problem.requestId}</p>}
    </div>
  );
}
