import { DroppedEventsError, type EngageError, HttpError, NetworkError, ValidationError } from '../errors';
import { type Batch, nowSeconds, post, sentUrl, takeBatch } from './batch';
import { noop, warn } from './console';
import type { EventQueue } from './event-queue';
import { type DropCounts, EXPIRED, QUEUE_FULL, REFUSED } from './drop-counts';
import { stealFlushLock, withFlushLock } from './flush-lock';
import { classify, HOLD, OK, parseRetryAfter, retryDelay, SPLIT } from './retry-policy';
import { ANSWERED, DROPPED, QUEUED, SENDING, type TapListener } from './tap';
import type { StoredEvent, TrackerOptions } from './types';

// Browsers cap the bodies of keepalive requests in flight at 64 KiB per page (Fetch spec); a
// request over the budget fails outright, so larger ones go without keepalive.
const KEEPALIVE_BUDGET = 60_000;
// This tab's undelivered events kept for a closing page to send (the newest 500 to 1,000): more
// never fit the keepalive budget.
const KEPT_FOR_HIDE = 500;

/** What the tracker drives delivery with: how queued events reach the proxy. */
export interface Delivery {
  /** A newly recorded event: kept for a closing page, and a run scheduled for it. */
  _add(event: StoredEvent): void;
  /** A run in `delay` ms at the latest. */
  _schedule(delay: number): void;
  /** A run now, after the current one; resolves once everything queued at the call is delivered. */
  _flush(): Promise<void>;
  /** Nothing of this tab's is kept for a closing page (the queue was cleared). */
  _forget(): void;
  /** No more runs, timers or listeners. */
  _stop(): void;
  /** What its own listeners do for a `pagehide` or `visibilitychange` dispatched before they were added. */
  _hide(event: Event): void;
}

/**
 * Delivery of the shared queue through the proxy, at least once: a run under the cross-tab lock
 * reads the queue, ages it, and sends it batch by batch, removing a batch only after a 2xx; failures
 * back off (retry-policy.ts); a page going away sends what it recorded with keepalive and beacons.
 *
 * @param url the proxy's events URL
 * @param customer the customer of an event recorded without one, read at each batch (undefined: it waits)
 * @param report where errors go (the tracker's `onError`)
 * @param tap where each step is reported (tap.ts)
 * @param drops the loss report (drop-counts.ts): what a run drops is counted, and its requests carry the counts
 * @param wake asks for delivery without this page (background-sync.ts): called when a failure
 *   streak begins, and when the page hides while delivery fails or the browser is offline
 */
