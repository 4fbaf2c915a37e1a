import { useEffect, useState } from 'react';

/** A console page's address: `#/<page>/<id>` (hash routes keep the server to one static page). */
export interface Route {
  page: string;
  id: string | null;
}

function current(): Route {
  const [page = '', id = null] = window.location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  return { page, id: id || null };
}

export function href(page: string, id?: string): string {
  return `#/${page}${id ? `/${encodeURIComponent(id)}` : ''}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const changed = (): void => setRoute(current());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}
