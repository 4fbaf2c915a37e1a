import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import type { Message } from '../lib/processes';

export interface ProfileStart extends Message {
  type: 'profile-start';
  /** Sample allocations (a .heapprofile) instead of CPU time (a .cpuprofile). */
  allocations: boolean;
}

export interface ProfileStop extends Message {
  type: 'profile-stop';
  /** Where the profile goes. */
  path: string;
}

/**
 * V8's sampling CPU profiler (what --cpu-prof uses) or its sampling allocation profiler, started
 * and stopped on request so the profile covers the measured load only, not start-up and module
 * loading.
 */
export class Profiler {
  private readonly session = new Session();
  private allocations = false;

  constructor() {
    this.session.connect();
  }

  async handle(message: Message): Promise<Message> {
    if (message.type === 'profile-start') {
      this.allocations = (message as ProfileStart).allocations;
      if (this.allocations) {
        await this.post('HeapProfiler.enable');
        // Garbage included: what a request allocates matters, not only what outlives it.
        await this.post('HeapProfiler.startSampling', {
          samplingInterval: 8192,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: true,
        });
      } else {
        await this.post('Profiler.enable');
        await this.post('Profiler.start');
      }
      return { type: 'profiling' };
    }
    if (message.type === 'profile-stop') {
      const { profile } = (await this.post(
        this.allocations ? 'HeapProfiler.stopSampling' : 'Profiler.stop',
      )) as { profile: unknown };
      writeFileSync((message as ProfileStop).path, JSON.stringify(profile));
      return { type: 'profiled' };
    }
    throw new Error(`unknown request ${message.type}`);
  }

  private post(method: string, params?: object): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }
}
