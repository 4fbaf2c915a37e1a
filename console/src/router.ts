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

/** The routes in use, told of an address set here at once rather than at its `hashchange`. */
const followers = new Set<() => void>();

/**
 * Goes to a console address, as a link to it would. The pages follow in the same task: a control
 * whose state lives in the address (a checkbox) shows its new state as it is clicked, not a moment
 * after, when the browser's `hashchange` comes.
 */
export function navigate(to: string): void {
  window.location.hash = to;
  for (const follow of followers) follow();
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    // The same address again (the hashchange after navigate's own update) keeps the route as it is.
    const changed = (): void =>
      setRoute((shown) => {
        const now = current();
        return now.page === shown.page &&
          now.path.join('/') === shown.path.join('/') &&
          now.query === shown.query
          ? shown
          : now;
      });
    followers.add(changed);
    window.addEventListener('hashchange', changed);
    return () => {
      followers.delete(changed);
      window.removeEventListener('hashchange', changed);
    };
  }, []);
  return route;
}
