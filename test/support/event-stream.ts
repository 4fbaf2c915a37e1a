import { request as httpRequest, type IncomingMessage } from 'node:http';

export interface ReceivedEvent {
  id: string | null;
  event: string;
  data: any;
}

/**
 * Server-Sent Events text taken apart as it arrives: `push` gives the events each chunk completes
 * (those with data), and comment-only blocks (heartbeats) are counted.
 */
export class EventParser {
  private buffer = '';
  comments = 0;

  push(chunk: string): ReceivedEvent[] {
    this.buffer += chunk;
    const completed: ReceivedEvent[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let id: string | null = null;
      let event = 'message';
      const data: string[] = [];
      let fields = 0;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const [field, ...rest] = line.split(':');
        const value = rest.join(':').replace(/^ /, '');
        fields++;
        if (field === 'id') id = value;
        else if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (fields === 0) {
        this.comments++;
        continue;
      }
      if (data.length > 0) completed.push({ id, event, data: JSON.parse(data.join('\n')) });
    }
    return completed;
  }
}

export interface OpenStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** Every event received so far, in order (comment lines are counted in `comments`). */
  events: ReceivedEvent[];
  comments: number;
  /** The body as text, for an answer that is not a stream. */
  text(): string;
  /** Resolves with the first event (after those already received) that `matches`. */
  next(matches?: (event: ReceivedEvent) => boolean, timeoutMs?: number): Promise<ReceivedEvent>;
  ended: Promise<void>;
  close(): void;
}

/** Opens `path` on `baseUrl` as an event stream, with `headers`, over real HTTP. */
export function openStream(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { headers: { accept: 'text/event-stream', ...headers } });
    req.on('error', reject);
    req.on('response', (response) => {
      let body = '';
      const events: ReceivedEvent[] = [];
      const waiters: {
        from: number;
        matches: (event: ReceivedEvent) => boolean;
        resolve: (e: ReceivedEvent) => void;
      }[] = [];
      const stream: OpenStream = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        events,
        comments: 0,
        text: () => body,
        next: (matches = () => true, timeoutMs = 5_000) =>
          new Promise((done, fail) => {
            const found = events.slice(consumed).find(matches);
            if (found) {
              consumed = events.indexOf(found) + 1;
              done(found);
              return;
            }
            const timer = setTimeout(
              () =>
                fail(
                  new Error(
                    `no matching event within ${timeoutMs} ms; got ${JSON.stringify(events.map((event) => event.event))}`,
                  ),
                ),
              timeoutMs,
            );
            waiters.push({
              from: events.length,
              matches,
              resolve: (event) => {
                clearTimeout(timer);
                consumed = events.indexOf(event) + 1;
                done(event);
              },
            });
          }),
        ended: new Promise((done) => {
          response.on('end', () => done());
          response.on('close', () => done());
          response.on('error', () => done());
        }),
        close: () => req.destroy(),
      };
      let consumed = 0;
      const parser = new EventParser();
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        // The body is kept for an answer that is not a stream (a refusal); a stream's is parsed only.
        if (stream.status !== 200) body += chunk;
        for (const received of parser.push(chunk)) {
          events.push(received);
          for (const waiter of [...waiters]) {
            if (waiter.matches(received)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(received);
            }
          }
        }
        stream.comments = parser.comments;
      });
      resolve(stream);
    });
    req.end();
  });
}
