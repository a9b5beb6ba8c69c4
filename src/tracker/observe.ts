// Automatic impressions and clicks: its own export that takes the tracker, so that a bundle
// importing only `createTracker` carries none of it (IntersectionObserver, timers,
// MutationObserver). Written against a two-method recorder rather than the tracker, so it can be
// tested (and reused) without the queue. Touches no global until called: SSR-safe.
import { type EngageError, ValidationError } from '../errors';
import { noop, warn } from './console';
import { later } from './later';
import { type PageView, pageViewOf } from './page-view-state';
import { onShadowRoot, walk, walkInSlices } from './shadow-roots';
import { CLICKED, COUNTED, type PlacementFacts, type Tapped, UNOBSERVED, VIEW } from './tap';
import type { ExperienceContext, ExtraAttributes } from './types';

/** What `observe` records into: the tracker satisfies it. */
export interface Recorder {
  shown(context: ExperienceContext, attributes?: ExtraAttributes | null): string | undefined;
  clicked(context: ExperienceContext, attributes?: ExtraAttributes | null): string | undefined;
}

/**
 * Options of `observe` and `autoObserve`. The rule itself is fixed (≥50% of the element, or of the
 * screen for an element taller than it, painted and uncovered, for 1 continuous second with the
 * tab visible, once per page view: see `observe` and `followPageViews`); so are the attributes,
 * `data-engage-context` and `data-engage-b-id`.
 */
export interface ObserveOptions {
  /**
   * Receives bad input (an unreadable `data-engage-context`, a missing element); nothing is thrown.
   * @default a console warning
   */
  onError?: ((error: EngageError) => void) | null;
}

const CONTEXT = 'data-engage-context';
const B_ID = 'data-engage-b-id';

/**
 * The identity of an impression: the same experience variation for the same audience counts once
 * per page view, whichever DOM node shows it.
 *
 * @example
 * impressionKey({ cid: 'c1', experience: 'Hero', svc_variation_id: '2', audience_id: 'a', ... }); // 'c1|Hero|2|a'
 */
export const impressionKey = (context: ExperienceContext): string => [context.cid, context.experience, context.svc_variation_id, context.audience_id].join('|');

/** Calls into the recorder: the tracker never throws, a custom recorder might, and the page must go on. */
const call = (fn: () => unknown) => {
  try {
    fn();
  } catch {
    // Swallowed on purpose.
  }
};

function reportTo(options: ObserveOptions, field: string, rule: string): void {
  const error = new ValidationError(field, rule);
  // Without an onError the warning is the only trace: the tracker's own onError cannot be reached from here.
  call(() => (options.onError ? options.onError(error) : warn(error)));
}

/** The context carried by `element`'s data-engage-context as a JSON object, or undefined. */
function readContext(element: Element): ExperienceContext | undefined {
  try {
    const context: unknown = JSON.parse(element.getAttribute(CONTEXT)!);
    if (context && typeof context === 'object' && !Array.isArray(context)) return context as ExperienceContext;
  } catch {
    // Unreadable JSON: no context; the caller reports it.
  }
  return undefined;
}

/**
 * What a placement in view shows now, reported on the VIEW tap: `SEEN` (it counts after a second
 * of this), or why not. A covering element is reported as itself.
 */
export const SEEN = 1;
/** 0×0, or zero high or wide: an empty container, an image that failed. */
export const NO_AREA = 2;
/** Not painted: `opacity: 0`, `visibility: hidden` or `content-visibility: hidden` on it or above it (lifecycle.ts tells which). */
export const UNRENDERED = 3;

// How often a placement in view is looked at again: the MRC's viewability guidelines sample at
// least every 100 ms, so a cover or a fade shorter than that may pass unseen, and the second is
// counted within 100 ms of its end. Only placements in view and not yet counted are looked at (a
// handful on a screen), by one timer for all of them; none is looked at while nothing is in view.
const TICK = 100;

/**
 * What the placements of one `observe` or `autoObserve` call share, so that a placement itself is
 * four references (issue 51 §4: a listing of 1,000 whose placements never come into view costs
 * little more than their entries in the shared observer).
 */
interface Group {
  _recorder: Recorder;
  _view: PageView;
  _shared: Shared;
  /** The context given to `observe`; undefined: each element's attribute, parsed again when needed. */
  _given: ExperienceContext | undefined;
}

/**
 * One element observed for one recorder: plain data in the document's table, handled by the
 * functions below. No closure, listener, parsed context or impression key per placement at rest:
 * its state exists while it is in view.
 */
