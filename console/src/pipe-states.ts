import { useEffect, useRef, useState } from 'react';
import type { components } from '../../clients/typescript/src';
import { answer, errorMessage, type GatewayClient } from './gateway';

export type Pipe = components['schemas']['Pipe'];

export const POLL_INTERVAL_MS = 3_000;
/** The longest the first list waits for the event stream to open. */
export const LIST_WAITS_FOR_STREAM_MS = 2_000;

export type PipeCommand = 'start' | 'stop' | 'resync';

/** States a pipe rests in, not moving by itself: it can be started (again). */
const AT_REST = ['Stopped', 'Paused', 'Failed', 'Completed'];
/** States on the way to rest: stopping again is pointless. */
const COMING_TO_REST = ['Stopping', 'Pausing'];
/** Sources the service replicates from a database: only their pipes resync. */
const DATABASE_SOURCES = ['postgres', 'mysql', 'mongodb', 'bigquery'];

/**
 * The commands the pipes service takes in the pipe's state: start from rest, stop from any state
 * not at or coming to rest, resync for a database pipe running or at rest. An unknown state
 * offers nothing; the service decides in the end.
 */
export function commandsFor(pipe: Pipe): PipeCommand[] {
  const state = pipe.state;
  if (state === undefined || state === 'Unknown') return [];
  const commands: PipeCommand[] = [];
  if (AT_REST.includes(state)) commands.push('start');
  else if (!COMING_TO_REST.includes(state)) commands.push('stop');
  const fromDatabase = DATABASE_SOURCES.some((kind) => pipe.source?.[kind] != null);
  if (fromDatabase && ['Running', 'Paused', 'Stopped', 'Failed'].includes(state)) commands.push('resync');
  return commands;
}

export interface PipeStates {
  pipes: Pipe[] | null;
  problem: string | null;
  /** When the list was last read, or last changed by an event. */
  readAt: Date | null;
  /** Read again now (after a change made here), and follow on from the last event heard. */
  refresh: () => void;
}

/** One Server-Sent Event. */
interface StreamEvent {
  id: string | null;
  event: string;
  data: string;
}

interface PipeEventData {
  pipeId: string;
  pipe?: Pipe;
}

/**
 * A service's pipes with their current state: the one place the console learns of changes. It
 * follows the gateway's event stream while the page is visible, reading the list once the stream
 * is open (events heard meanwhile are applied on top of it), and falls back to reading the list
 * every few seconds when the stream cannot be had.
 */
export function usePipeStates(client: GatewayClient, organizationId: string, serviceId: string): PipeStates {
  const [pipes, setPipes] = useState<Pipe[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [readAt, setReadAt] = useState<Date | null>(null);
  const [round, setRound] = useState(0);
  // Kept across a refresh: the stream reopened resumes after it, so a change published while it
  // was closed (the end of the command that asked for the refresh) still arrives.
  const lastEvent = useRef<{ service: string; id: string } | null>(null);

  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    let following: AbortController | null = null;
    let polling = false;
    let reading = 0;
    // Reads are numbered as they start: an answer that comes after a later read's is older than it.
    let readsStarted = 0;
    let listShown = 0;
    // Events heard while the list is being read: applied on top of it once the last read is in.
    let heardWhileReading: StreamEvent[] | null = null;
    const service = `${organizationId}/${serviceId}`;
    let lastEventId = lastEvent.current?.service === service ? lastEvent.current.id : null;

    const read = async (): Promise<void> => {
      window.clearTimeout(timer);
      reading += 1;
      const number = ++readsStarted;
      if (!polling) heardWhileReading ??= [];
      try {
        const list = await answer(
          client.GET('/v1/organizations/{organizationId}/services/{serviceId}/pipes', {
            params: { path: { organizationId, serviceId } },
          }),
        );
        if (stopped) return;
        if (number > listShown) {
          listShown = number;
          setPipes(list.result);
        }
        setProblem(null);
        setReadAt(new Date());
      } catch (error) {
        if (!stopped) setProblem(errorMessage(error));
      }
      reading -= 1;
      if (reading === 0) {
        const heard = heardWhileReading ?? [];
        heardWhileReading = null;
        for (const event of heard) apply(event);
      }
      // A hidden tab asks nothing: it reads again when it is shown.
      if (polling && !stopped && document.visibilityState === 'visible')
        timer = window.setTimeout(() => void read(), POLL_INTERVAL_MS);
    };

    const apply = (event: StreamEvent): void => {
      if (heardWhileReading !== null) {
        heardWhileReading.push(event);
        return;
      }
      if (event.event === 'stream.reset') {
        void read();
        return;
      }
      if (!event.event.startsWith('pipe.')) return;
      // The stream delivers again: whatever failed before has passed.
      setProblem(null);
      const { pipeId, pipe } = JSON.parse(event.data) as PipeEventData;
      setPipes((current) => {
        if (current === null) return current;
        if (event.event === 'pipe.deleted') return current.filter((item) => item.id !== pipeId);
        if (pipe === undefined) return current;
        const at = current.findIndex((item) => item.id === pipeId);
        return at < 0 ? [...current, pipe] : current.map((item, index) => (index === at ? pipe : item));
      });
      setReadAt(new Date());
    };

    /** Follows the stream until it ends; resolves false when it could not be opened or broke. */
    const follow = async (controller: AbortController): Promise<boolean> => {
      // A proxy that holds the answer back must not hold the list back with it.
      const listAnyway =
        readsStarted > 0 ? undefined : window.setTimeout(() => void read(), LIST_WAITS_FOR_STREAM_MS);
      try {
        const { response } = await client
          .GET('/v1/organizations/{organizationId}/services/{serviceId}/pipes/events', {
            params: {
              path: { organizationId, serviceId },
              header: lastEventId === null ? undefined : { 'Last-Event-ID': lastEventId },
            },
            parseAs: 'stream',
            signal: controller.signal,
          })
          .finally(() => window.clearTimeout(listAnyway));
        if (!response.ok || response.body === null) return false;
        // Read once the stream is open, so that no change falls between the two; with nothing to
        // resume from, what changed while it was closed is only in the list.
        if (readsStarted === 0 || lastEventId === null) void read();
        for await (const event of serverSentEvents(response.body)) {
          if (event.event === 'stream.end') return true;
          if (event.id !== null) {
            lastEventId = event.id;
            lastEvent.current = { service, id: event.id };
          }
          apply(event);
        }
        return true;
      } catch {
        return controller.signal.aborted;
      }
    };

    const start = async (): Promise<void> => {
      while (!stopped && !polling && document.visibilityState === 'visible') {
        const controller = new AbortController();
        following = controller;
        const ended = await follow(controller);
        if (controller.signal.aborted) return;
        if (!ended) {
          // No stream (an older gateway, a proxy that buffers): read the list every few seconds.
          polling = true;
          heardWhileReading = null;
          void read();
        }
      }
    };

    const shown = (): void => {
      if (document.visibilityState === 'visible') void (polling ? read() : start());
      else {
        window.clearTimeout(timer);
        following?.abort();
      }
    };
    void start();
    document.addEventListener('visibilitychange', shown);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      following?.abort();
      document.removeEventListener('visibilitychange', shown);
    };
  }, [client, organizationId, serviceId, round]);

  return { pipes, problem, readAt, refresh: () => setRound((value) => value + 1) };
}

/** The events of a text/event-stream body, as the SSE format writes them. */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let id: string | null = null;
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = text;
        else if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
      if (data.length > 0) yield { id, event, data: data.join('\n') };
    }
  }
}
