import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from './gateway';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PagedList<T, F> {
  items: T[];
  /** The filter the items were read with. */
  filter: F;
  loading: boolean;
  problem: string | null;
  hasMore: boolean;
  /** Reads the first page for `filter`. */
  apply: (filter: F) => void;
  /** Reads the next page and adds it to the items. */
  more: () => void;
}

/**
 * A list the API pages by cursor (newest first), read a page at a time as the person asks for
 * more: never the whole of it. `readPage` must keep its identity between renders (useCallback).
 */
export function usePagedList<T, F>(
  readPage: (filter: F, cursor: string | undefined) => Promise<Page<T>>,
  initial: F,
): PagedList<T, F> {
  const [filter, setFilter] = useState(initial);
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const first = useRef(initial);

  const load = useCallback(
    async (applied: F, after: string | null) => {
      setLoading(true);
      setProblem(null);
      try {
        const page = await readPage(applied, after ?? undefined);
        setItems((shown) => (after === null ? page.items : [...shown, ...page.items]));
        setCursor(page.nextCursor);
      } catch (error) {
        setProblem(errorMessage(error));
      } finally {
        setLoading(false);
      }
    },
    [readPage],
  );
  useEffect(() => {
    void load(first.current, null);
  }, [load]);

  return {
    items,
    filter,
    loading,
    problem,
    hasMore: cursor !== null,
    apply: (applied) => {
      setFilter(applied);
      void load(applied, null);
    },
    more: () => void load(filter, cursor),
  };
}
