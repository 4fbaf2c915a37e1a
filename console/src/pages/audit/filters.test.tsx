import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AuditFilters } from './filters';

const ACTIONS = [
  { action: 'credential.create', meaning: 'A credential was stored.', target: 'credential', upstream: false },
  {
    action: 'credential.rotate',
    meaning: "A credential's value was replaced.",
    target: 'credential',
    upstream: false,
  },
  { action: 'tenant.create', meaning: 'The platform created the tenant.', target: 'tenant', upstream: false },
] as const;

describe('the audit filters', () => {
  it('offers the catalogue by subject, with every action of a subject as one choice', async () => {
    const onApply = vi.fn();
    render(<AuditFilters filter={{}} actions={[...ACTIONS]} onApply={onApply} />);
    const action = screen.getByLabelText('Action');
    const credential = within(action).getByRole('group', { name: 'credential' });
    expect(
      within(credential)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['every credential action', 'credential.create', 'credential.rotate']);
    // A subject of one action needs no "every".
    expect(within(within(action).getByRole('group', { name: 'tenant' })).getAllByRole('option')).toHaveLength(
      1,
    );

    await userEvent.selectOptions(action, 'credential.');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(onApply).toHaveBeenLastCalledWith(expect.objectContaining({ action: 'credential.' }));
  });

  it('says what the chosen action means', async () => {
    render(<AuditFilters filter={{}} actions={[...ACTIONS]} onApply={vi.fn()} />);
    await userEvent.selectOptions(screen.getByLabelText('Action'), 'credential.rotate');
    expect(screen.getByText("A credential's value was replaced.")).toBeDefined();
  });

  it('sends an actor as it was typed: the gateway matches an address or a key name to its actors', async () => {
    const onApply = vi.fn();
    render(<AuditFilters filter={{}} actions={null} onApply={onApply} />);
    await userEvent.type(screen.getByLabelText('Actor'), '  dana@example.com ');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(onApply).toHaveBeenLastCalledWith({
      actor: 'dana@example.com',
      action: undefined,
      target: undefined,
      outcome: undefined,
      from: undefined,
      to: undefined,
    });
  });

  it('shows the filter it is given, and the next one when the address changes', () => {
    const { rerender } = render(
      <AuditFilters
        filter={{ actor: 'user:a@example.com', outcome: 'failed' }}
        actions={null}
        onApply={vi.fn()}
      />,
    );
    expect(screen.getByLabelText<HTMLInputElement>('Actor').value).toBe('user:a@example.com');
    expect(screen.getByLabelText<HTMLSelectElement>('Outcome').value).toBe('failed');
    rerender(<AuditFilters filter={{ actor: 'user:b@example.com' }} actions={null} onApply={vi.fn()} />);
    expect(screen.getByLabelText<HTMLInputElement>('Actor').value).toBe('user:b@example.com');
    expect(screen.getByLabelText<HTMLSelectElement>('Outcome').value).toBe('');
  });

  it('clears every filter at once', async () => {
    const onApply = vi.fn();
    render(<AuditFilters filter={{ actor: 'user:a@example.com' }} actions={null} onApply={onApply} />);
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onApply).toHaveBeenLastCalledWith({});
  });
});
