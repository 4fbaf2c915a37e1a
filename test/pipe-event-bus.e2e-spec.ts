/**
 * The Postgres event bus on a real server: its one connection carries notifies and poller leases
 * at once, so they must take turns (pg deprecates overlapping queries on one client).
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { pollerLockOf, PostgresBus } from '../src/pipe-events/event-bus';
import type { PipeEvent } from '../src/pipe-events/pipe-event';
import { itWithPostgres, postgresUrl } from './support/skip';

describe('PostgresBus (e2e)', () => {
  itWithPostgres(
    'delivers notifies and leases sent at once, without overlapping queries, each event as published and in order',
    async () => {
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
      const bus = new PostgresBus(postgresUrl()!);
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
          // Quotes, backslashes, control characters and beyond the BMP: the payloads go as one JSON array.
          data: { pipeId: randomUUID(), source: 'gateway', pipe: { name: `p${index} "q" \\ \n\t {a,b} 😀` } },
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
        expect(received).toEqual(events);
        expect(mostAtOnce).toBe(1);
      } finally {
        spy.mockRestore();
        await bus.close();
      }
    },
  );

  itWithPostgres('leases keys apart that a 32-bit hash of the stream key would give one lock', async () => {
    // Two tenants' keys for one organization that the former lock key (a 31-multiplier string
    // hash to 32 bits) gave one lock: found offline by drawing random tenant and service ids until
    // two hashes met, some 73,000 draws.
    const organization = '00000000-0000-4000-8000-0000000000a1';
    const victim = `784b3480-183b-48c0-ba4e-38e75bf6db6c/${organization}/5438663a-7492-47a8-b70c-cff7d0daa8b4`;
    const squatter = `5e1fa3db-ca7e-45bd-88ad-dd1e7fa3b58d/${organization}/9f3e0973-a23d-4f17-8600-4789bb39c50a`;
    expect(oldLockId(victim)).toBe(oldLockId(squatter));
    // The migrator's and the legacy audit ends' locks are positive bigints: the leases never are.
    expect(BigInt(pollerLockOf(victim))).toBeLessThan(0n);
    expect(BigInt(pollerLockOf(squatter))).toBeLessThan(0n);

    const replicas = [new PostgresBus(postgresUrl()!), new PostgresBus(postgresUrl()!)];
    try {
      await Promise.all(replicas.map((bus) => bus.start(() => undefined)));
      const [a, b] = replicas;
      expect(await b.hold(squatter)).toBe(true);
      expect(await a.hold(victim)).toBe(true);
      // Each lease is still one replica's.
      expect(await a.hold(squatter)).toBe(false);
      expect(await b.hold(victim)).toBe(false);
      await b.release(squatter);
      expect(await a.hold(squatter)).toBe(true);
    } finally {
      await Promise.all(replicas.map((bus) => bus.close()));
    }
  });
});

/** The lock key the leases had before: a 32-bit string hash anyone can find collisions of. */
function oldLockId(key: string): number {
  let hash = 0;
  for (let index = 0; index < key.length; index++) hash = (Math.imul(hash, 31) + key.charCodeAt(index)) | 0;
  return hash;
}
