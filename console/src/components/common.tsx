import { useState, type ReactNode } from 'react';

/**
 * A failure, read out when it appears; with `onRetry`, a button to try again (a page whose read
 * failed for a passing reason also tries again by itself).
 */
export function ErrorNote({ message, onRetry }: { message: string | null; onRetry?: () => void }) {
  if (message === null) return null;
  return (
    <div className="error" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="secondary small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** An instant as the person's local date and time, exact on hover and for screen readers. */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">never</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={date.toISOString()}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })}
    </time>
  );
}

/** JSON as it is, indented: for events' details, specs and checkpoints. */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** A button that asks once more before it acts: `danger` for what cannot be undone. */
export function ConfirmButton({
  children,
  question,
  onConfirm,
  disabled,
  tone = 'danger',
  label,
  className: shape,
}: {
  children: ReactNode;
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
  tone?: 'danger' | 'plain';
  /** The button's name for assistive technology, where its text alone is ambiguous. */
  label?: string;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const className = [tone === 'danger' ? 'danger' : '', shape].filter(Boolean).join(' ') || undefined;
  if (!asking) {
    return (
      <button
        type="button"
        className={className}
        disabled={disabled}
        aria-label={label}
        onClick={() => setAsking(true)}
      >
        {children}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span>{question}</span>{' '}
      <button
        type="button"
        className={className}
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {typeof children === 'string' ? children.toLowerCase() : 'go ahead'}
      </button>{' '}
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** A state badge whose words carry the meaning; colour only repeats it. */
export function Badge({ text, tone }: { text: string; tone: 'good' | 'bad' | 'busy' | 'plain' }) {
  return <span className={`badge ${tone}`}>{text}</span>;
}

/** A table's column headings; a column shown only to some people is left out with `false`. */
export function TableHead({ columns }: { columns: (string | false)[] }) {
  return (
    <thead>
      <tr>
        {columns.map(
          (column, index) =>
            column !== false && (
              <th key={index} scope="col">
                {column}
              </th>
            ),
        )}
      </tr>
    </thead>
  );
}
