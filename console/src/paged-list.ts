import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from './gateway';
import { useData } from './use-data';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PagedList<P extends Page<unknown>> {
  items: P['items'];
  /** The pages read, first to last: for what an answer says beside its items. */
  pages: P[];
  loading: boolean;
  problem: string | null;
  hasMore: boolean;
  /** Reads the next page and adds it to the items. */
  more: () => void;
  /** Reads what failed again: the next page if that failed, else from the first. */
  retry: () => void;
}

interface Older<P> {
  /** The first page the older ones follow. */
  after: P;
  pages: P[];
  cursor: string | null;
}

/**
 * A list the API pages by cursor (newest first), read a page at a time as the person asks for
 * more: never the whole of it. It reads from the first page again when `filter` changes; both
 * `readPage` and `filter` must keep their identity between renders (useCallback, useMemo).
 */
export function usePagedList<P extends Page<unknown>, F>(
  readPage: (filter: F, cursor: string | undefined, signal: AbortSignal) => Promise<P>,
  filter: F,
): PagedList<P> {
  const first = useData(
    useCallback((signal: AbortSignal) => readPage(filter, undefined, signal), [readPage, filter]),
  );
  const [older, setOlder] = useState<Older<P> | null>(null);
  const [moreProblem, setMoreProblem] = useState<string | null>(null);
  const [moreLoading, setMoreLoading] = useState(false);
  const reading = useRef<AbortController | null>(null);
  useEffect(() => () => reading.current?.abort(), []);

  const head = first.value;
  const shown = older !== null && older.after === head ? older : null;
  const cursor = shown ? shown.cursor : (head?.nextCursor ?? null);

  const more = useCallback(() => {
    if (head === null || cursor === null) return;
    reading.current?.abort();
    const controller = new AbortController();
    reading.current = controller;
    setMoreLoading(true);
    setMoreProblem(null);
    readPage(filter, cursor, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setOlder((last) => ({
          after: head,
          pages: [...(last !== null && last.after === head ? last.pages : []), page],
          cursor: page.nextCursor,
        }));
        setMoreLoading(false);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setMoreProblem(errorMessage(error));
        setMoreLoading(false);
      },
    );
  }, [readPage, filter, head, cursor]);

  const pages = useMemo(() => (head === null ? [] : [head, ...(shown?.pages ?? [])]), [head, shown]);
  return {
    items: useMemo(() => pages.flatMap((page) => page.items as P['items']), [pages]),
    pages,
    loading: first.loading || moreLoading,
    problem: first.problem ?? moreProblem,
    hasMore: cursor !== null,
    more,
    retry: first.problem === null && moreProblem !== null ? more : first.retry,
  };
}
