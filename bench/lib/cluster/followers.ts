import { type ClientRequest, request } from 'node:http';
import { EventParser, type ReceivedEvent } from '../../../test/support/event-stream';

/** What one reader of a service's event stream saw over all its connections. */
export interface FollowerTally {
  /** Ids of the events received, in order, over every connection. */
  ids: string[];
  /** For each id, the connection it came on (0 the first): places a repeat on one or across two. */
  connectionOf: number[];
  /** Every event that carried its pipe, in order: the pipe and the state it had then. */
  states: [pipeId: string, state: string][];
  /** `stream.end` events received, by reason. */
  ends: Record<string, number>;
  /** Connections that ended without `stream.end` (the replica was killed). */
  cuts: number;
  /** `stream.reset` events: a resume the gateway could not make exact. */
  resets: number;
  /** Connections after the first, each resuming from the last id received. */
  resumes: number;
  /** How many ids had been received when each resume began, to place a problem found later. */
  resumedAt: number[];
  /** Attempts to open that were answered with another status than 200 (0: no answer), by status. */
  refusedOpens: Record<string, number>;
}

/**
 * A reader of one service's pipe event stream through the balancer, as a client following the
 * documentation would be: whenever a connection ends (with `stream.end`, or cut), it opens another
 * with `Last-Event-ID`, after a short random pause, so the readers of a stopped replica do not all
 * come back in the same millisecond.
 */
export class Follower {
  readonly tally: FollowerTally = {
    ids: [],
    connectionOf: [],
    states: [],
    ends: {},
    cuts: 0,
    resets: 0,
    resumes: 0,
    resumedAt: [],
    refusedOpens: {},
  };
  private lastEventId: string | null = null;
  private current: ClientRequest | null = null;
  private connections = 0;
  private stopped = false;
  private opened: (() => void) | null = null;

  constructor(
    private readonly baseUrl: string,
    readonly path: string,
    private readonly authorization: string,
  ) {}

  /** Opens the stream; resolves once the first connection is answered 200. */
  start(): Promise<void> {
    return new Promise((resolve) => {
      this.opened = resolve;
      this.connect();
    });
  }

  stop(): void {
    this.stopped = true;
    this.current?.destroy();
  }

  private connect(): void {
    if (this.stopped) return;
    let connected = false;
    let finished = false;
    // Whatever ends this connection (its end, a cut, an error), the next one is opened once.
    const finish = (outcome: 'ended' | 'cut' | 'refused', status = 0): void => {
      if (finished) return;
      finished = true;
      if (outcome === 'cut' && !this.stopped) this.tally.cuts++;
      if (outcome === 'refused') this.tally.refusedOpens[status] = (this.tally.refusedOpens[status] ?? 0) + 1;
      setTimeout(() => this.connect(), 50 + Math.random() * 250).unref();
    };
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      authorization: this.authorization,
      ...(this.lastEventId === null ? {} : { 'last-event-id': this.lastEventId }),
    };
    const outgoing = request(`${this.baseUrl}${this.path}`, { headers, agent: false });
    this.current = outgoing;
    outgoing.on('error', () => finish(connected ? 'cut' : 'refused'));
    outgoing.on('response', (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        response.on('close', () => finish('refused', response.statusCode));
        return;
      }
      connected = true;
      if (this.connections++ > 0) {
        this.tally.resumes++;
        this.tally.resumedAt.push(this.tally.ids.length);
      }
      this.opened?.();
      this.opened = null;
      const parser = new EventParser();
      let ended = false;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        for (const event of parser.push(chunk)) ended = this.received(event) || ended;
      });
      response.on('close', () => finish(ended ? 'ended' : 'cut'));
    });
    outgoing.end();
  }

  /** Tallies an event; true when it ends the stream. */
  private received(event: ReceivedEvent): boolean {
    if (event.event === 'stream.end') {
      const reason = String(event.data?.reason);
      this.tally.ends[reason] = (this.tally.ends[reason] ?? 0) + 1;
      return true;
    }
    if (event.event === 'stream.reset') this.tally.resets++;
    else if (event.id !== null) {
      this.tally.ids.push(event.id);
      this.tally.connectionOf.push(this.connections - 1);
      this.lastEventId = event.id;
      const state: unknown = event.data.pipe?.state;
      if (typeof state === 'string') this.tally.states.push([event.data.pipeId, state]);
    }
    return false;
  }
}