export function createDelivery(
  options: TrackerOptions,
  url: string,
  queue: EventQueue,
  customer: (event: StoredEvent) => string | undefined,
  report: (error: EngageError) => void,
  tap: TapListener,
  drops: DropCounts,
  wake?: () => void,
): Delivery {
  // `??`, not destructuring defaults: null means "not given" too.
  const batchSize = options.batchSize ?? 20;
  const flushInterval = options.flushInterval ?? 5_000;
  const maxQueueSize = options.maxQueueSize ?? 10_000;
  const maxEventAge = options.maxEventAge ?? 7 * 24 * 3_600_000;
  const maxRequestBytes = options.maxRequestBytes ?? 60_000;
  const lockName = `engage-sdk:${options.namespace ?? 'default'}`;
  const inFlight = new Set<string>();
  const listening = new AbortController();
  // What this tab recorded and has not seen delivered, newest last (objects, not UUID keys: hot path).
  let mine = new Set<StoredEvent>();

  let stopped = false;
  let hidden = false;
  // A pagehide came while the page was still visible: the visibilitychange after it beacons again.
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = Infinity;
  let blockedUntil = 0;
  let failures = 0;
  let recordedSinceRun = 0;
  let keepaliveBytes = 0;
  let running: Promise<void> | undefined;
  // A run asked for the lock without waiting, and has neither had it nor been told no: a request
  // that settles at once, unless the page was frozen in between (stealFlushLock).
  let asking = false;
  let toldWaiting = false;

  const take = (events: StoredEvent[], maxBytes = maxRequestBytes) => takeBatch(events, customer, nowSeconds(), maxBytes);
  const unsent = (events: StoredEvent[]) => events.filter((event) => !inFlight.has(event.uuid));
  /** Removes events from the queue, and from what a closing page would send. */
  function done(events: StoredEvent[]): Promise<void> {
    if (mine.size) {
      const gone = new Set(events.map((event) => event.uuid));
      for (const event of mine) if (gone.has(event.uuid)) mine.delete(event);
    }
    return queue._remove(events);
  }

  function schedule(delay: number): void {
    if (stopped) return;
    // setTimeout fires at once for delays beyond 2^31-1 ms; cap at a day.
    const at = Math.max(Date.now() + Math.min(delay, 864e5), blockedUntil);
    // `due` is Infinity whenever no timer is set.
    if (due <= at) return;
    clearTimeout(timer);
    due = at;
    timer = setTimeout(() => {
      timer = undefined;
      due = Infinity;
      run(false).catch(noop);
    }, at - Date.now());
  }

  /**
   * One delivery run: under the cross-tab lock, read the shared queue, age it, and send it batch by
   * batch, removing each batch only after a 2xx. Runs of one tab never overlap; `flush()` waits
   * for the current run and then runs again, so it covers everything queued at its call.
   */
  function run(explicit: boolean): Promise<void> {
    if (running && !explicit) return running;
    const current: Promise<void> = (running ?? Promise.resolve())
      .catch(noop)
      .then(() => {
        recordedSinceRun = 0;
        asking = !explicit;
        return withFlushLock(lockName, explicit, () => ((asking = false), deliverAll()));
      })
      .then(
        (waiting) => {
          // Events recorded while this run was sending are not in its snapshot.
          if (recordedSinceRun) schedule(recordedSinceRun >= batchSize ? 0 : flushInterval);
          // Another tab is delivering (only a run that does not wait gives way); look again later in case it dies.
          if (waiting === undefined) schedule(flushInterval);
          else if (waiting) {
            const error = new ValidationError('customerId', `is not set: ${waiting} event(s) wait for identify()`);
            if (explicit) throw error;
            // Said once, not at every run: events held for want of a customer were a silence (issue 43).
            if (!toldWaiting) warn(error);
            toldWaiting = true;
          }
        },
        (error) => {
          schedule(0);
          throw error;
        },
      )
      .finally(() => {
        asking = false;
        if (running === current) running = undefined;
      });
    return (running = current);
  }

  /** Resolves with the number of events still waiting for a customer. */
  async function deliverAll(): Promise<number> {
    const events = await queue._read();
    tap({ _stage: QUEUED, _events: events });
    // Drop (and report) what is too old, then the oldest beyond `maxQueueSize`: from the front, oldest first.
    const oldest = Date.now() - maxEventAge;
    const expired = events.filter((event) => event.recordedAt < oldest).length;
    const dropped = Math.max(expired, events.length - maxQueueSize);
    if (dropped) {
      const gone = events.slice(0, dropped);
      await done(gone);
      tap({ _stage: DROPPED, _events: gone, _expired: expired });
      if (expired) report(new DroppedEventsError(expired, 'expired'));
      if (dropped > expired) report(new DroppedEventsError(dropped - expired, 'overflow'));
      drops._add(EXPIRED, expired);
      drops._add(QUEUE_FULL, dropped - expired);
    }
    await drops._claim();
    let rest = unsent(events.slice(dropped));
    for (let taken; (taken = take(rest))._batch;) {
      rest = taken._rest;
      await deliver(taken._batch);
    }
    blockedUntil = 0;
    return rest.length;
  }

  /** Sends one batch. A refused batch is halved until the refused event stands alone. Throws when it must wait. */
  async function deliver({ _events: events, _body: body, _bytes: bytes }: Batch): Promise<void> {
    const keepalive = keepaliveBytes + bytes <= KEEPALIVE_BUDGET;
    if (keepalive) keepaliveBytes += bytes;
    events.forEach((event) => inFlight.add(event.uuid));
    tap({ _stage: SENDING, _events: events });
    // What came back: `status` stays 0 when no answer came, or when what answered was not the
    // proxy; `error` says why the events were not delivered.
    let status = 0;
    let error: EngageError | undefined;
    let retryAfterMs: number | undefined;
    let response: Response | undefined;
    const carried = drops._query();
    try {
      response = await post(options, sentUrl(url, carried), body, keepalive);
      // Read every body: Chromium counts a keepalive request against its 64 KiB budget until its
      // response is consumed, and unread 2xx bodies starve every later keepalive request. An error
      // body that is not JSON (a gateway's HTML page) is read and left out of the HttpError.
      const parsed = (await response.json().catch(noop)) as { status?: unknown } | undefined;
      status = response.status;
      if (!response.ok) {
        retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
        error = new HttpError(status, { body: parsed, retryAfterMs });
      } else if (parsed?.status != 'success') {
        // Only the upstream's acknowledgement (which the proxy passes on, and uses for its own) is
        // delivery: a 2xx of a service worker's offline page, a captive portal or a host's
        // catch-all is not, and the events are kept and sent again like after a network error.
        error = new HttpError(status, { body: parsed, message: `${response.headers.get('content-type') || 'no content type'} from ${url}: not the proxy's answer` });
        status = 0;
      }
    } catch (cause) {
      error = new NetworkError(undefined, { cause });
    }
    if (keepalive) keepaliveBytes -= bytes;
    events.forEach((event) => inFlight.delete(event.uuid));
    tap({ _stage: ANSWERED, _events: events, _status: status, _error: error, _response: response });
    const verdict = classify(status);
    if (verdict === OK) {
      // Progress ends a failure streak: under intermittent failures, backoff must not keep growing.
      failures = 0;
      drops._sent(carried);
      return done(events);
    }
    if (verdict === SPLIT) {
      if (events.length < 2) {
        await done(events);
        drops._add(REFUSED, 1);
        return report(new DroppedEventsError(1, 'rejected', { cause: error }));
      }
      const half = Math.ceil(events.length / 2);
      await deliver(take(events.slice(0, half), Infinity)._batch!);
      return deliver(take(events.slice(half), Infinity)._batch!);
    }
    failures++;
    blockedUntil = Date.now() + retryDelay(verdict, failures, retryAfterMs);
    if (failures === 1 || verdict === HOLD) {
      report(error!);
      wake?.();
    }
    throw error!;
  }

  /**
   * The page may be going away: what this tab recorded and has not delivered is sent now, with
   * keepalive and within its budget, written to IndexedDB or not (WebKit commits within ~100 ms,
   * and a durable event would otherwise wait for a next visit that may never come); the rest stays
   * durable for the next page, which re-sends what this sent (the proxy answers a repeat from its
   * UUID memory). Runs once per hide, whether `visibilitychange` or `pagehide` comes first
   * (analytics-next #607, #613).
   */
  function onHide(): void {
    if (hidden) return;
    hidden = true;
    // Delivery fails or the browser is offline: what this page leaves is for the service worker.
    if (failures || !navigator.onLine) wake?.();
    // While the upstream fails, the events wait durably: a request the page cannot follow up would
    // be retried by the proxy alongside the next page's (WebKit, reload while failing: 187 of 200 twice).
    let rest = failures ? [] : unsent([...mine]);
    for (let taken; (taken = take(rest))._batch && keepaliveBytes + taken._batch._bytes <= KEEPALIVE_BUDGET;) {
      rest = taken._rest;
      deliver(taken._batch).catch(noop);
    }
    run(false).catch(noop);
  }

  /**
   * The page is unloading: what this tab has not seen delivered also leaves as a beacon (text/plain,
   * which the proxy accepts), Firefox's keepalive fetches from a closing tab being lost more often
   * than its beacons. A beacon's answer is never known: the events stay queued, and a repeat is
   * answered from the proxy's UUID memory. A tab closing in Firefox (153 ESR) fires pagehide while
   * still visible, then visibilitychange, and loses the requests made in either at random (20
   * closes: pagehide's lost in 12, visibilitychange's in 1, never both): after such a pagehide, the
   * visibilitychange beacons the same again (a beacon over the browser's budget is refused, not
   * an error).
   */
  function onPageHide(): void {
    // Only tested for presence here; called on navigator below.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const beacon = !options.fetch && !options.headers && typeof navigator !== 'undefined' && navigator.sendBeacon;
    for (let rest = [...mine], taken; beacon && !failures && (taken = take(rest))._batch; rest = taken._rest) {
      if (!navigator.sendBeacon(sentUrl(url, drops._query()), taken._batch._body)) break;
      // Sent: not again by this page's own last delivery run (Chromium: each event twice).
      taken._batch._events.forEach((event) => inFlight.add(event.uuid));
    }
    again = document.visibilityState != 'hidden';
    onHide();
  }

  let onVisibility = noop;
  const listen = (target: EventTarget, type: string, handler: (event: Event) => void) => target.addEventListener(type, handler, { signal: listening.signal });

  // A document means a window too (not in SSR, nor in a worker).
  if (typeof document === 'object') {
    const shown = () => (hidden = again = false);
    onVisibility = () => (document.visibilityState === 'hidden' ? (again ? onPageHide : onHide)() : shown());
    listen(document, 'visibilitychange', onVisibility);
    listen(window, 'pagehide', onPageHide);
    listen(window, 'pageshow', (event) => {
      shown();
      // Restored from the back/forward cache with a lock request that never came back (Firefox).
      if ((event as PageTransitionEvent).persisted && asking) stealFlushLock(lockName);
    });
    listen(window, 'online', () => {
      blockedUntil = 0;
      schedule(0);
    });
  }

  // Deliver what earlier pages left behind.
  schedule(Math.min(flushInterval, 1_000));

  return {
    _add(event) {
      mine.add(event);
      // Cut back to the newest in one go, not the oldest one at a time: that was an iterator and
      // its result, two allocations, for every event past the first 500.
      if (mine.size > 2 * KEPT_FOR_HIDE) mine = new Set([...mine].slice(-KEPT_FOR_HIDE));
      // Scheduling reads the clock: only when it can change something (hot path).
      if (++recordedSinceRun === batchSize) schedule(0);
      else if (timer === undefined) schedule(flushInterval);
    },
    _schedule: schedule,
    _flush() {
      blockedUntil = 0;
      return run(true);
    },
    _forget: () => mine.clear(),
    _hide: (event) => (event.type === 'pagehide' ? onPageHide : onVisibility)(),
    _stop() {
      stopped = true;
      clearTimeout(timer);
      listening.abort();
    },
  };
}
