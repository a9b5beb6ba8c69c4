// The tracker's loss report (issue 41): every event it drops is counted by reason, and the counts
// ride on the next request to the proxy, in its query (a beacon has no headers), which turns them
// into `engage_proxy_client_dropped_events_total{reason}`. Sentry's SDKs call these client reports.
import { createStore, update, type UseStore } from 'idb-keyval';
import { uuidV4 } from '../uuid';
import { DATABASE } from './event-queue';
import type { ConsentState } from './types';

/** A drop's reason: the label the proxy counts it under (it maps any other to `other`). */
export const EXPIRED = 'expired';
export const REFUSED = 'refused';
export const QUEUE_FULL = 'queue_full';
export const CONSENT_OVERFLOW = 'consent_overflow';
export const INVALID = 'invalid';
/** A `shown()`/`clicked()` after `destroy()`: answered `undefined`, and the event is not kept. */
export const DESTROYED = 'destroyed';

type Counts = Record<string, number>;
/** What IndexedDB holds: counts not yet in a report, and the report requests carry until one of them is answered 2xx. */
type Stored = [counts: Counts, report?: [id: string, counts: Counts]];

/**
 * The counts of one namespace, kept where its queue is (the queue's database and store, under a
 * string key that no range of the queue's array keys reaches), so a reload loses none and every
 * tab and the service worker add to one record, each in one readwrite transaction.
 *
 * Counted once: a delivery run takes the stored counts into a report with an id of its own
 * (`claim`, one transaction, so two tabs, or a tab and the worker, get the same report, never a
 * copy each), every request of the run states it (`&drops=ID,reason:n,…`), and only a 2xx for a
 * request that carried it removes it (`sent`). A crash, a beacon (whose answer is never known) or
 * two senders can send one report twice: the proxy counts a report id once (in its store, for its
 * deduplication window), so a count reaches the metrics once and is never lost.
 *
 * Members by index (a tuple: its names cost no bytes): 0 `add(reason, n)`, 1 `claim()` (before a
 * run's first request), 2 `query()` (what each request's URL carries, `''` or `&drops=…`),
 * 3 `sent(query)` (a 2xx for a request that carried `query`), 4 `consent(state)` (`granted`:
 * counts are kept and sent from now on; `pending`: they wait in memory, nothing is sent; `denied`:
 * what was counted and not stored is forgotten; the stored record goes with the queue's `clear`).
 */
export type DropCounts = [
  add: (reason: string, count: number) => void,
  claim: () => Promise<void>,
  query: () => string,
  sent: (query: string) => void,
  consent: (state: ConsentState) => void,
];

/**
 * @param namespace the queue's namespace
 * @param keep whether counts are kept at once (the service worker), or only after `on(true)` (a
 *   tracker: only after `consent('granted')`; until then they wait in memory, and a denial forgets them)
 */
export function createDropCounts(namespace: string, keep?: boolean): DropCounts {
  const key = `drops:${namespace}`;
  let unsaved: Counts = {};
  let report = '';
  let store: UseStore | undefined;
  // Where IndexedDB is missing or fails, the counts live in this page's memory.
  let local: Stored = [{}];
  let writing: Promise<unknown> = Promise.resolve();
  const change = (next: (stored: Stored) => Stored): Promise<unknown> =>
    (writing = writing.then(() => {
      let after: Stored;
      // `local` follows only a committed write: a transaction that failed after its update ran must not count twice.
      return update<Stored>(key, (stored) => (after = next(stored ?? [{}])), (store ??= createStore(DATABASE, 'queue'))).then(
        () => (local = after),
        () => (local = next(local)),
      );
    }));
  const save = () => {
    const counts = unsaved;
    unsaved = {};
    if (Object.keys(counts).length)
      void change(([stored, taken]) => {
        for (const reason in counts) stored[reason] = (stored[reason] ?? 0) + counts[reason]!;
        return [stored, taken];
      });
  };

  return [
    (reason, count) => {
      if (!count) return;
      unsaved[reason] = (unsaved[reason] ?? 0) + count;
      if (keep) save();
    },
    async () => {
      if (keep)
        await change(([counts, taken]) => {
          if (!taken && Object.keys(counts).length) [counts, taken] = [{}, [uuidV4(), counts]];
          report = taken ? `&drops=${taken[0]},${Object.entries(taken[1]).map(([reason, count]) => `${reason}:${count}`)}` : '';
          return [counts, taken];
        });
    },
    () => (keep ? report : ''),
    (query) => {
      if (!query || query !== report) return;
      const id = query.slice(7, 43);
      report = '';
      void change(([counts, taken]) => [counts, taken?.[0] === id ? undefined : taken]);
    },
    (consent) => {
      keep = consent === 'granted';
      if (keep) save();
      else if (consent === 'denied') (unsaved = {}), (report = ''), (local = [{}]);
    },
  ];
}
