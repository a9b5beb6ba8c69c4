// The tracker's loss report (issue 41): every event it drops is counted by reason, and the counts
// ride on the next request to the proxy, in its query (a beacon has no headers), which turns them
// into `engage_proxy_client_dropped_events_total{reason}`. Sentry's SDKs call these client reports.
import { uuidV4 } from '../uuid';
import type { EventQueue } from './event-queue';
import { LOST, type TapListener } from './tap';
import type { ConsentState } from './types';

// A drop's reason, as its position in the counts (numbers, not strings: a tracker-only bundle
// pays for no name). The proxy names them, in this order: src/proxy/pipeline/client-report.ts.
export const EXPIRED = 0;
export const REFUSED = 1;
export const QUEUE_FULL = 2;
export const CONSENT_OVERFLOW = 3;
export const INVALID = 4;
/** A `shown()`/`clicked()` after `destroy()`: answered `undefined`, and the event is not kept. */
export const DESTROYED = 5;

/** Counts by reason, one place per reason. */
type Counts = number[];
/**
 * What IndexedDB holds: counts not yet in a report, and the report (as the query it is sent as)
 * until a 2xx for a request that carried it. Stored, so a tuple that never changes shape: a record
 * written by one release is read by the next (and by a service worker of another release).
 */
type Stored = [counts: Counts, report?: string];
const zero = (): Counts => [0, 0, 0, 0, 0, 0];
const nothing = ([counts, report]: Stored) => !report && !counts.some(Boolean);

/**
 * The counts of one namespace, kept where its queue is (the queue's store, under the string key
 * `drops:<namespace>`, through the queue's own guarded transactions: open timeout, closed
 * connection, memory when IndexedDB fails), so a reload loses none and every tab and the service
 * worker add to one record, each change in one readwrite transaction.
 *
 * Counted once: a delivery run takes the stored counts into a report with an id of its own
 * (`_claim`, one transaction, so two tabs, or a tab and the worker, get the same report, never a
 * copy each), every request of the run states it (`&drops=ID,n0,n1,…`: the count of each
 * reason, in the order of the constants above), and only a 2xx for a request that carried it
 * removes it (`_sent`). A crash, a beacon (whose answer is never known) or two senders can send
 * one report twice: the proxy counts a report id once (in its store, for its deduplication
 * window), so a count reaches the metrics once and is never lost.
 */
export interface DropCounts {
  /** Counts `count` events dropped for `reason` (one of the constants above). */
  _add(reason: number, count: number): void;
  /**
   * Before a run's first request: takes what is stored into a report (or finds the report a run
   * of another tab took). A run with nothing to report only reads, in a readonly transaction.
   */
  _claim(): Promise<unknown>;
  /** What each request's URL carries: `''` or `&drops=…`. */
  _query(): string;
  /** A 2xx for a request that carried `query`: its report is delivered. */
  _sent(query: string): void;
  /**
   * `granted`: counts are kept in `queue` and sent from now on; `pending`: they wait in memory and
   * nothing is sent; `denied`: what was counted and not stored is forgotten, and the stored record
   * goes with the queue's `_clear`.
   */
  _consent(state: ConsentState, queue?: EventQueue): void;
}

/**
 * @param queue where the counts are kept from the start (the service worker); a tracker gives it
 *   with `_consent('granted', queue)`, and until then counts wait in memory
 * @param tap told of every count (an inspector shows each reason, tap.ts)
 */
export function createDropCounts(namespace: string, queue?: EventQueue, tap?: TapListener): DropCounts {
  const key = `drops:${namespace}`;
  let unsaved = zero();
  let report = '';
  // Where IndexedDB is missing or fails, the record lives in this page's memory.
  let local: Stored = [zero()];
  let writing: Promise<unknown> = Promise.resolve();
  const change = (next: (stored: Stored) => Stored): Promise<unknown> =>
    (writing = writing.then(() => {
      let after: Stored;
      // `local` follows only a committed write: a transaction that failed after `next` ran must not count twice.
      return queue?._change<Stored>(key, (stored) => (after = next(stored ?? [zero()]))).then((ok) => (local = ok ? after : next(local)));
    }));
  const save = () => {
    const counts = unsaved;
    unsaved = zero();
    if (counts.some(Boolean)) void change(([stored, taken]) => [stored.map((count, reason) => count + counts[reason]!), taken]);
  };

  return {
    _add(reason, count) {
      unsaved[reason]! += count;
      tap?.({ _stage: LOST, _reason: reason, _count: count });
      if (queue) save();
    },
    // Read first, in a readonly transaction: most runs have nothing to report, and a readwrite
    // transaction per run would queue behind (and block) every tab's writes for nothing.
    _claim: () =>
      writing
        .then(() => queue?._get<Stored>(key))
        .then((stored) =>
          nothing(stored ?? local)
            ? (report = '')
            : change(([counts, taken]) => {
                // An array in a template is its items joined by commas: the counts, written short (bytes).
                // eslint-disable-next-line @typescript-eslint/restrict-template-expressions
                if (!taken && counts.some(Boolean)) [counts, taken] = [zero(), `&drops=${uuidV4()},${counts}`];
                report = taken ?? '';
                return [counts, taken];
              }),
        ),
    _query: () => (queue ? report : ''),
    _sent(query) {
      if (!query || query !== report) return;
      report = '';
      void change(([counts, taken]) => [counts, taken === query ? undefined : taken]);
    },
    _consent(consent, granted) {
      queue = consent === 'granted' ? granted : undefined;
      if (queue) save();
      else if (consent === 'denied') {
        unsaved = zero();
        report = '';
        local = [zero()];
      }
    },
  };
}
