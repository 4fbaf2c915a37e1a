import { useEffect, useState } from 'react';

/**
 * A console page's address: `#/<page>/<id>[/<more>…][?<name>=<value>…]` (hash routes keep the
 * server to one static page). The query holds what a person chose on the page (filters, the item
 * open), so a link to it shows the same, and Back and Forward move through the choices.
 */
export interface Route {
  page: string;
  id: string | null;
  /** Every segment after the page's name: `#/pipes/<organization>/<service>/<pipe>` has three. */
  path: string[];
  /** The query's text as written (`actor=…&event=12`), '' without one. */
  query: string;
}

function current(): Route {
  const hash = window.location.hash.replace(/^#\/?/, '');
  const mark = hash.indexOf('?');
  const [page = '', ...path] = (mark < 0 ? hash : hash.slice(0, mark)).split('/').map(decodeURIComponent);
  const segments = path.filter((segment) => segment !== '');
  return { page, id: segments[0] ?? null, path: segments, query: mark < 0 ? '' : hash.slice(mark + 1) };
}

export function href(page: string, ...path: (string | undefined)[]): string {
  const segments = path.filter((segment): segment is string => Boolean(segment));
  return `#/${[page, ...segments.map(encodeURIComponent)].join('/')}`;
}

/** An address with a query of the values given; empty and missing ones are left out. */
export function withQuery(address: string, values: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) query.set(name, value);
  const text = query.toString();
  return text === '' ? address : `${address}?${text}`;
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
