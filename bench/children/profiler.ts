import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import type { Message } from '../lib/processes';

export interface ProfileStop extends Message {
  type: 'profile-stop';
  /** Where the .cpuprofile goes. */
  path: string;
}

/**
 * V8's sampling CPU profiler (what --cpu-prof uses), started and stopped on request so the profile
 * covers the measured load only, not start-up and module loading.
 */
export class Profiler {
  private readonly session = new Session();

  constructor() {
    this.session.connect();
  }

  async handle(message: Message): Promise<Message> {
    if (message.type === 'profile-start') {
      await this.post('Profiler.enable');
      await this.post('Profiler.start');
      return { type: 'profiling' };
    }
    if (message.type === 'profile-stop') {
      const { profile } = (await this.post('Profiler.stop')) as { profile: unknown };
      writeFileSync((message as ProfileStop).path, JSON.stringify(profile));
      return { type: 'profiled' };
    }
    throw new Error(`unknown request ${message.type}`);
  }

  private post(method: string): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  }
}
