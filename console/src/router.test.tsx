import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { navigate, useRoute } from './router';

/** A checkbox whose state lives in the address, as the audit page's filters do. */
function AddressCheckbox() {
  const route = useRoute();
  const checked = route.query === 'hide=yes';
  return (
    <label>
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => navigate(event.target.checked ? '#/audit?hide=yes' : '#/audit')}
      />
      Hide
    </label>
  );
}

afterEach(() => {
  window.location.hash = '';
});

describe('useRoute', () => {
  it('follows an address set by navigate in the same task: a checkbox shows its new state as clicked', () => {
    navigate('#/audit');
    render(<AddressCheckbox />);
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Hide' });
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    expect(window.location.hash).toBe('#/audit?hide=yes');
    fireEvent.click(box);
    expect(box.checked).toBe(false);
  });

  it('follows an address changed elsewhere (a link, Back) at its hashchange', async () => {
    navigate('#/audit');
    render(<AddressCheckbox />);
    window.location.hash = '#/audit?hide=yes';
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Hide' });
    await expect.poll(() => box.checked).toBe(true);
  });
});
