// The trackers' loss report (issue 41): what the browsers dropped, by reason, stated in the query
// of an experience-events request (`&drops=ID,n0,n1,…`: the count of each reason by its position
// in DROP_REASONS, so a beacon carries it too and a tracker pays for no reason's name; the
// tracker's side is src/tracker/drop-counts.ts, whose constants are these positions). A place
// beyond the known reasons (a newer tracker's) counts as `other`. A browser wrote it, so it is read defensively:
// a closed set of reasons (anything else is `other`), numbers capped, and each report id counted
// once, in the store, for the deduplication window: a tab, another tab, the service worker and a
// reloaded page may all state one report until one of them sees a 2xx.
import type { ProxyStore } from '../types';

/** The labels of `engage_proxy_client_dropped_events_total`: the tracker's reasons in their wire order, and `other`. */
export const DROP_REASONS = ['expired', 'refused', 'queue_full', 'consent_overflow', 'invalid', 'destroyed', 'other'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/**
 * The most one report may count for a reason. A tracker's queue holds 10,000 events by default and
 * a report sums what one origin dropped between two acknowledged requests; beyond this a number
 * says more about the client that wrote it than about loss.
 */
export const MAX_REPORTED = 100_000;

/** One report: its id (counted once) and its counts by closed reason. */
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
  let any = false;
  let place = 0;
  for (const digits of parts.slice(0, 16)) {
    const reason = DROP_REASONS[Math.min(place++, DROP_REASONS.length - 1)]!;
    if (!/^\d{1,15}$/.test(digits)) continue;
    const count = Math.min(Number(digits), MAX_REPORTED);
    if (!count) continue;
    counts[reason] = Math.min((counts[reason] ?? 0) + count, MAX_REPORTED);
    any = true;
  }
  return any ? { id, counts } : undefined;
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
