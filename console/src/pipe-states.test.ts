import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../../clients/typescript/src';
import { commandsFor, LIST_WAITS_FOR_STREAM_MS, type Pipe, usePipeStates } from './pipe-states';

const kinesis = { kinesis: { streamName: 'orders' } };
const postgres = { postgres: { host: 'db' } };

describe('the commands a pipe state allows', () => {
  it.each<[string, Pipe['source'], string[]]>([
    ['Running', kinesis, ['stop']],
    ['Provisioning', kinesis, ['stop']],
    ['Stopping', kinesis, []],
    ['Stopped', kinesis, ['start']],
    ['Failed', kinesis, ['start']],
    ['Running', postgres, ['stop', 'resync']],
    ['Paused', postgres, ['start', 'resync']],
    ['Pausing', postgres, []],
    ['Snapshot', postgres, ['stop']],
    ['Unknown', postgres, []],
  ])('%s, source %j: %j', (state, source, commands) => {
    expect(commandsFor({ id: 'p', state, source })).toEqual(commands);
  });
});

describe('usePipeStates', () => {
  const at = { organizationId: 'org', serviceId: 'svc' };
  const running: Pipe = { id: 'p1', name: 'clicks', state: 'Running' };
  const sse = (id: string, state: string): string =>
    `id: ${id}\nevent: pipe.state\ndata: ${JSON.stringify({ pipeId: 'p1', pipe: { ...running, state } })}\n\n`;

  /**
   * A gateway whose n-th list read answers `list(n)` and whose streams answer once `opened` has
   * resolved, send `replies[n]` to the n-th opener, then stay open. `calls` records each request in
   * order: the list's, or the Last-Event-ID a stream was opened with.
   */
  function fakeGateway(
    replies: ((lastEventId: string | null) => string)[],
    {
      list = () => Promise.resolve(running),
      opened = Promise.resolve(),
    }: { list?: (n: number) => Promise<Pipe>; opened?: Promise<void> } = {},
  ) {
    const calls: string[] = [];
    const fetch = async (request: Request): Promise<Response> => {
      if (!request.url.endsWith('/events')) {
        calls.push('list');
        return Response.json({
          status: 200,
          result: [await list(calls.filter((call) => call === 'list').length)],
        });
      }
      await opened;
      const lastEventId = request.headers.get('Last-Event-ID');
      const reply = replies[calls.filter((call) => call.startsWith('stream')).length](lastEventId);
      calls.push(`stream after ${lastEventId}`);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(reply));
          request.signal.addEventListener('abort', () => controller.error(new Error('aborted')));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    const client = createGatewayClient({ baseUrl: 'http://gateway.test', token: 't', fetch });
    return { client, calls };
  }

  it('reads the list once the stream is open, and applies what the stream brought meanwhile on top', async () => {
    // The list's answer is older than the change the stream told of while it was being read.
    let answerList = (): void => undefined;
    const gateway = fakeGateway([() => sse('e1', 'Stopped')], {
      list: () => new Promise<Pipe>((resolve) => (answerList = () => resolve(running))),
    });
    const { result } = renderHook(() => usePipeStates(gateway.client, at.organizationId, at.serviceId));
    await waitFor(() => expect(gateway.calls).toEqual(['stream after null', 'list']));
    act(() => answerList());
    await waitFor(() => expect(result.current.pipes?.[0].state).toBe('Stopped'));
  });

  it('follows on from the last event heard when read again, missing no change made meanwhile', async () => {
    // The stop's own event arrives, then the stream is reopened after the command: the change to
    // Stopped published while it was closed is replayed after the last event heard.
    const gateway = fakeGateway([
      () => sse('e1', 'Stopping'),
      (lastEventId) => (lastEventId === 'e1' ? sse('e2', 'Stopped') : ''),
    ]);
    const { result } = renderHook(() => usePipeStates(gateway.client, at.organizationId, at.serviceId));
    await waitFor(() => expect(result.current.pipes?.[0].state).toBe('Stopping'));
    act(() => result.current.refresh());
    await waitFor(() => expect(result.current.pipes?.[0].state).toBe('Stopped'));
    expect(gateway.calls).toEqual(['stream after null', 'list', 'stream after e1', 'list']);
  });

  it('reads the list anyway when the stream is slow to open, and never shows an older list over a newer', async () => {
    let open = (): void => undefined;
    let answerFirst = (): void => undefined;
    const gateway = fakeGateway([() => ''], {
      opened: new Promise<void>((resolve) => (open = resolve)),
      // The read made while waiting answers last, with what was true before the one made once open.
      list: (n: number) =>
        n === 1
          ? new Promise<Pipe>((resolve) => (answerFirst = () => resolve(running)))
          : Promise.resolve({ ...running, state: 'Stopped' }),
    });
    const { result } = renderHook(() => usePipeStates(gateway.client, at.organizationId, at.serviceId));
    await waitFor(() => expect(gateway.calls).toEqual(['list']), {
      timeout: LIST_WAITS_FOR_STREAM_MS + 1_000,
    });
    open();
    await waitFor(() => expect(result.current.pipes?.[0].state).toBe('Stopped'));
    act(() => answerFirst());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result.current.pipes?.[0].state).toBe('Stopped');
    expect(gateway.calls).toEqual(['list', 'stream after null', 'list']);
  });
});
