/**
 * The Postgres event bus on a real server: its one connection carries notifies and poller leases
 * at once, so they must take turns (pg deprecates overlapping queries on one client).
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { PostgresBus } from '../src/pipe-events/event-bus';
import type { PipeEvent } from '../src/pipe-events/pipe-event';
import { itIf, NEEDS_POSTGRES } from './support/skip';

const itWithPostgres = itIf(process.env.DATABASE_URL !== undefined, NEEDS_POSTGRES);

describe('PostgresBus (e2e)', () => {
  itWithPostgres('delivers notifies and leases sent at once, without overlapping queries', async () => {
    // Queries running at once on any pg client of this test: the bus's connection is the only one.
    let running = 0;
    let mostAtOnce = 0;
    const query = Client.prototype.query as (...args: unknown[]) => unknown;
    const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (
      this: Client,
      ...args: unknown[]
    ) {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      const result = query.apply(this, args);
      if (result instanceof Promise) void result.finally(() => running--).catch(() => undefined);
      else running--;
      return result as never;
    });
    const received: PipeEvent[] = [];
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const ours = new Set<string>(ids);
    const bus = new PostgresBus(process.env.DATABASE_URL!);
    try {
      // Other suites' gateways notify on the same channel of the same database: only ours count.
      await bus.start((event) => {
        if (ours.has(event.id)) received.push(event);
      });
      const at = { organizationId: randomUUID(), serviceId: randomUUID() };
      const events: PipeEvent[] = Array.from({ length: 20 }, (_, index) => ({
        id: ids[index],
        type: 'pipe.updated',
        tenantId: randomUUID(),
        at,
        data: { pipeId: randomUUID(), source: 'gateway' },
      }));
      const keys = Array.from({ length: 10 }, () => randomUUID());
      const [, held] = await Promise.all([
        Promise.all(events.map((event) => bus.publish(event))),
        Promise.all(keys.map((key) => bus.hold(key))),
      ]);
      expect(held).toEqual(keys.map(() => true));
      await Promise.all(keys.map((key) => bus.release(key)));
      for (let waited = 0; received.length < events.length && waited < 5_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received.map((event) => event.id).sort()).toEqual(events.map((event) => event.id).sort());
      expect(mostAtOnce).toBe(1);
    } finally {
      spy.mockRestore();
      await bus.close();
    }
  });
});
