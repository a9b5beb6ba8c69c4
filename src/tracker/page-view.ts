// Page views: when a placement's impression may count again. An impression counts once per
// placement per page view, and a page view is what the user sees as one: the document load, a
// same-document navigation that changes the URL's path or query (a router's pushState/replaceState,
// the back and forward buttons), a restore from the back/forward cache. Only `observe` (and what
// is built on it) imports this, so a tracker-only bundle carries none of it; nothing runs before
// the first placement is observed (SSR-safe, no listener at import).
import { ValidationError } from '../errors';
import { warn } from './console';
import { begin, pageViewOf, part } from './page-view-state';

/**
 * Which part of the URL starts a new page view when it changes: `'path'` (a listing whose filters
 * rewrite the query stays one view), `'path+query'` (the default), `'path+query+hash'` (hash
 * routers), or `false` to follow nothing (start views yourself with `startPageView`).
 */
export type PageViewFollow = 'path' | 'path+query' | 'path+query+hash' | false;

const FOLLOW: unknown[] = ['path', 'path+query', 'path+query+hash'];

/**
 * Begins a new page view for `tracker`'s placements now: each impression may count once more,
 * and placements still on the page restart their 50 %-for-1-s rule. For apps whose pages do not
 * change the URL (with `followPageViews(tracker, false)`); a router that changes it needs nothing.
 *
 * @example
 * followPageViews(tracker, false);
 * wizard.on('step', () => startPageView(tracker));
 */
export function startPageView(tracker: object): void {
  if (typeof window === 'object') begin(pageViewOf(tracker));
}

/**
 * Chooses which part of the URL starts a new page view for `tracker`'s placements.
 *
 * @param follow `'path'`, `'path+query'`, `'path+query+hash'`, or `false` for none; `null` or
 *   `undefined` is the default
 * @default 'path+query'
 * @example
 * followPageViews(tracker, 'path'); // a listing whose filters rewrite the query is one view
 */
export function followPageViews(tracker: object, follow?: PageViewFollow | null): void {
  if (typeof window !== 'object') return;
  const view = pageViewOf(tracker);
  // Compared, not looked up: the script tag's minifier writes `false` as 0 (rollup.config.mjs).
  const known = FOLLOW.indexOf(follow ?? 'path+query') + 1;
  const off = follow === false;
  if (!known && !off) warn(new ValidationError('follow', "must be 'path', 'path+query', 'path+query+hash' or false"));
  view._at = part((view._parts = off ? 0 : known || 2));
}