interface Placement {
  _element: Element;
  _group: Group;
  /** Its impression key's hash (keyHash), from when it was observed: whether it may have been counted, without a parse. */
  _hash: number;
  /** Another recorder's placement on the same element (two trackers): a chain, not an array per element. */
  _next: Placement | undefined;
  /** In view (by the 50 % rule, from the element's latest IntersectionObserver entry); undefined: not. */
  _live: Live | undefined;
}

/** A placement's state while it is in view. */
interface Live {
  /** Since when it is in view, painted, with an area (undefined: it is not). */
  _looked: number | undefined;
  /** When its current second began (undefined: it has not). */
  _since: number | undefined;
  /** A look since `_looked` found it covered. */
  _covered: boolean;
  /** What an inspector was last told, so it hears changes, not ticks. */
  _told: number | Element | undefined;
  _toldAway: boolean | undefined;
}

/** Every placement of one document: one IntersectionObserver, one timer, one click listener per root. */
interface Shared {
  _IO: typeof IntersectionObserver | undefined;
  _io: IntersectionObserver | undefined;
  /** Each observed element's placements. */
  _watches: Map<Element, Placement>;
  /** In view and not yet counted: looked at every TICK. */
  _ticking: Set<Placement>;
  _timer?: ReturnType<typeof setInterval>;
  /** The page views whose new view restarts this document's placements. */
  _views: Set<PageView>;
  /** The roots listening for clicks: the document, and each closed shadow root holding a placement. */
  _roots: WeakSet<Node>;
}

const shared = /* @__PURE__ */ new WeakMap<Document, Shared>();

/** Each placement of the chain starting at `first`. */
function each(first: Placement | undefined, use: (p: Placement) => void): void {
  for (let p = first; p; p = p._next) use(p);
}

function sharedOf(doc: Document): Shared {
  let s = shared.get(doc);
  const IO = doc.defaultView?.IntersectionObserver;
  // A new constructor (a polyfill installed later) makes a new observer; placements already
  // observed keep the one they have.
  if (s?._IO !== IO || !s) {
    const watches = new Map<Element, Placement>();
    const ticking = new Set<Placement>();
    shared.set(
      doc,
      (s = {
        _IO: IO,
        _io:
          IO &&
          new IO((entries) => entries.forEach((entry) => each(watches.get(entry.target), (p) => onEntry(p, entry))), {
            threshold: [0, 0.25, 0.5, 0.75, 1],
          }),
        _watches: watches,
        _ticking: ticking,
        _views: new Set(),
        _roots: new WeakSet(),
      }),
    );
    // A hidden tab stops every second at once; a shown one, or a prerendered page the visitor
    // opens, starts them again.
    const all = () => ticking.forEach(tick);
    doc.addEventListener('visibilitychange', all);
    doc.addEventListener('prerenderingchange', all);
  }
  return s;
}

function tickOn(p: Placement, on: boolean): void {
  const s = p._group._shared;
  if (on) s._ticking.add(p);
  else s._ticking.delete(p);
  if (!s._ticking.size) s._timer = void clearInterval(s._timer);
  else s._timer ??= setInterval(() => s._ticking.forEach(tick), TICK);
}

/** Whether `element` is painted: no opacity 0, visibility hidden or content-visibility hidden on it or above it. */
function rendered(element: Element): boolean {
  if (element.checkVisibility) return element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  // Engines before checkVisibility's options (Safari < 17.4, Firefox < 125): the computed styles up the tree.
  const win = element.ownerDocument.defaultView!;
  for (let node: Element | null = element; node; node = node.parentElement) {
    const style = win.getComputedStyle(node);
    if (style.opacity == '0' || style.display == 'none' || (node != element && style.contentVisibility == 'hidden')) return false;
  }
  return win.getComputedStyle(element).visibility == 'visible';
}

/**
 * What `element` (in view by the intersection rule) shows now: SEEN, NO_AREA, UNRENDERED, or the
 * element covering it. Covered is measured with `elementFromPoint`: what is not covered must
 * still meet the rule, half of the placement or half the screen. A point hitting the placement,
 * something inside it, something around it (it lets hits through) or something transparent is
 * not covered. On a placement wholly on screen (or filling it) one rectangle over half of it or
 * more covers its centre, so an uncovered centre answers alone (one hit test, not nine: a cookie
 * wall, a modal or a banner is one rectangle; several disjoint layers that leave the centre
 * uncovered are not seen). Otherwise 9 points of its part on screen (a 3×3 grid) measure it: a
 * placement wholly on screen counts with 4 of 9 points covered, not 5.
 */
