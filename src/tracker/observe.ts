// Automatic impressions and clicks: its own export that takes the tracker, so that a bundle
// importing only `createTracker` carries none of it (IntersectionObserver, timers,
// MutationObserver). Written against a two-method recorder rather than the tracker, so it can be
// tested (and reused) without the queue. Touches no global until called: SSR-safe.
import { type EngageError, ValidationError } from '../errors';
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
 * screen for an element taller than it, for 1 continuous second with the tab visible, once per
 * page view: see `followPageViews`); so are the attributes, `data-engage-context` and
 * `data-engage-b-id`.
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
 * Counts an impression (SHOWN) once per page view when at least half of `element` has been
 * visible for one continuous second while the tab is visible, and a click (CLICKED) on every click
 * inside it, with `b_id` from the nearest `data-engage-b-id` between the click target and the
 * element. A click without such an attribute is recorded without `b_id`: control text is never
 * used (it changes with translations and may carry personal data). Never throws.
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
  const doc = element.ownerDocument;
  const IO = doc.defaultView?.IntersectionObserver;

  let timer: ReturnType<typeof setTimeout> | undefined;
  let inView = false;
  let io: IntersectionObserver | undefined;
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

  const arm = () => {
    clearTimeout(timer);
    timer = undefined;
    tell({ _stage: VIEW, _inView: inView, _counted: seen.has(key) });
    if (inView && doc.visibilityState !== 'hidden' && !seen.has(key)) {
      const end = performance.now() + 1000;
      const fire = () => {
        // Firefox fires timers early (995 ms for 1,000 seen under load): wait out the rest.
        if (performance.now() < end) return void (timer = setTimeout(fire, end - performance.now()));
        if (seen.has(key)) return;
        seen.add(key);
        stopViewing();
        call(() => tell({ _stage: COUNTED, _uuid: tracker.shown(ctx) }));
      };
      timer = setTimeout(fire, 1000);
    }
  };

  const stopViewing = () => {
    clearTimeout(timer);
    io?.disconnect();
    doc.removeEventListener('visibilitychange', arm);
  };

  // Also what a new page view does: the rule starts over, from what the new view shows.
  const startViewing = () => {
    stopViewing();
    inView = false;
    if (IO && !seen.has(key)) {
      io = new IO(
        (entries) => {
          const { isIntersecting, intersectionRatio, intersectionRect: rect, rootBounds: root } = entries[entries.length - 1]!;
          inView =
            isIntersecting &&
            (intersectionRatio >= 0.5 ||
              // A placement taller than the viewport can never be half visible: half the screen will do.
              (!!root && rect.width * rect.height * 2 >= root.width * root.height));
          arm();
        },
        { threshold: [0, 0.25, 0.5, 0.75, 1] },
      );
      io.observe(element);
      doc.addEventListener('visibilitychange', arm);
    }
    // Tells an inspector where the rule starts from (arming nothing: not in view).
    arm();
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
  scan(at);

  return () => {
    mo.disconnect();
    watched.forEach(([, stop]) => stop());
    watched.clear();
  };
}
