// Automatic impressions and clicks: its own export that takes the tracker, so that a bundle
// importing only `createTracker` carries none of it (IntersectionObserver, timers,
// MutationObserver). Written against a two-method recorder rather than the tracker, so it can be
// tested (and reused) without the queue. Touches no global until called: SSR-safe.
import { type EngageError, ValidationError } from '../errors';
import { later } from './later';
import { pageViewOf } from './page-view';
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

const noop = () => {};

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
  call(() => (options.onError ? options.onError(error) : console.warn(`engage-sdk: ${error.message}`)));
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

/** One placement as the shared observer and timer see it. */
interface Watch {
  /** Its latest IntersectionObserver entry arrived. */
  _entry(entry: IntersectionObserverEntry): void;
  /** Looks again: the timer's tick, the tab shown or hidden. */
  _tick(): void;
}

/** Every placement of one document: one IntersectionObserver, one timer, one listener. */
interface Shared {
  _IO: typeof IntersectionObserver;
  _io: IntersectionObserver;
  /** Each observed element's watches: one, but for an element observed twice (two trackers). */
  _watches: Map<Element, Watch[]>;
  /** In view and not yet counted: looked at every TICK. */
  _ticking: Set<Watch>;
  _timer?: ReturnType<typeof setInterval>;
}

const shared = /* @__PURE__ */ new WeakMap<Document, Shared>();

function sharedOf(doc: Document, IO: typeof IntersectionObserver): Shared {
  let s = shared.get(doc);
  // A new constructor (a polyfill installed later) makes a new observer.
  if (s?._IO !== IO) {
    const watches = new Map<Element, Watch[]>();
    const ticking = new Set<Watch>();
    shared.set(
      doc,
      (s = {
        _IO: IO,
        _io: new IO((entries) => entries.forEach((entry) => watches.get(entry.target)?.forEach((watch) => watch._entry(entry))), {
          threshold: [0, 0.25, 0.5, 0.75, 1],
        }),
        _watches: watches,
        _ticking: ticking,
      }),
    );
    // A hidden tab stops every second at once; a shown one, or a prerendered page the visitor
    // opens, starts them again.
    const all = () => ticking.forEach((watch) => watch._tick());
    doc.addEventListener('visibilitychange', all);
    doc.addEventListener('prerenderingchange', all);
  }
  return s;
}

