import { useEffect, useState } from 'react';

/** A console page's address: `#/<page>/<id>[/<more>…]` (hash routes keep the server to one static page). */
export interface Route {
  page: string;
  id: string | null;
  /** Every segment after the page's name: `#/pipes/<organization>/<service>/<pipe>` has three. */
  path: string[];
}

function current(): Route {
  const [page = '', ...path] = window.location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const segments = path.filter((segment) => segment !== '');
  return { page, id: segments[0] ?? null, path: segments };
}

export function href(page: string, ...path: (string | undefined)[]): string {
  const segments = path.filter((segment): segment is string => Boolean(segment));
  return `#/${[page, ...segments.map(encodeURIComponent)].join('/')}`;
}

/** Goes to a console address, as a link to it would. */
export function navigate(to: string): void {
  window.location.hash = to;
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
