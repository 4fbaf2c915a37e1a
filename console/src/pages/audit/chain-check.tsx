import { useState, type FormEvent } from 'react';
import type { components } from '../../../../clients/typescript/src';
import { ErrorNote, JsonBlock } from '../../components/common';
import { useConsole } from '../../console-context';
import { answer, errorMessage } from '../../gateway';
import { formText } from '../../form';
import { saveFile } from '../../save-file';

type Verification = components['schemas']['ChainVerificationView'];
type Checkpoint = components['schemas']['AuditCheckpointView'];

/** A kept checkpoint as the person copies or saves it: the JSON the verify form takes back. */
function checkpointText(checkpoint: Checkpoint): string {
  return `${JSON.stringify(checkpoint, null, 2)}\n`;
}

/** The checkpoint just taken, with the ways to keep it outside the gateway. */
function TakenCheckpoint({ checkpoint }: { checkpoint: Checkpoint }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = (): void => {
    navigator.clipboard.writeText(checkpointText(checkpoint)).then(
      () => setCopied('Copied: paste it where you keep checkpoints.'),
      () => setCopied('The browser did not allow copying: select the text below, or download it.'),
    );
  };
  const download = (): void =>
    saveFile(
      new Blob([checkpointText(checkpoint)], { type: 'application/json' }),
      `audit-checkpoint-seq-${checkpoint.seq}.json`,
    );
  return (
    <>
      <h3>Checkpoint at seq {checkpoint.seq}</h3>
      <p>Keep it somewhere the gateway's database administrators cannot write, then paste it below later.</p>
      <div className="actions">
        <button type="button" className="secondary" onClick={copy}>
          Copy the checkpoint
        </button>
        <button type="button" className="secondary" onClick={download}>
          Download the checkpoint
        </button>
        <span role="status" className="muted">
          {copied}
        </span>
      </div>
      <JsonBlock value={checkpoint} label="The checkpoint" />
    </>
  );
}

/** Verifies the hash chain, whole or against a checkpoint kept outside the gateway. */
export function ChainCheck() {
  const { client } = useConsole();
  const [result, setResult] = useState<Verification | null>(null);
  const [checkpoint, setCheckpoint] = useState<Checkpoint | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const verifyWhole = () =>
    run(async () => {
      setResult(null);
      setResult(await answer(client.GET('/v1/audit/verify')));
    });
  const takeCheckpoint = () =>
    run(async () => {
      setCheckpoint(await answer(client.GET('/v1/audit/checkpoint')));
    });
  const verifyFrom = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const text = formText(new FormData(event.currentTarget), 'checkpoint');
    void run(async () => {
      let kept: Checkpoint;
      try {
        kept = JSON.parse(text) as Checkpoint;
      } catch {
        throw new Error('The checkpoint is not JSON: paste it exactly as it was taken.');
      }
      setResult(null);
      setResult(await answer(client.POST('/v1/audit/verify', { body: { checkpoint: kept } })));
    });
  };

  return (
    <section aria-labelledby="chain-title">
      <h2 id="chain-title">Chain verification</h2>
      <p>
        Recomputes every event's hash from the start of the chain. To find newest events cut off, verify
        against a checkpoint you kept outside the gateway.
      </p>
      <div className="actions">
        <button type="button" onClick={() => void verifyWhole()} disabled={busy}>
          Verify the whole chain
        </button>
        <button type="button" className="secondary" onClick={() => void takeCheckpoint()} disabled={busy}>
          Take a checkpoint
        </button>
      </div>
      {busy && <p role="status">Working…</p>}
      <ErrorNote message={problem} />
      <div aria-live="polite">
        {result &&
          (result.ok ? (
            <p className="verdict good">
              <strong>ok</strong>: the chain is intact — {result.checked} events checked, up to seq{' '}
              {result.lastSeq}
              {result.checkpoint
                ? `; the checkpoint at seq ${result.checkpoint.seq} was ${result.checkpoint.status}`
                : ''}
              .
            </p>
          ) : (
            <p className="verdict bad">
              <strong>Broken at seq {result.firstBadSeq}</strong>: {result.reason}.
            </p>
          ))}
      </div>
      {checkpoint && <TakenCheckpoint checkpoint={checkpoint} />}
      <form onSubmit={verifyFrom} className="stack">
        <label htmlFor="checkpoint">A kept checkpoint (JSON)</label>
        <textarea id="checkpoint" name="checkpoint" rows={4} required spellCheck={false} />
        <button type="submit" disabled={busy}>
          Verify against this checkpoint
        </button>
      </form>
    </section>
  );
}