function tickOn(s: Shared, watch: Watch, on: boolean): void {
  if (on) s._ticking.add(watch);
  else s._ticking.delete(watch);
  if (!s._ticking.size) s._timer = void clearInterval(s._timer);
  else s._timer ??= setInterval(() => s._ticking.forEach((w) => w._tick()), TICK);
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
 * All placements of a page share one IntersectionObserver and one 100 ms timer, which runs only
 * while a placement is in view and not yet counted.
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
  const ctx = context ?? readContext(element);
  // No context given: the attribute had to hold it (autoObserve, too, leaves reading it to this function).
  if (!ctx) return (reportTo(opts, CONTEXT, 'must be the experience context as a JSON object'), noop);
  const view = pageViewOf(tracker);
  const { seen } = view;
  const key = impressionKey(ctx);
  const doc = element.ownerDocument as Document & { prerendering?: boolean };
  const IO = doc.defaultView?.IntersectionObserver;
  const s = IO && sharedOf(doc, IO);

  // The 50 % rule, from the latest entry; since when it is in view, painted, with an area; when the
  // current second began (undefined: it has not).
  let inView = false;
  let looked: number | undefined;
  let since: number | undefined;
  // A look since `looked` found it covered.
  let covered = false;
  // What an inspector was last told, so it hears changes, not ticks.
  let told: false | number | Element | undefined;
  let toldAway: unknown;
  // What this placement does, for an inspector (tap.ts): through the tracker, when it is one.
  const tell = (facts: PlacementFacts) => (tracker as Tapped)._tap?._report({ ...facts, _element: element, _context: ctx });

  const onClick = (event: Event) => {
    // A click is every way a person opens a link: `click` (primary button, modified or not,
    // keyboard, touch) and the middle button, which fires `auxclick` alone; not the right one.
    if (event.type != 'click' && (event as MouseEvent).button != 1) return;
    // The nearest control with a b_id, if it is inside the element: an outer placement's b_id is not this one's.
    const control = (event.target as Element | null)?.closest?.(`[${B_ID}]`);
    const bId = control && element.contains(control) ? control.getAttribute(B_ID) : null;
    call(() => tell({ _stage: CLICKED, _uuid: tracker.clicked(ctx, bId ? { b_id: bId } : undefined) }));
  };

  const watch: Watch = {
    _entry({ isIntersecting, intersectionRatio, intersectionRect: rect, rootBounds: root }) {
      inView =
        isIntersecting &&
        (intersectionRatio >= 0.5 ||
          // A placement taller than the viewport can never be half visible: half the screen will do.
          (!!root && rect.width * rect.height * 2 >= root.width * root.height));
      tickOn(s!, watch, inView);
      watch._tick();
    },
    _tick() {
      const counted = seen.has(key);
      // A hidden tab or a prerendered page: nobody is looking, whatever the placement shows.
      const away = doc.visibilityState === 'hidden' || !!doc.prerendering;
      const now = performance.now();
      // Covers are looked for from a tick after it came into view, painted, with an area: most
      // placements a scroll passes leave before that, and cost no hit test (elementFromPoint is
      // the expensive part, 30-60 µs a point in Chromium).
      const covers = looked !== undefined && now - looked >= TICK;
      const what = inView && (counted ? SEEN : sight(element, covers));
      if (what !== told || away !== toldAway) {
        toldAway = away;
        tell({ _stage: VIEW, _sight: (told = what), _counted: counted });
      }
      if (counted) return stopViewing();
      if (what === SEEN && !away) {
        looked ??= now;
        // Uncovered at the first look: since it came into view, as sampling goes; after a cover, from now.
        if (covers) since ??= covered ? now : looked;
      } else if (typeof what == 'object' && !away) {
        // Covered (by `what`): the second starts again at the first look that finds it uncovered.
        since = undefined;
        covered = true;
      } else {
        looked = since = undefined;
        covered = false;
      }
      // Looked at every TICK, so the second ends on a tick at most TICK after it is complete.
      if (since !== undefined && now - since >= 1000) {
        seen.add(key);
        stopViewing();
        call(() => tell({ _stage: COUNTED, _uuid: tracker.shown(ctx) }));
      }
    },
  };

  const stopViewing = () => {
    looked = since = undefined;
    if (!s) return;
    tickOn(s, watch, false);
    const list = s._watches.get(element)?.filter((w) => w != watch);
    if (list?.length) s._watches.set(element, list);
    else if (list && s._watches.delete(element)) s._io.unobserve(element);
  };

  // Also what a new page view does: the rule starts over, from what the new view shows.
  const startViewing = () => {
    stopViewing();
    inView = false;
    told = undefined;
    if (s && !seen.has(key)) {
      s._watches.set(element, [...(s._watches.get(element) ?? []), watch]);
      // Observed anew either way, so that an entry for this element (and so this watch) comes now.
      s._io.unobserve(element);
      s._io.observe(element);
    }
    // Tells an inspector where the rule starts from (not in view).
    watch._tick();
  };

  element.addEventListener('click', onClick);
  element.addEventListener('auxclick', onClick);
  // Without IntersectionObserver there is no honest way to know the element was seen: count nothing.
  if (!IO) reportTo(opts, 'IntersectionObserver', 'is not available');
  startViewing();
  view.restart.add(startViewing);

  // Idempotent without a flag: both steps may run twice.
  return () => {
    stopViewing();
    view.restart.delete(startViewing);
    element.removeEventListener('click', onClick);
    element.removeEventListener('auxclick', onClick);
    tell({ _stage: UNOBSERVED });
  };
}

/**
 * Observes every element carrying `data-engage-context` (the experience context as JSON) under
 * `root`, including elements added or changed later. A re-rendered placement (same context, new
 * node) is not counted twice in one page view; a new page view counts it again. Unreadable JSON is reported through `onError` and
 * that element is skipped.
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
  const at = root ?? (typeof document === 'object' ? document : undefined);
  const MO = at && ((at as Node).ownerDocument ?? (at as Document)).defaultView?.MutationObserver;
  if (!MO) return noop;
  const selector = `[${CONTEXT}]`;
  // element → [the attribute's text when observed, stop]
  const watched = new Map<Element, [string, () => void]>();

  const start = (element: Element) => {
    const raw = element.getAttribute(CONTEXT);
    const current = watched.get(element);
    if (current?.[0] === raw) return;
    current?.[1]();
    watched.delete(element);
    // observe reads the attribute, and reports it when it is not a JSON object.
    if (raw !== null) watched.set(element, [raw, observe(tracker, element, undefined, opts)]);
  };
  const scan = (node: Node | ParentNode) => {
    if ((node as Element).matches?.(selector)) start(node as Element);
    (node as Element).querySelectorAll?.(selector).forEach(start);
  };

  const mo = new MO((records) => {
    for (const record of records) {
      if (record.type === 'attributes') start(record.target as Element);
      record.addedNodes.forEach(scan);
    }
    // Placements taken out of the page stop (a handful of entries, so a pass per batch is cheap).
    watched.forEach(([, stop], element) => element.isConnected || (stop(), watched.delete(element)));
  });
  mo.observe(at, { childList: true, subtree: true, attributes: true, attributeFilter: [CONTEXT] });
  // In a later task, not the caller's (issue 51: start-up); the observer sees what changes meanwhile.
  const scanned = later(() => scan(at));

  return () => {
    scanned();
    mo.disconnect();
    watched.forEach(([, stop]) => stop());
    watched.clear();
  };
}
