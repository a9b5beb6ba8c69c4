// Automatic impressions and clicks. Written against a two-method recorder rather than the tracker,
// so it can be tested (and reused) without the queue. Touches no global until called: SSR-safe.
import { type EngageError, ValidationError } from '../errors';
import type { ExperienceContext, ExtraAttributes } from './types';

/** What `observe` records into: the tracker satisfies it. */
export interface Recorder {
  shown(context: ExperienceContext, attributes?: ExtraAttributes): string | undefined;
  clicked(context: ExperienceContext, attributes?: ExtraAttributes): string | undefined;
}

export interface ObserveOptions {
  /** Share of the element (or of the viewport, for elements larger than it) that must be visible. @default 0.5 */
  threshold?: number;
  /** Continuous visible time, with the tab visible, before the impression counts, in ms. @default 1000 */
  minVisibleMs?: number;
  /** Attribute of the clicked control (or an ancestor inside the element) that gives the click its `b_id`. @default 'data-engage-b-id' */
  bIdAttribute?: string;
  /**
   * Impression keys already counted in this page view. Defaults to one set per recorder, so a
   * re-rendered placement (same context, new node) is not counted twice; pass a fresh set after
   * an SPA route change to start a new page view.
   * @default a set shared by every call with the same recorder
   */
  seen?: Set<string>;
  /** Receives bad input (an unreadable `data-engage-context`, a missing element); nothing is thrown. */
  onError?: (error: EngageError) => void;
}

// Per recorder, so two trackers on one page keep separate page views. Created lazily below.
let pageViews: WeakMap<Recorder, Set<string>> | undefined;

/**
 * The identity of an impression: the same experience variation for the same audience counts once
 * per page view, whichever DOM node shows it.
 *
 * @example
 * impressionKey({ cid: 'c1', experience: 'Hero', svc_variation_id: '2', audience_id: 'a', ... }); // 'c1|Hero|2|a'
 */
export const impressionKey = (context: ExperienceContext): string =>
  [context.cid, context.experience, context.svc_variation_id, context.audience_id].join('|');

const noop = () => {};

function reportTo(options: ObserveOptions, error: EngageError): void {
  try {
    options.onError?.(error);
  } catch {
    // A throwing onError must not break the page.
  }
}

/**
 * Counts an impression (SHOWN) once per page view when at least half of `element` has been
 * visible for one continuous second while the tab is visible, and a click (CLICKED) on every click
 * inside it, with `b_id` from the nearest `data-engage-b-id` between the click target and the
 * element. A click without such an attribute is recorded without `b_id`: control text is never
 * used (it changes with translations and may carry personal data). Never throws.
 *
 * @param element the placement's root element
 * @param context the experience context the page received with the content
 * @param recorder usually the tracker
 * @returns a function that stops observing (idempotent)
 * @example
 * const stop = observe(document.querySelector('#hero')!, heroContext, tracker);
 * // later, when the placement is removed:
 * stop();
 */
export function observe(element: Element, context: ExperienceContext, recorder: Recorder, options: ObserveOptions = {}): () => void {
  const report = (error: EngageError) => reportTo(options, error);
  if (!element || typeof element.addEventListener !== 'function') {
    report(new ValidationError('element', 'must be a DOM Element'));
    return noop;
  }
  const threshold = options.threshold ?? 0.5;
  const minVisibleMs = options.minVisibleMs ?? 1000;
  const bIdAttribute = options.bIdAttribute ?? 'data-engage-b-id';
  pageViews ??= new WeakMap();
  let seen = options.seen ?? pageViews.get(recorder);
  if (!seen) pageViews.set(recorder, (seen = new Set()));
  const key = impressionKey(context);
  const doc = element.ownerDocument;
  const win = doc.defaultView;

  let timer: ReturnType<typeof setTimeout> | undefined;
  let inView = false;
  let io: IntersectionObserver | undefined;

  const onClick = (event: Event) => {
    let node = event.target as Element | null;
    let bId: string | null = null;
    // Walk up to the element (not beyond: an outer placement's b_id is not this one's).
    while (node && bId === null) {
      bId = node.getAttribute?.(bIdAttribute) ?? null;
      node = node === element ? null : node.parentElement;
    }
    try {
      recorder.clicked(context, bId ? { b_id: bId } : undefined);
    } catch {
      // The tracker never throws; a custom recorder might, and the page's click must go on.
    }
  };

  const arm = () => {
    clearTimeout(timer);
    timer = undefined;
    if (inView && doc.visibilityState !== 'hidden' && !seen.has(key)) {
      const end = performance.now() + minVisibleMs;
      const fire = () => {
        // Firefox fires timers early (995 ms for 1,000 seen under load): wait out the rest.
        if (performance.now() < end) return void (timer = setTimeout(fire, end - performance.now()));
        timer = undefined;
        if (seen.has(key)) return;
        seen.add(key);
        stopViewing();
        try {
          recorder.shown(context);
        } catch {
          // As for clicks.
        }
      };
      timer = setTimeout(fire, minVisibleMs);
    }
  };

  const stopViewing = () => {
    clearTimeout(timer);
    io?.disconnect();
    io = undefined;
    doc.removeEventListener('visibilitychange', arm);
  };

  element.addEventListener('click', onClick);
  if (!seen.has(key)) {
    const IO = win?.IntersectionObserver;
    if (!IO) {
      // Without it there is no honest way to know the element was seen: count nothing.
      report(new ValidationError('IntersectionObserver', 'is not available: no automatic impressions'));
    } else {
      io = new IO(
        (entries) => {
          const entry = entries[entries.length - 1]!;
          const root = entry.rootBounds;
          const area = entry.intersectionRect.width * entry.intersectionRect.height;
          inView =
            entry.isIntersecting &&
            (entry.intersectionRatio >= threshold ||
              // A placement taller than the viewport can never be half visible: half the screen will do.
              (!!root && area >= threshold * root.width * root.height));
          arm();
        },
        { threshold: [0, 0.25, 0.5, 0.75, 1] },
      );
      io.observe(element);
      doc.addEventListener('visibilitychange', arm);
    }
  }

  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    stopViewing();
    element.removeEventListener('click', onClick);
  };
}

