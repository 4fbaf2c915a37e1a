import type { Message } from '../lib/processes';

export interface RunningChild {
  ready: Message;
  stop(): Promise<void>;
  /** Answers a request from the runner. */
  handle?(message: Message): Promise<Message>;
}

/**
 * The child side of processes.ts: reports `ready` (or the start-up error) over IPC, answers
 * requests, and stops cleanly on SIGTERM or when the runner goes away, so none outlives a run.
 */
export function serveChild(start: () => Promise<RunningChild>): void {
  const send = (message: object): void => {
    if (process.connected) process.send?.(message);
  };
  start()
    .then((running) => {
      let stopping = false;
      const stop = (): void => {
        if (stopping) return;
        stopping = true;
        void running.stop().finally(() => process.exit(0));
      };
      process.on('SIGTERM', stop);
      process.on('disconnect', stop);
      process.on('message', (message: Message) => {
        if (!running.handle) return;
        running.handle(message).then(send, (error: unknown) => send({ type: 'error', error: String(error) }));
      });
      send(running.ready);
    })
    .catch((error: unknown) => {
      send({ type: 'error', error: error instanceof Error ? error.message : String(error) });
      process.exit(1);
    });
}
