import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, GatewayError } from './gateway';

/** What a page read: the value, whether a read is under way, why the last one failed. */
export interface Data<T> {
  /** The last value read for this source; kept while it is read again or after a read failed. */
  value: T | null;
  loading: boolean;
  /** Why the last read failed; null once one succeeds. */
  problem: string | null;
  /** Reads again now. */
  retry: () => void;
  /** Changes the value kept, after a change made on the page. */
  update: (change: (value: T | null) => T | null) => void;
}

/** A read of data, given the signal that cancels it when the page no longer needs it. */
export type Read<T> = (signal: AbortSignal) => Promise<T>;

/** Waits before each read again of a failing source: soon at first, then less often. */
export const RECOVERY_DELAYS_MS = [2_000, 5_000, 10_000, 30_000] as const;

/**
 * Failures that pass by themselves: no answer, the gateway or an upstream unavailable, a limit
 * reached. A refusal (403, 404, 400) stays until something changes.
 */
export function passes(error: unknown): boolean {
  if (!(error instanceof GatewayError)) return false;
  return error.status === null || error.status === 429 || error.status >= 500;
}

interface State<T> {
  source: Read<T> | null;
  value: T | null;
  problem: string | null;
  loading: boolean;
}

/**
 * Reads `read` when it is given (null reads nothing), again when it changes (keep its identity
 * with useCallback) and on `retry`. Leaving the page cancels the read under way. A failure that
 * passes by itself is read again after a while, as long as the page is shown, so a page recovers
 * from an outage on its own.
 */
export function useData<T>(read: Read<T> | null): Data<T> {
  const [state, setState] = useState<State<T>>({ source: null, value: null, problem: null, loading: false });
  const [attempt, setAttempt] = useState(0);
  const failures = useRef(0);

  useEffect(() => {
    if (read === null) return;
    const controller = new AbortController();
    let timer: number | undefined;
    const again = (): void => {
      if (document.visibilityState === 'visible') setAttempt((count) => count + 1);
      else document.addEventListener('visibilitychange', again, { once: true });
    };
    setState((last) =>
      last.source === read
        ? { ...last, loading: true }
        : { source: read, value: null, problem: null, loading: true },
    );
    read(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        failures.current = 0;
        setState({ source: read, value, problem: null, loading: false });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((last) => ({ ...last, problem: errorMessage(error), loading: false }));
        if (!passes(error)) return;
        const delay = RECOVERY_DELAYS_MS[Math.min(failures.current, RECOVERY_DELAYS_MS.length - 1)];
        failures.current += 1;
        timer = window.setTimeout(again, delay);
      },
    );
    return () => {
      controller.abort();
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', again);
    };
  }, [read, attempt]);

  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  const update = useCallback(
    (change: (value: T | null) => T | null) => setState((last) => ({ ...last, value: change(last.value) })),
    [],
  );
  const current = state.source === read && read !== null;
  return {
    value: current ? state.value : null,
    loading: read !== null && (!current || state.loading),
    problem: current ? state.problem : null,
    retry,
    update,
  };
}
