import { useState } from 'react';
import { ConfirmButton } from '../../components/common';
import { useConsole } from '../../console-context';
import { answer, errorMessage } from '../../gateway';
import { commandsFor, type Pipe, type PipeCommand } from '../../pipe-states';
import type { Service } from '../pipes';

const VERB: Record<PipeCommand, string> = { start: 'Start', stop: 'Stop', resync: 'Resync' };

/** Sends pipe commands, saying what was sent and why the service refused one. */
export function usePipeCommands({ organizationId, serviceId }: Service, onSent: () => void) {
  const { client } = useConsole();
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const send = (pipe: Pipe, command: PipeCommand): void => {
    void (async () => {
      setProblem(null);
      setSent(null);
      try {
        await answer(
          client.PATCH('/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/state', {
            params: { path: { organizationId, serviceId, pipeId: pipe.id! } },
            body: { command },
          }),
        );
        setSent(`${VERB[command]} sent to ${pipe.name ?? pipe.id}.`);
        onSent();
      } catch (error) {
        setProblem(`${VERB[command]} ${pipe.name ?? pipe.id}: ${errorMessage(error)}`);
      }
    })();
  };
  return { send, problem, sent };
}

/**
 * The commands the pipe's state allows, each a button; stopping asks first, since the pipe's data
 * stops flowing until someone starts it again.
 */
export function PipeCommandButtons({
  pipe,
  onCommand,
  small,
}: {
  pipe: Pipe;
  onCommand: (pipe: Pipe, command: PipeCommand) => void;
  small?: boolean;
}) {
  const name = pipe.name ?? pipe.id ?? 'the pipe';
  const shape = small ? 'secondary small' : 'secondary';
  return (
    <>
      {commandsFor(pipe).map((command) =>
        command === 'stop' ? (
          <ConfirmButton
            key={command}
            tone="plain"
            className={shape}
            label={small ? `Stop ${name}` : undefined}
            question={`Stop ${name}? Its data stops flowing until it is started again.`}
            onConfirm={() => onCommand(pipe, command)}
          >
            Stop
          </ConfirmButton>
        ) : (
          <button
            key={command}
            type="button"
            className={shape}
            aria-label={small ? `${VERB[command]} ${name}` : undefined}
            onClick={() => onCommand(pipe, command)}
          >
            {VERB[command]}
          </button>
        ),
      )}
    </>
  );
}
