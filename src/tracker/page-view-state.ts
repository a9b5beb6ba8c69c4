// The page views themselves (see page-view.ts): apart from the public calls so that the published
// declarations name none of their `_` members, which every build renames (mangle.json).
/** One recorder's current page view. */
export interface PageView {
  /** Impression keys counted in this view, each with its hash (observe.ts; cleared in place when a new one begins). */
  _seen: Set<string | number>;
  /** What each live placement does when a new view begins: restart its in-view rule. */
  _restart: Set<() => void>;
  /** How many of the URL's path, query and hash it follows: 0 for none. */
  _parts: number;
  /** The followed part of the URL when this view began. */
  _at: string;
}

// Per recorder, so two trackers on one page keep separate views; `all` is what a navigation walks.
const views = /* @__PURE__ */ new WeakMap<object, PageView>();
const all = /* @__PURE__ */ new Set<PageView>();

export const part = (parts: number): string => [location.pathname, location.search, location.hash].slice(0, parts).join('');

export function begin(view: PageView): void {
  view._at = part(view._parts);
  view._seen.clear();
  view._restart.forEach((restart) => restart());
}

// A router's replaceState that keeps the URL (Next.js on hydration), a hash link under the
// default, a re-render: the followed part is unchanged, so no new view.
const check = () => all.forEach((view) => part(view._parts) !== view._at && begin(view));

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
    views.set(recorder, (view = { _seen: new Set(), _restart: new Set(), _parts: 2, _at: part(2) }));
    all.add(view);
  }
  return view;
}
