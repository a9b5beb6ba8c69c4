// Types of the script tag's global `Engage` (dist/engage.iife.js), for pages that use it from
// TypeScript: `/// <reference types="engage-sdk/global" />`, or `import type {} from
// 'engage-sdk/engage.iife.js'`. Declarations only; nothing here runs. Derived from the tracker's
// own types, so the two cannot drift.
import type { EngageError } from './errors';
import type { createTracker } from './tracker/create-tracker';
import type { ExperienceContext, Tracker } from './tracker/types';

/** The methods the pre-load snippet queues before the script has loaded. */
export type EngageMethod = 'shown' | 'clicked' | 'identify' | 'flush' | 'observe' | 'startPageView' | 'consent' | 'optOut' | 'optIn' | 'reset' | 'destroy';

/**
 * `window.Engage`. `createTracker` is always there; the tracker's methods are there once the
 * script ran with `data-endpoint` (or, before it loads, as the pre-load snippet's stand-ins, which
 * queue the call and return undefined).
 *
 * @example
 * Engage.shown(context);
 * addEventListener('engage:error', (event) => console.warn(event.detail.code));
 */
export interface EngageGlobal extends Tracker {
  createTracker: typeof createTracker;
  /**
   * Counts an impression when half of `element` is on screen, painted and uncovered, for a second
   * (the rule of `observe`), and a click inside it;
   * `context` defaults to the element's `data-engage-context`. Returns a function that stops.
   */
  observe(element: Element, context?: ExperienceContext | null): () => void;
  /**
   * Begins a new page view now: each placement's impression may count once more. Page views
   * follow the URL's path and query by themselves (`data-page-views` on the script element:
   * `path`, `path+query`, `path+query+hash`, or `false` to follow nothing).
   */
  startPageView(): void;
  /** Calls queued before load, `[method, arguments]` in order; replayed, then emptied. */
  q?: Array<[EngageMethod, ArrayLike<unknown>]>;
  /** The default tracker the script made from its `data-` attributes. */
  tracker?: Tracker;
}

declare global {
  // `var`: a global property, so `Engage.shown(...)` and `window.Engage` are both typed.
  var Engage: EngageGlobal;
  interface WindowEventMap {
    /** Every error of the script tag's tracker (`detail.code`, `detail.message`). */
    'engage:error': CustomEvent<EngageError>;
  }
}
