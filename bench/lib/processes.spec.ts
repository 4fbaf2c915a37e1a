import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { stopWithin } from './processes';

/** A Node child that prints "ready" once running (and, with `ignoreTerm`, ignoring SIGTERM). */
async function startChild(ignoreTerm: boolean) {
  const script = `${ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1000); console.log('ready');`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout, 'data');
  return child;
}

const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('stopWithin', () => {
  it('waits for a child that ends on the signal, and leaves no timer holding the process up', async () => {
    const child = await startChild(false);
    const before = timers();
    await expect(stopWithin(child, 'SIGTERM', 60_000)).resolves.toBe(true);
    expect(child.signalCode).toBe('SIGTERM');
    expect(timers()).toBe(before);
  });

  it('kills a child still running when the time is up', async () => {
    const child = await startChild(true);
    await expect(stopWithin(child, 'SIGTERM', 200)).resolves.toBe(false);
    expect(child.signalCode).toBe('SIGKILL');
  });
});