function sight(element: Element, covers: boolean): number | Element {
  const win = element.ownerDocument.defaultView!;
  // Asked of its own root: inside a web component's shadow tree, the document would answer with the host.
  const root = element.getRootNode() as Document;
  const { left, top, right, bottom, width, height } = element.getBoundingClientRect();
  if (!width || !height) return NO_AREA;
  if (!rendered(element)) return UNRENDERED;
  if (!covers) return SEEN;
  const x = Math.max(left, 0);
  const y = Math.max(top, 0);
  const w = Math.min(right, win.innerWidth) - x;
  const h = Math.min(bottom, win.innerHeight) - y;
  // Half the placement, or half the screen.
  const half = Math.min(width * height, win.innerWidth * win.innerHeight) / 2;
  /** What covers the point (x + w·i/6, y + h·j/6), if anything. */
  const at = (i: number, j: number) => {
    const hit = root.elementFromPoint(x + (w * i) / 6, y + (h * j) / 6);
    return !hit || element.contains(hit) || hit.contains(element) || !rendered(hit) ? undefined : hit;
  };
  if (w <= 0 || h <= 0) return 0;
  if (w * h >= 2 * half && !at(3, 3)) return SEEN;
  let clear = 0;
  let by: Element | undefined;
  for (let i = 1; i < 6; i += 2)
    for (let j = 1; j < 6; j += 2) {
      const hit = at(i, j);
      if (hit) by ??= hit;
      else clear++;
    }
  // The uncovered part on screen, against half the placement or half the screen.
  return !by || (w * h * clear) / 9 >= half ? SEEN : by;
}

/** The context an impression or a click of `p` records: the one given, or the attribute's now. */
const contextOf = (p: Placement) => p._group._given ?? readContext(p._element);

/**
 * A 30-bit hash of an impression key: a small integer, which a field or a set holds with no
 * allocation. A page view's seen set holds it beside the key, so that a placement coming into view
 * asks it first and parses its context only on a match (a re-rendered placement, or a collision).
 */
function keyHash(key: string): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) & 0x3fffffff;
  return hash;
}

/** Whether `p`'s impression (its key given, or read again) was counted in its page view. */
function counted(p: Placement, key?: string): boolean {
  const seen = p._group._view._seen;
  if (!seen.has(p._hash)) return false;
  const context = key ? undefined : contextOf(p);
  return seen.has(key ?? (context ? impressionKey(context) : ''));
}

/**
 * What this placement does, for an inspector (tap.ts): through the recorder, when it is a tracker
 * that someone listens to. Asked first, so that nobody listening costs no parsed context.
 */
function tell(p: Placement, facts: PlacementFacts): void {
  const tap = (p._group._recorder as Tapped)._tap;
  const context = tap?._attach()._listener && contextOf(p);
  if (context) tap._report({ ...facts, _element: p._element, _context: context });
}

function onEntry(p: Placement, entry: IntersectionObserverEntry): void {
  // Read as needed, not destructured: each rectangle is an object made when read, and most entries
  // (the first of every placement below the fold) are out of view. 4 B gzip fewer, too.
  let root: DOMRectReadOnly | null;
  let rect: DOMRectReadOnly;
  const inView =
    entry.isIntersecting &&
    (entry.intersectionRatio >= 0.5 ||
      // A placement taller than the viewport can never be half visible: half the screen will do.
      (!!(root = entry.rootBounds) && (rect = entry.intersectionRect).width * rect.height * 2 >= root.width * root.height));
  if (!inView) {
    // Out of view: its state goes, and an inspector hears it once.
    if (p._live) {
      tell(p, { _stage: VIEW, _sight: false, _counted: counted(p) });
      rest(p);
    }
    return;
  }
  p._live ??= { _looked: undefined, _since: undefined, _covered: false, _told: undefined, _toldAway: undefined };
  // Looked at before the timer is set: its tenth tick then comes a full second after this look,
  // not a hair short of it (which left the second to the eleventh: counted ~1.1 s after, and a
  // placement seen 1.0-1.1 s not at all).
  tick(p);
  tickOn(p, !counted(p));
}

