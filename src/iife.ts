// Script-tag entry (dist/engage.iife.js, global `Engage`). Unlike the modules, running on load is
// this file's whole job. No eval, no inline code, no injected styles: it works under
// `script-src 'self'`.
//
//   <script src="/engage-preload.js"></script>   (optional: queues calls made before load)
//   <script async src="/dist/engage.iife.js" data-endpoint="/engage" data-customer-id="u-42"></script>
//
// data- options of the script element (all optional but data-endpoint, which turns on the default
// tracker): data-customer-id, data-batch-size, data-flush-interval (ms), data-namespace,
// data-service-worker (the URL of engage-sw.js: delivery with no page open, where Background Sync exists),
// data-consent (`granted` — the default —, `pending` or `denied`), data-honor-global-privacy-control
// ="false" to let Global Privacy Control pass, data-auto-observe="false" to leave
// `[data-engage-context]` elements alone, and data-page-views
// (`path`, `path+query` — the default —, `path+query+hash`, or `false`: which part of the URL
// starts a new page view). Unlike the module entry, where viewability is its own export, this
// build includes it: `Engage.observe(element, context?)`, the automatic observation of
// `[data-engage-context]` elements, and `Engage.startPageView()`.
// Errors go to `onError`'s stand-in: an `engage:error` event on window (detail: the EngageError).
import { createTracker } from './tracker/create-tracker';
import { autoObserve, observe, type Recorder } from './tracker/observe';
import { later } from './tracker/later';
import { script, sibling } from './tracker/load-durable-script';
import { followPageViews, type PageViewFollow, startPageView } from './tracker/page-view';
import type { EngageError } from './errors';
import type { Tapped, TapReport } from './tracker/tap';
import type { ConsentState, Tracker } from './tracker/types';

type Method = 'shown' | 'clicked' | 'identify' | 'flush' | 'observe' | 'startPageView' | 'consent' | 'optOut' | 'optIn' | 'reset' | 'destroy';
type EngageGlobal = Partial<Record<Method, (...args: never[]) => unknown>> & {
  /** Calls made before load by the pre-load snippet: `[method, arguments]`, in order. */
  q?: Array<[Method, ArrayLike<unknown>]>;
  createTracker?: typeof createTracker;
  /** The default tracker, when data-endpoint was given. */
  tracker?: Tracker;
};

if (typeof document === 'object') {
  const engage: EngageGlobal = ((window as unknown as { Engage?: EngageGlobal }).Engage ||= {});
  engage.createTracker = createTracker;
  const data = script?.dataset;
  if (data?.endpoint && !engage.tracker) {
    const onError = (error: EngageError) => dispatchEvent(new CustomEvent('engage:error', { detail: error }));
    const number = (value?: string) => (value ? +value : undefined);
    const tracker = (engage.tracker = createTracker({
      endpoint: data.endpoint,
      customerId: data.customerId,
      batchSize: number(data.batchSize),
      flushInterval: number(data.flushInterval),
      namespace: data.namespace,
      consent: data.consent as ConsentState | undefined,
      honorGlobalPrivacyControl: data.honorGlobalPrivacyControl !== 'false',
      serviceWorker: data.serviceWorker,
      onError,
    }));
    // `?engage-inspect` in the URL (remembered for the tab; `=off` forgets it) loads the inspection
    // mode from beside this script, and what happens meanwhile waits for it in `q`. Without the flag
    // nothing is fetched, added or logged. The flag is read in a later task (sessionStorage's first
    // read alone took 15-36 ms at 4× CPU, issue 51); until then the reports wait in the buffer that
    // lifecycle.ts, in the inspector's bundle, takes over from.
    const tap = (tracker as Tapped)._tap!;
    const buffer = Object.assign((report: TapReport) => buffer._buffered.push(report), { _buffered: [] as TapReport[] });
    tap._attach(buffer);
    const search = location.search;
    later(() => {
      try {
        const flag = 'engage-inspect';
        const session = sessionStorage;
        const asked = new URLSearchParams(search).get(flag);
        if (asked === 'off') session.removeItem(flag);
        else if (asked !== null) session.setItem(flag, '1');
        if (session[flag]) return void sibling('engage.inspect.js');
      } catch {
        // No session storage (blocked): no inspection, and nothing else changes.
      }
      // Unless the page subscribed meanwhile (onLifecycle takes over from the buffer).
      if (tap._attach()._listener === buffer) tap._attach(null);
    });
    // Everything observation started, so destroy() ends it as it did when observe was the tracker's.
    const stops: Array<() => void> = [];
    // The tracker's methods use no `this`: Engage.shown is tracker.shown itself.
    Object.assign(engage, tracker);
    // Engage itself is the recorder, so automatic events go through Engage.shown/clicked like manual ones.
    const recorder = engage as unknown as Recorder;
    engage.observe = (element: Element, context?: never) => stops[stops.push(observe(recorder, element, context, { onError })) - 1];
    engage.startPageView = () => startPageView(recorder);
    if (data.pageViews) later(() => followPageViews(recorder, (data.pageViews === 'false' ? false : data.pageViews) as PageViewFollow));
    engage.destroy = () => {
      stops.forEach((stop) => stop());
      tracker.destroy();
    };
    const queued = engage.q ?? [];
    engage.q = [];
    for (const [method, args] of queued) {
      try {
        (engage[method] as (...a: unknown[]) => unknown)(...Array.from(args));
      } catch {
        // Never throw into the page, even for a misspelt queued call.
      }
    }
    // Even while the page is still loading: from its start, a task later, its walk finds what the
    // parser added and its MutationObserver what the parser adds after
    // (test/e2e/demo/parse-time.html), so there is no DOMContentLoaded to wait for.
    if (data.autoObserve !== 'false') stops.push(autoObserve(recorder, document, { onError }));
  }
}
