/**
 * Hash routing: `#/channels`, `#/reports?channel=110000000000001&id=...`. The service serves one page at /,
 * so no server fallback is needed and a reload keeps the place.
 */
import { useEffect, useState } from 'preact/hooks';

/** The current route: the path after `#` and its query. */
export interface Route {
  path: string;
  query: URLSearchParams;
}

/** Parses a location hash (`#/reports?id=1`). */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const at = raw.indexOf('?');
  const path = at < 0 ? raw : raw.slice(0, at);
  return { path: path.startsWith('/') ? path : `/${path}`, query: new URLSearchParams(at < 0 ? '' : raw.slice(at + 1)) };
}

/** A hash link for a path and optional query values (empty values are left out). */
export function href(path: string, query: Record<string, string | number | null | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

/** Goes to a path (`/reports`) with an optional query. */
export function navigate(path: string, query: Record<string, string | number | null | undefined> = {}): void {
  const target = href(path, query);
  if (location.hash !== target) location.hash = target;
}

/**
 * Replaces the current history entry's query (filters, paging) without adding a back step. Only while the
 * address is still on `path`: an effect of a page the user has just left may run after the address changed
 * but before the page is gone, and must not take the user back.
 */
export function replaceQuery(path: string, query: Record<string, string | number | null | undefined>): void {
  if (parseHash(location.hash).path !== path) return;
  const target = href(path, query);
  if (location.hash !== target) {
    history.replaceState(null, '', target);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  }
}

/** The current route, updated on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
