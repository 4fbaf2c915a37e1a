import { describe, expect, it } from 'vitest';
import { commandsFor, type Pipe } from './pipe-states';

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