/** Options of `autoObserve`: those of `observe`, plus the attribute that carries the context. */
export interface AutoObserveOptions extends ObserveOptions {
  /** Attribute holding the experience context as JSON. @default 'data-engage-context' */
  contextAttribute?: string;
}

/**
 * Observes every element carrying `data-engage-context` (the experience context as JSON) under
 * `root`, including elements added or changed later. A re-rendered placement (same context, new
 * node) is not counted twice in one page view. Unreadable JSON is reported through `onError` and
 * that element is skipped.
 *
 * @param root where to look @default document
 * @returns a function that stops everything it started
 * @example
 * // <div data-engage-context='{"cid":"c1","experience":"Hero",...}'>...<a data-engage-b-id="shop">Shop</a></div>
 * const stop = autoObserve(document, tracker);
 */
export function autoObserve(root: ParentNode | undefined, recorder: Recorder, options: AutoObserveOptions = {}): () => void {
  root ??= typeof document === 'undefined' ? undefined : document;
  const MO = root && ((root as Node).ownerDocument ?? (root as Document)).defaultView?.MutationObserver;
  if (!root || !MO) return noop;
  const attribute = options.contextAttribute ?? 'data-engage-context';
  const watched = new Map<Element, { raw: string; stop: () => void }>();

  const start = (element: Element) => {
    const raw = element.getAttribute(attribute);
    const current = watched.get(element);
    if (current && current.raw === raw) return;
    current?.stop();
    watched.delete(element);
    if (raw === null) return;
    let context: unknown;
    try {
      context = JSON.parse(raw);
    } catch {
      context = undefined;
    }
    if (!context || typeof context !== 'object' || Array.isArray(context)) {
      reportTo(options, new ValidationError(attribute, 'must be the experience context as a JSON object'));
      return;
    }
    watched.set(element, { raw, stop: observe(element, context as ExperienceContext, recorder, options) });
  };
  const scan = (node: Node) => {
    if (node.nodeType !== 1) return;
    if ((node as Element).hasAttribute(attribute)) start(node as Element);
    (node as Element).querySelectorAll(`[${attribute}]`).forEach(start);
  };
  const prune = () => {
    for (const [element, entry] of watched) {
      if (!element.isConnected) {
        entry.stop();
        watched.delete(element);
      }
    }
  };

  const mo = new MO((records) => {
    let removed = false;
    for (const record of records) {
      if (record.type === 'attributes') start(record.target as Element);
      record.addedNodes.forEach(scan);
      removed ||= record.removedNodes.length > 0;
    }
    if (removed) prune();
  });
  mo.observe(root as Node, { childList: true, subtree: true, attributes: true, attributeFilter: [attribute] });
  (root as Element).querySelectorAll(`[${attribute}]`).forEach(start);
  if ((root as Element).hasAttribute?.(attribute)) start(root as Element);

  return () => {
    mo.disconnect();
    watched.forEach((entry) => entry.stop());
    watched.clear();
  };
}
