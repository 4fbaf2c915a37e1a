import { cpus, loadavg } from 'node:os';

export interface Machine {
  cpus: number;
  cpu: string | undefined;
  node: string;
  /** One-minute load average when the run started: others' work skews every figure. */
  loadAverageAtStart: number;
}

export function describeMachine(): Machine {
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    node: process.version,
    loadAverageAtStart: Math.round(loadavg()[0] * 100) / 100,
  };
  console.log(`${machine.cpus} cores, Node ${machine.node}, load average ${machine.loadAverageAtStart}`);
  if (machine.loadAverageAtStart > machine.cpus / 2) {
    console.log(
      'warning: the machine is busy with other work; absolute figures will be low, compare ratios only',
    );
  }
  return machine;
}