/** Looks again at a placement in view: the timer's tick, a new entry, the tab shown or hidden. */
function tick(p: Placement): void {
  const live = p._live;
  if (!live) return;
  const view = p._group._view;
  const done = counted(p);
  const doc = p._element.ownerDocument as Document & { prerendering?: boolean };
  // A hidden tab or a prerendered page: nobody is looking, whatever the placement shows.
  const away = doc.visibilityState === 'hidden' || !!doc.prerendering;
  const now = performance.now();
  // Covers are looked for from a tick after it came into view, painted, with an area: most
  // placements a scroll passes leave before that, and cost no hit test (elementFromPoint is
  // the expensive part, 30-60 µs a point in Chromium).
  const covers = live._looked !== undefined && now - live._looked >= TICK;
  const what = done ? SEEN : sight(p._element, covers);
  if (what !== live._told || away !== live._toldAway) {
    live._toldAway = away;
    tell(p, { _stage: VIEW, _sight: (live._told = what), _counted: done });
  }
  if (done) return settle(p);
  if (what === SEEN && !away) {
    live._looked ??= now;
    // Uncovered at the first look: since it came into view, as sampling goes; after a cover, from now.
    if (covers) live._since ??= live._covered ? now : live._looked;
  } else if (typeof what == 'object' && !away) {
    // Covered (by `what`): the second starts again at the first look that finds it uncovered.
    live._since = undefined;
    live._covered = true;
  } else {
    live._looked = live._since = undefined;
    live._covered = false;
  }
  // Looked at every TICK, so the second ends on a tick at most TICK after it is complete.
  if (live._since !== undefined && now - live._since >= 1000) {
    const context = contextOf(p);
    const key = context && impressionKey(context);
    if (key) view._seen.add(keyHash(key)).add(key);
    settle(p);
    call(() => context && tell(p, { _stage: COUNTED, _uuid: p._group._recorder.shown(context) }));
  }
}

/** Not looked at until something changes: counted, out of view, or no longer observed. */
function rest(p: Placement): void {
  p._live = undefined;
  tickOn(p, false);
}

/** Counted (or no longer observed): the element leaves the observer once no other placement on it waits for an impression. */
function settle(p: Placement): void {
  const s = p._group._shared;
  let waiting = false;
  each(s._watches.get(p._element), (q) => (waiting ||= q !== p && !counted(q)));
  rest(p);
  if (!waiting) s._io?.unobserve(p._element);
}

/**
 * Observed (`key`, read by watch), or a new page view (whose seen keys are none yet): the rule
 * starts over, from out of view.
 */
function restart(p: Placement, key?: string): void {
  rest(p);
  const done = !!key && counted(p, key);
  // Tells an inspector where the rule starts from.
  tell(p, { _stage: VIEW, _sight: false, _counted: done });
  if (done) return settle(p);
  // Observed anew, so that an entry for the element (and so for this placement) comes now.
  p._group._shared._io?.unobserve(p._element);
  p._group._shared._io?.observe(p._element);
}

/**
 * Clicks, heard once per root at the capture phase (before any handler of the page can stop
 * them): the document, and each closed shadow root holding a placement, which the document cannot
 * see into. The composed path names every placement the click is inside, with the nearest
 * `data-engage-b-id` control below each; a closed root's listener handles only its own tree.
 */
function onClick(this: Node, event: Event): void {
  // A click is every way a person opens a link: `click` (primary button, modified or not,
  // keyboard, touch) and the middle button, which fires `auxclick` alone; not the right one.
  if (event.type != 'click' && (event as MouseEvent).button != 1) return;
  const doc = (this as Document).ownerDocument ?? (this as Document);
  const watches = shared.get(doc)?._watches;
  let control: Element | undefined;
  for (const node of event.composedPath()) {
    if (node === this || !watches) break;
    control ??= (node as Element).hasAttribute?.(B_ID) ? (node as Element) : undefined;
    each(watches.get(node as Element), (p) => {
      const context = contextOf(p);
      const bId = control?.getAttribute(B_ID);
      call(() => context && tell(p, { _stage: CLICKED, _uuid: p._group._recorder.clicked(context, bId ? { b_id: bId } : undefined) }));
    });
  }
}

/** The group of one `observe` or `autoObserve` call, in `doc`. */
const groupOf = (recorder: Recorder, doc: Document, given?: ExperienceContext): Group => ({
  _recorder: recorder,
  _view: pageViewOf(recorder),
  _shared: sharedOf(doc),
  _given: given,
});

/**
 * Starts observing `element` in group `g` (observe's work, and autoObserve's without a closure
 * per element); undefined, reported, when there is no context.
 */
