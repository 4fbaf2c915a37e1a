import { useState } from 'react';
import { ErrorNote } from '../../components/common';
import { useConsole } from '../../console-context';
import { answer, errorMessage } from '../../gateway';
import { saveFile } from '../../save-file';
import type { AuditFilter } from './view';

/** The current filter's events as NDJSON, fetched with the in-memory token and saved as a file. */
export function ExportButton({ filter }: { filter: AuditFilter }) {
  const { client } = useConsole();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const exportEvents = async (): Promise<void> => {
    setBusy(true);
    setProblem(null);
    try {
      const blob = await answer(
        client.GET('/v1/audit/export', { params: { query: filter }, parseAs: 'blob' }),
      );
      saveFile(blob, `audit-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.ndjson`);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <p>Every event the filters above select, oldest first, one JSON object per line.</p>
      <button type="button" onClick={() => void exportEvents()} disabled={busy}>
        {busy ? 'Exporting…' : 'Export as NDJSON'}
      </button>
      <ErrorNote message={problem} />
    </section>
  );
}
