import { useEffect, useState } from 'react';
import type { components } from '../../clients/typescript/src';
import { answer, errorMessage, type GatewayClient } from './gateway';

export type Pipe = components['schemas']['Pipe'];

export const POLL_INTERVAL_MS = 3_000;

export interface PipeStates {
  pipes: Pipe[] | null;
  problem: string | null;
  /** When the list was last read. */
  readAt: Date | null;
  /** Read again now (after a change made here). */
  refresh: () => void;
}

/**
 * A service's pipes with their current state: the one place the console learns of changes. It
 * reads the list every few seconds while the page is visible; an event stream can replace the
 * polling here without the pages noticing.
 */
export function usePipeStates(client: GatewayClient, organizationId: string, serviceId: string): PipeStates {
  const [pipes, setPipes] = useState<Pipe[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [readAt, setReadAt] = useState<Date | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const read = async (): Promise<void> => {
      window.clearTimeout(timer);
      try {
        const list = await answer(
          client.GET('/v1/organizations/{organizationId}/services/{serviceId}/pipes', {
            params: { path: { organizationId, serviceId } },
          }),
        );
        if (stopped) return;
        setPipes(list.result);
        setProblem(null);
        setReadAt(new Date());
      } catch (error) {
        if (!stopped) setProblem(errorMessage(error));
      }
      // A hidden tab asks nothing: it reads again when it is shown.
      if (!stopped && document.visibilityState === 'visible')
        timer = window.setTimeout(() => void read(), POLL_INTERVAL_MS);
    };
    const shown = (): void => {
      if (document.visibilityState === 'visible') void read();
      else window.clearTimeout(timer);
    };
    void read();
    document.addEventListener('visibilitychange', shown);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, [client, organizationId, serviceId, round]);

  return { pipes, problem, readAt, refresh: () => setRound((value) => value + 1) };
}