/** What the readers of one service missed, repeated or could not resume, measured against each other. */
export interface StreamCheck {
  followers: number;
  /** Distinct events the service's readers received between them. */
  events: number;
  /** Events another reader received after this one's first and this one did not, summed over readers. */
  missed: number;
  /** Events received twice by one reader, summed. */
  repeated: number;
  /** Readers whose events came in another order than the others'. */
  outOfOrder: number;
  resets: number;
  resumes: number;
  cuts: number;
  ends: Record<string, number>;
  refusedOpens: Record<string, number>;
  /** A few readers' first problem: where in its ids, what, and where its resumes began. */
  samples: string[];
}

/**
 * The readers of one service all hear one sequence of events (the bus gives one order to every
 * replica), each from when it first connected: each reader's ids must be that sequence from its
 * first id on, with nothing missing, repeated or reordered, across every resume. `services` holds
 * the readers of each service; the counts are summed over them.
 */
export function checkStreams(services: FollowerTally[][]): StreamCheck {
  const check: StreamCheck = {
    followers: 0,
    events: 0,
    missed: 0,
    repeated: 0,
    outOfOrder: 0,
    resets: 0,
    resumes: 0,
    cuts: 0,
    ends: {},
    refusedOpens: {},
    samples: [],
  };
  for (const tallies of services.filter((group) => group.length > 0)) {
    const reference = tallies.reduce((longest, tally) =>
      new Set(tally.ids).size > new Set(longest.ids).size ? tally : longest,
    ).ids;
    const position = new Map(reference.map((id, index) => [id, index]));
    check.followers += tallies.length;
    check.events += new Set(tallies.flatMap((tally) => tally.ids)).size;
    for (const tally of tallies) {
      const seen = new Set(tally.ids);
      check.repeated += tally.ids.length - seen.size;
      const first = tally.ids.length === 0 ? reference.length : (position.get(tally.ids[0]) ?? 0);
      check.missed += reference.slice(first).filter((id) => !seen.has(id)).length;
      const order = tally.ids.map((id) => position.get(id) ?? -1);
      const wrong = order.findIndex((at, index) => at < 0 || (index > 0 && at <= order[index - 1]));
      if (wrong >= 0) {
        check.outOfOrder++;
        if (check.samples.length < 5) {
          const first = tally.ids.indexOf(tally.ids[wrong]);
          check.samples.push(
            `${tally.ids[wrong]} at ${wrong} on connection ${tally.connectionOf[wrong]} ` +
              `(reference position ${order[wrong]}, the one before ${order[wrong - 1]}; ` +
              `${first < wrong ? `also at ${first} on connection ${tally.connectionOf[first]}` : 'once'}); ` +
              `resumes at ${tally.resumedAt.join(', ')}`,
          );
        }
      }
      check.resets += tally.resets;
      check.resumes += tally.resumes;
      check.cuts += tally.cuts;
      addCounts(check.ends, tally.ends);
      addCounts(check.refusedOpens, tally.refusedOpens);
    }
  }
  return check;
}

function addCounts(into: Record<string, number>, counts: Record<string, number>): void {
  for (const [name, count] of Object.entries(counts)) into[name] = (into[name] ?? 0) + count;
}

/** A state set upstream, as the provider's console would, that the service's readers must hear of. */
export interface UpstreamChange {
  pipeId: string;
  state: string;
}

/**
 * How many of the changes made upstream on one service no reader heard of: each pipe's changes,
 * in the order made, must be among the states its events carried to the reader that heard the
 * most (a write's event carries the pipe too, with a state set upstream just before).
 */
export function missedChanges(tallies: FollowerTally[], changes: UpstreamChange[]): number {
  if (tallies.length === 0) return changes.length;
  const heard = tallies.reduce((most, tally) => (tally.ids.length > most.ids.length ? tally : most)).states;
  let missed = 0;
  for (const pipeId of new Set(changes.map((change) => change.pipeId))) {
    const reported = heard.filter(([id]) => id === pipeId).map(([, state]) => state);
    let at = 0;
    for (const change of changes.filter((each) => each.pipeId === pipeId)) {
      const found = reported.indexOf(change.state, at);
      if (found < 0) missed++;
      else at = found + 1;
    }
  }
  return missed;
}
