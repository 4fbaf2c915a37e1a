import { useConsole } from '../console-context';
import { href } from '../router';

/** A pipe as a page names it: where it lives, and its name when the answer gave it. */
export interface PipeReference {
  pipeId: string;
  organizationId: string;
  serviceId: string;
  pipeName?: string | null;
}

/** A short form of a UUID for places where the whole is in a title or next to it. */
export function shortId(id: string): string {
  return id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

/** The words for a pipe: its name, or a short form of its id when no name is known. */
export function pipeName(pipe: PipeReference): string {
  return pipe.pipeName || `pipe ${shortId(pipe.pipeId)}`;
}

/** A pipe by its name (its id on hover), linked to its page for whoever may open it. */
export function PipeLink({ pipe }: { pipe: PipeReference }) {
  const { can } = useConsole();
  const text = pipeName(pipe);
  if (!can('PipesController_get')) return <span title={pipe.pipeId}>{text}</span>;
  return (
    <a href={href('pipes', pipe.organizationId, pipe.serviceId, pipe.pipeId)} title={pipe.pipeId}>
      {text}
    </a>
  );
}
