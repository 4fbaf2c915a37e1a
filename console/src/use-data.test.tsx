import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useCallback } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorNote } from './components/common';
import { GatewayError } from './gateway';
import { RECOVERY_DELAYS_MS, useData, type Read } from './use-data';

/** A page that shows what `read` gives, or why it failed, with "Try again". */
function Reader({ read }: { read: Read<string> }) {
  const data = useData(useCallback((signal: AbortSignal) => read(signal), [read]));
  return (
    <>
      <ErrorNote message={data.problem} onRetry={data.retry} />
      {data.value !== null && <p>read: {data.value}</p>}
      {data.loading && <p>loading</p>}
    </>
  );
}

const unavailable = (): GatewayError => new GatewayError('The pipes API is unavailable.', 503, null);

afterEach(() => vi.useRealTimers());

describe('useData', () => {
  it('shows the value once read', async () => {
    render(<Reader read={() => Promise.resolve('ok')} />);
    expect(screen.getByText('loading')).toBeDefined();
    expect(await screen.findByText('read: ok')).toBeDefined();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('says why a read failed and reads again on "Try again"', async () => {
    const read = vi
      .fn<Read<string>>()
      .mockRejectedValueOnce(new GatewayError('You do not have the role this needs.', 403, null))
      .mockResolvedValueOnce('second');
    render(<Reader read={read} />);
    expect((await screen.findByRole('alert')).textContent).toContain('You do not have the role this needs.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('read: second')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('recovers by itself from a failure that passes, and not from a refusal', async () => {
    vi.useFakeTimers();
    const passing = vi.fn<Read<string>>().mockRejectedValueOnce(unavailable()).mockResolvedValue('back');
    const { unmount } = render(<Reader read={passing} />);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('alert').textContent).toContain('unavailable');
    await act(() => vi.advanceTimersByTimeAsync(RECOVERY_DELAYS_MS[0]));
    expect(screen.getByText('read: back')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
    unmount();

    const refused = vi.fn<Read<string>>().mockRejectedValue(new GatewayError('No such pipe.', 404, null));
    render(<Reader read={refused} />);
    await act(() => vi.advanceTimersByTimeAsync(RECOVERY_DELAYS_MS[RECOVERY_DELAYS_MS.length - 1] * 2));
    expect(refused).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert').textContent).toContain('No such pipe.');
  });

  it('cancels the read under way when the page is left', async () => {
    let signal: AbortSignal | null = null;
    const { unmount } = render(
      <Reader
        read={(given) => {
          signal = given;
          return new Promise<string>(() => undefined);
        }}
      />,
    );
    await act(() => Promise.resolve());
    expect(signal!.aborted).toBe(false);
    unmount();
    expect(signal!.aborted).toBe(true);
  });
});
