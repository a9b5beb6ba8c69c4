// Page views: when a placement's impression may count again. An impression counts once per
// placement per page view, and a page view is what the user sees as one: the document load, a
// same-document navigation that changes the URL's path or query (a router's pushState/replaceState,
// the back and forward buttons), a restore from the back/forward cache. Only `observe` (and what
// is built on it) imports this, so a tracker-only bundle carries none of it; nothing runs before
// the first placement is observed (SSR-safe, no listener at import).
import { ValidationError } from '../errors';
import { warn } from './console';

/**
 * Which part of the URL starts a new page view when it changes: `'path'` (a listing whose filters
 * rewrite the query stays one view), `'path+query'` (the default), `'path+query+hash'` (hash
 * routers), or `false` to follow nothing (start views yourself with `startPageView`).
 */
export type PageViewFollow = 'path' | 'path+query' | 'path+query+hash' | false;

/** One recorder's current page view. */
export interface PageView {
  /** Impression keys counted in this view (cleared in place when a new one begins). */
  seen: Set<string>;
  /** What each live placement does when a new view begins: restart its in-view rule. */
  restart: Set<() => void>;
  /** How many of the URL's path, query and hash it follows: 0 for none. */
  parts: number;
  /** The followed part of the URL when this view began. */
  at: string;
}

const FOLLOW: unknown[] = ['path', 'path+query', 'path+query+hash'];

// Per recorder, so two trackers on one page keep separate views; `all` is what a navigation walks.
const views = /* @__PURE__ */ new WeakMap<object, PageView>();
const all = /* @__PURE__ */ new Set<PageView>();

const part = (parts: number): string => [location.pathname, location.search, location.hash].slice(0, parts).join('');

function begin(view: PageView): void {
  view.at = part(view.parts);
  view.seen.clear();
  view.restart.forEach((restart) => restart());
}

// A router's replaceState that keeps the URL (Next.js on hydration), a hash link under the
// default, a re-render: the followed part is unchanged, so no new view.
const check = () => all.forEach((view) => part(view.parts) !== view.at && begin(view));

/**
 * Watches the URL once per page. The Navigation API reports every same-document change (push,
 * replace, traversal, fragment) where the engine has it; elsewhere pushState and replaceState are
 * wrapped, as GA4 and Amplitude do: the History API fires no event for them.
 */
function listen(): void {
  const navigation = (window as { navigation?: EventTarget }).navigation;
  if (navigation) navigation.addEventListener('currententrychange', check);
  else {
    (['pushState', 'replaceState'] as const).forEach((name) => {
      // Called with the `this` it is given (history) below.
      // eslint-disable-next-line @typescript-eslint/unbound-method
      const original = history[name];
      history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
        original.apply(this, args);
        check();
      };
    });
    addEventListener('popstate', check);
    addEventListener('hashchange', check);
  }
  // A page restored from the back/forward cache is seen anew, at the URL it had.
  addEventListener('pageshow', (event) => event.persisted && all.forEach(begin));
}

/** The current page view of `recorder`'s placements; the first one begins with the document. */
export function pageViewOf(recorder: object): PageView {
  let view = views.get(recorder);
  if (!view) {
    if (!all.size) listen();
    views.set(recorder, (view = { seen: new Set(), restart: new Set(), parts: 2, at: part(2) }));
    all.add(view);
  }
  return view;
}

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
  view.at = part((view.parts = off ? 0 : known || 2));
}
