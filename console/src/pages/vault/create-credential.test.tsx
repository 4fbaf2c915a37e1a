import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeConsole, json, problem, renderInConsole } from '../../test-support/console';
import { CreateCredential } from './create-credential';

const valueOf = (label: string): string => screen.getByLabelText<HTMLInputElement>(label).value;

describe('adding a credential', () => {
  it('keeps what was typed when refused, never the secret, and names the field by its label', async () => {
    const context = fakeConsole(() =>
      problem(400, 'The request has invalid fields.', [
        { path: 'organizationId', message: 'must be a UUID' },
      ]),
    );
    renderInConsole(<CreateCredential onCreated={vi.fn()} />, context);
    await userEvent.click(screen.getByLabelText('Pipes API key'));
    await userEvent.type(screen.getByLabelText('Name'), 'pipes-main');
    await userEvent.type(screen.getByLabelText('Organization id'), 'not-a-uuid');
    await userEvent.type(screen.getByLabelText('Key id'), 'key-1');
    await userEvent.type(screen.getByLabelText('Key secret'), 'very-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Add to the vault' }));

    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('li')?.textContent).toBe('Organization id must be a UUID');
    expect([valueOf('Name'), valueOf('Organization id'), valueOf('Key id'), valueOf('Key secret')]).toEqual([
      'pipes-main',
      'not-a-uuid',
      'key-1',
      '',
    ]);
    expect(document.body.innerHTML).not.toContain('very-secret');
    const sent = (await context.requests[0].clone().json()) as { keySecret: string };
    expect(sent.keySecret).toBe('very-secret');
  });

  it('says what was added, empties the form, and clears the message when the next one starts', async () => {
    const onCreated = vi.fn();
    const context = fakeConsole(() => json({ id: 'c1', kind: 'secret', name: 'warehouse' }, 201));
    renderInConsole(<CreateCredential onCreated={onCreated} />, context);
    await userEvent.type(screen.getByLabelText('Name'), 'warehouse');
    await userEvent.type(screen.getByLabelText('Value'), 's3cret');
    await userEvent.click(screen.getByRole('button', { name: 'Add to the vault' }));
    await screen.findByText('warehouse is in the vault. Its value will not be shown again.');
    expect(onCreated).toHaveBeenCalledOnce();
    expect([valueOf('Name'), valueOf('Value')]).toEqual(['', '']);

    await userEvent.type(screen.getByLabelText('Name'), 'n');
    expect(screen.queryByText(/is in the vault/)).toBeNull();
  });

  it('says so when the gateway cannot be reached, keeping the name', async () => {
    renderInConsole(
      <CreateCredential onCreated={vi.fn()} />,
      fakeConsole(() => null),
    );
    await userEvent.type(screen.getByLabelText('Name'), 'warehouse');
    await userEvent.type(screen.getByLabelText('Value'), 's3cret');
    await userEvent.click(screen.getByRole('button', { name: 'Add to the vault' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The gateway could not be reached');
    expect(valueOf('Name')).toBe('warehouse');
    expect(valueOf('Value')).toBe('');
  });
});