function watch(g: Group, element: Element, opts: ObserveOptions): Placement | undefined {
  // No context given: the attribute has to hold it. Read here to report it, and not kept: parsed
  // again when the placement comes into view, or an impression or a click needs it.
  const context = g._given ?? readContext(element);
  if (!context) return void reportTo(opts, CONTEXT, 'must be the experience context as a JSON object');
  const s = g._shared;
  const view = g._view;
  const key = impressionKey(context);
  const p: Placement = { _element: element, _group: g, _hash: keyHash(key), _next: s._watches.get(element), _live: undefined };
  s._watches.set(element, p);
  // Without IntersectionObserver there is no honest way to know the element was seen: count nothing.
  if (!s._io) reportTo(opts, 'IntersectionObserver', 'is not available');
  if (!s._views.has(view)) {
    s._views.add(view);
    view._restart.add(() => s._watches.forEach((first) => each(first, (p) => p._group._view === view && restart(p))));
  }
  const root = element.getRootNode();
  const listener = (root as ShadowRoot).mode === 'closed' ? root : element.ownerDocument;
  if (!s._roots.has(listener)) {
    s._roots.add(listener);
    listener.addEventListener('click', onClick, true);
    listener.addEventListener('auxclick', onClick, true);
  }
  restart(p, key);
  return p;
}

/** Stops observing `p`. Idempotent. */
function unwatch(p: Placement): void {
  const s = p._group._shared;
  const first = s._watches.get(p._element);
  if (!first) return;
  // Out of the element's chain.
  if (first === p) {
    if (p._next) s._watches.set(p._element, p._next);
    else s._watches.delete(p._element);
  } else {
    let before = first;
    while (before._next && before._next !== p) before = before._next;
    if (before._next !== p) return;
    before._next = p._next;
  }
  settle(p);
  tell(p, { _stage: UNOBSERVED });
}

/**
 * Counts an impression (SHOWN) once per page view when a person could have seen the placement for
 * one continuous second: at least half of `element` on screen (or half the screen, for an element
 * taller than it), with an area, rendered (no `opacity: 0`, `visibility: hidden`, `display: none`
 * or `content-visibility: hidden` on it or an ancestor), not covered by another element (what is
 * not covered must still be half of it), in a visible tab of a page that is not being
 * prerendered. Anything that breaks the rule during the second starts it over. Records a click
 * (CLICKED) on every click inside it, with `b_id` from the nearest `data-engage-b-id` between the
 * click target and the element. A click without such an attribute is recorded without `b_id`:
 * control text is never used (it changes with translations and may carry personal data). Never
 * throws.
 *
 * All placements of a page share one IntersectionObserver, one 100 ms timer, which runs only
 * while a placement is in view and not yet counted, and one click listener (at the capture phase
 * of the document, and of each closed shadow root holding a placement, so a page's handler that
 * stops a click's propagation does not hide it). A placement is a small entry in a table: its
 * context, when read from the attribute, is parsed again when an impression or a click needs it.
 *
 * Not part of `createTracker`, so an app that records impressions itself does not download it.
 *
 * @param tracker the tracker to record into (any `{ shown, clicked }` recorder)
 * @param element the placement's root element
 * @param context the experience context the page received with the content; `null` or
 *   `undefined` reads it from the element's `data-engage-context` attribute (JSON)
 * @returns a function that stops observing (idempotent)
 * @example
 * import { createTracker, observe } from 'engage-sdk';
 * const tracker = createTracker({ endpoint: '/engage' });
 * const stop = observe(tracker, document.querySelector('#hero')!, heroContext);
 * // later, when the placement is removed:
 * stop();
 */
export function observe(tracker: Recorder, element: Element, context?: ExperienceContext | null, options?: ObserveOptions | null): () => void {
  const opts: ObserveOptions = options ?? {};
  if (typeof element?.addEventListener !== 'function') return (reportTo(opts, 'element', 'must be a DOM Element'), noop);
  const p = watch(groupOf(tracker, element.ownerDocument, context ?? undefined), element, opts);
  return p ? () => unwatch(p) : noop;
}

