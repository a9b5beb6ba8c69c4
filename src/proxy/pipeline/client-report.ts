// The trackers' loss report (issue 41): what the browsers dropped, by reason, stated in the query
// of an experience-events request (`&drops=ID,n0,n1,…`: the count of each reason by its position
// in DROP_REASONS, so a beacon carries it too and a tracker pays for no reason's name; the
// tracker's side is src/tracker/drop-counts.ts, whose constants are these positions). A place
// beyond the known reasons (a newer tracker's) counts as `other`. A browser wrote it, so anyone can
// (issue 47): it is read defensively — a closed set of reasons (anything else is `other`), the
// report's total capped at what one tracker could have dropped, each report id counted once, in
// the store, for the deduplication window (a tab, another tab, the service worker and a reloaded
// page may all state one report until one of them sees a 2xx) — and the pipeline counts it only
// on an accepted delivery and within its client address's report budget.
import type { ProxyStore } from '../types';
import { DROP_REASONS, type DropReason } from './drop-reasons';

export { DROP_REASONS, type DropReason };

/**
 * The most events one report may count, all reasons together: what one tracker on its default
 * options could have dropped between two acknowledged requests. Its queue holds at most
 * `maxQueueSize` (10,000) events, and `expired`, `queue_full` and `refused` all leave that queue;
 * `consent_overflow` is what passed the 1,000 held while consent was pending, and `invalid` and
 * `destroyed` are calls a page made, which a number past 10,000 no longer describes better. A
 * larger report is scaled down to this total, its reasons kept in proportion.
 */
export const MAX_REPORT_EVENTS = 10_000;

/** One report: its id (counted once) and its counts by closed reason, at most MAX_REPORT_EVENTS in all. */
export interface ClientReport {
  id: string;
  counts: Partial<Record<DropReason, number>>;
}

const DROPS_PARAM = /(?:^|&)drops=([^&]{1,600})/;
const ID = /^[\w-]{8,64}$/;

/**
 * The report a request's query states, or undefined when it has none or none that can be read.
 *
 * @param query the request's query string, without `?`
 * @example readClientReport('sent_at=1764111600000&drops=3f0c…,0,0,3,0,1,0');
 * // { id: '3f0c…', counts: { queue_full: 3, invalid: 1 } }
 */
export function readClientReport(query: string): ClientReport | undefined {
  const raw = DROPS_PARAM.exec(query)?.[1];
  if (raw === undefined) return undefined;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  const [id, ...parts] = value.split(',');
  if (!id || !ID.test(id)) return undefined;
  const counts: ClientReport['counts'] = {};
  let total = 0;
  let place = 0;
  for (const digits of parts.slice(0, 16)) {
    const reason = DROP_REASONS[Math.min(place++, DROP_REASONS.length - 1)]!;
    if (!/^\d{1,15}$/.test(digits)) continue;
    const count = Number(digits);
    if (!count) continue;
    counts[reason] = (counts[reason] ?? 0) + count;
    total += count;
  }
  if (!total) return undefined;
  if (total > MAX_REPORT_EVENTS) {
    // Scaled down, each reason in proportion (rounded down: the total stays within the bound).
    for (const reason of Object.keys(counts) as DropReason[]) {
      const scaled = Math.floor((counts[reason]! * MAX_REPORT_EVENTS) / total);
      if (scaled) counts[reason] = scaled;
      else delete counts[reason];
    }
  }
  return { id, counts };
}

/**
 * Whether this is the first time the store sees report `id` of the workspace within `windowMs`.
 * A window of 0 (no deduplication configured) counts every time; a store that fails counts it too
 * (at least once rather than never) and throws for the caller to log.
 */
export async function firstSight(store: ProxyStore, workspaceId: string, id: string, windowMs: number): Promise<boolean> {
  if (windowMs <= 0) return true;
  return (await store.increment(`dr:${workspaceId}:${id}`, 1, windowMs)) === 1;
}
