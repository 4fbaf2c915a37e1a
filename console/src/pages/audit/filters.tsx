import { useState, type FormEvent } from 'react';
import type { components } from '../../../../clients/typescript/src';
import { formText } from '../../form';
import { OUTCOMES, type AuditFilter, type Outcome } from './view';

type AuditAction = components['schemas']['AuditActionView'];

/** A value a filter offers, with the words a person knows it by. */
export interface Choice {
  value: string;
  label: string;
}

/** An instant as a datetime-local field writes it, in the person's time zone. */
function localInput(instant: string | undefined): string {
  if (!instant) return '';
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

/** The form's fields as the API takes them: empty ones left out, local times as instants. */
function filterOf(form: HTMLFormElement): AuditFilter {
  const data = new FormData(form);
  const text = (name: string): string | undefined => formText(data, name) || undefined;
  const instant = (name: string): string | undefined => {
    const local = text(name);
    return local === undefined ? undefined : new Date(local).toISOString();
  };
  return {
    actor: text('actor'),
    action: text('action'),
    target: text('target'),
    outcome: text('outcome') as Outcome | undefined,
    from: instant('from'),
    to: instant('to'),
  };
}

/** The catalogue's actions by subject (`credential`, `pipe`, …), in the catalogue's order. */
function bySubject(actions: AuditAction[]): [string, AuditAction[]][] {
  const groups = new Map<string, AuditAction[]>();
  for (const action of actions) {
    const subject = action.action.split('.')[0];
    groups.set(subject, [...(groups.get(subject) ?? []), action]);
  }
  return [...groups];
}

/**
 * The audit log's filters. Actions are chosen from the catalogue, one or every action of a
 * subject; actors and targets are typed or picked among those offered. The form shows the
 * filter it is given and is reset to it when it changes (Back and Forward).
 */
export function AuditFilters({
  filter,
  actions,
  actors = [],
  targets = [],
  onApply,
}: {
  filter: AuditFilter;
  /** The catalogue, or null while it is not read (the action is then typed). */
  actions: AuditAction[] | null;
  actors?: Choice[];
  targets?: Choice[];
  onApply: (filter: AuditFilter) => void;
}) {
  const [chosenAction, setChosenAction] = useState(filter.action ?? '');
  const [shownFilter, setShownFilter] = useState(filter);
  if (shownFilter !== filter) {
    setShownFilter(filter);
    setChosenAction(filter.action ?? '');
  }
  const meaning = actions?.find((action) => action.action === chosenAction)?.meaning;

  const apply = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    onApply(filterOf(event.currentTarget));
  };
  const clear = (): void => onApply({});

  return (
    <form className="filters" onSubmit={apply} aria-label="Filter the audit log" key={JSON.stringify(filter)}>
      <label>
        Actor{' '}
        <input
          name="actor"
          defaultValue={filter.actor}
          placeholder="dana@example.com, a key's name or id"
          list="audit-actors"
          autoComplete="off"
        />
      </label>
      <datalist id="audit-actors">
        {actors.map((actor) => (
          <option key={actor.value} value={actor.value}>
            {actor.label}
          </option>
        ))}
      </datalist>
      <label>
        Action
        {actions === null ? (
          <input name="action" defaultValue={filter.action} placeholder="credential.rotate or credential." />
        ) : (
          <select
            name="action"
            value={chosenAction}
            onChange={(event) => setChosenAction(event.target.value)}
            aria-describedby={meaning ? 'action-meaning' : undefined}
          >
            <option value="">any action</option>
            {bySubject(actions).map(([subject, members]) => (
              <optgroup key={subject} label={subject}>
                {members.length > 1 && <option value={`${subject}.`}>every {subject} action</option>}
                {members.map((action) => (
                  <option key={action.action} value={action.action}>
                    {action.action}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </label>
      <label>
        Target{' '}
        <input
          name="target"
          defaultValue={filter.target}
          placeholder="dashboard:…"
          list="audit-targets"
          autoComplete="off"
        />
      </label>
      <datalist id="audit-targets">
        {targets.map((target) => (
          <option key={target.value} value={target.value}>
            {target.label}
          </option>
        ))}
      </datalist>
      <label>
        Outcome
        <select name="outcome" defaultValue={filter.outcome ?? ''}>
          <option value="">any</option>
          {OUTCOMES.map((outcome) => (
            <option key={outcome}>{outcome}</option>
          ))}
        </select>
      </label>
      <label>
        From <input name="from" type="datetime-local" step="1" defaultValue={localInput(filter.from)} />
      </label>
      <label>
        Before <input name="to" type="datetime-local" step="1" defaultValue={localInput(filter.to)} />
      </label>
      {meaning && (
        <p className="muted help action-meaning" id="action-meaning">
          {meaning}
        </p>
      )}
      <div className="actions">
        <button type="submit">Apply filters</button>
        <button type="button" className="secondary" onClick={clear}>
          Clear
        </button>
      </div>
    </form>
  );
}