/**
 * Observes every element carrying `data-engage-context` (the experience context as JSON) under
 * `root`, including elements added or changed later, and inside open shadow roots at any depth
 * (web components), present at start or attached later. A re-rendered placement (same context, new
 * node) is not counted twice in one page view; a new page view counts it again. A removed one
 * stops. Unreadable JSON is reported through `onError` and that element is skipped. A closed
 * shadow root cannot be seen from outside: its component calls `observe` on its placement.
 *
 * @param tracker the tracker to record into (any `{ shown, clicked }` recorder)
 * @param root where to look @default document
 * @returns a function that stops everything it started
 * @example
 * // <div data-engage-context='{"cid":"c1","experience":"Hero",...}'>...<a data-engage-b-id="shop">Shop</a></div>
 * const stop = autoObserve(tracker);
 */
export function autoObserve(tracker: Recorder, root?: ParentNode | null, options?: ObserveOptions | null): () => void {
  const opts: ObserveOptions = options ?? {};
  // Undefined without a document (SSR): then MO is too.
  const at = (root ?? (typeof document === 'object' ? document : undefined)) as Node;
  const win = at && (at.ownerDocument ?? (at as Document)).defaultView;
  const MO = win?.MutationObserver;
  if (!MO) return noop;
  const what: MutationObserverInit = { childList: true, subtree: true, attributes: true, attributeFilter: [CONTEXT], attributeOldValue: true };
  // Its placements are found in the document's table by their group: no map of its own, no copy
  // of the attribute's text, no closure. Made with the first placement (not in the caller's task).
  let g: Group | undefined;
  /** This call's placement on `node`, if any. */
  const mine = (node: Node) => {
    let p = g?._shared._watches.get(node as Element);
    while (p && p._group !== g) p = p._next;
    return p;
  };
  const drop = (node: Node) => {
    const p = mine(node);
    if (p) unwatch(p);
  };
  const start = (element: Element) => {
    drop(element);
    // watch reads the attribute, and reports it when it is not a JSON object. A placement out of
    // the page (in a component not inserted yet) starts when its host is inserted.
    if (element.hasAttribute(CONTEXT) && element.isConnected) watch((g ??= groupOf(tracker, element.ownerDocument)), element, opts);
  };
  const add = (node: Node) => (node as Element).hasAttribute?.(CONTEXT) && !mine(node) && start(node as Element);
  // One observer for the document and every open shadow root under `at`: MutationObserver sees
  // no further than the tree it observes, and observing a root twice is harmless. What is added is
  // walked in slices (a page that inserts a listing of 1,000 at once must not get a long task
  // from us); what is removed at once, while it is still out of the page.
  const track = (shadow: ShadowRoot) => {
    mo!.observe(shadow, what);
    adding([shadow]);
  };
  const adding = walkInSlices(add, track);
  const untrack = (shadow: ShadowRoot) => walk(shadow, drop, untrack);

  const changed = (records: MutationRecord[]) => {
    const added: Node[] = [];
    for (const { type, target, addedNodes, removedNodes, oldValue } of records) {
      // A changed context is a new placement; the same text set again is not.
      if (type == 'attributes' && oldValue !== (target as Element).getAttribute(CONTEXT)) start(target as Element);
      // Only the subtrees a record names are walked, never the page: added ones for placements and
      // roots (a component inserted after it rendered, a declarative root parsed later); removed
      // ones, once anything was watched, for the placements they took away, in their shadow roots
      // too (contains() stops at a shadow boundary). A node moved within the batch is in the page
      // again by now: left as it is.
      addedNodes.forEach((node) => node.nodeType == 1 && node.isConnected && added.push(node));
      removedNodes.forEach((node) => node.nodeType == 1 && !node.isConnected && g && walk(node as Element, drop, untrack));
    }
    adding(added);
  };
  let mo: MutationObserver | undefined;
  let unhook = noop;
  // In a later task, not the caller's (issue 51 §2: the observer and the hook were 2-5 ms of the
  // script tag's evaluation at 4× CPU). The walk, in slices, finds what the page added before; the
  // observer and the hook, started before it, what it adds after (the walk skips what they watch).
  const started = later(() => {
    (mo = new MO(changed)).observe(at, what);
    unhook = onShadowRoot(win, (shadow) => {
      // Inside `at`, across the shadow boundaries above it; a host out of the page is found when inserted.
      for (let node: Node | undefined = shadow.host; node; node = (node.getRootNode() as ShadowRoot).host) if (at.contains(node)) return track(shadow);
    });
    adding([at]);
  });

  return () => {
    started();
    adding();
    unhook();
    mo?.disconnect();
    // Unwatching as it goes: a Map's forEach visits what is set or left after each step.
    g?._shared._watches.forEach((first) => each(first, (p) => p._group === g && unwatch(p)));
  };
}
