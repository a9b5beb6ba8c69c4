// How late each accepted experience event arrived (issue 41): from its time, as the proxy dated
// it (device-clock.ts corrects the device's clock first), to the moment the upstream accepted it.
// Events delivered at the next visit or by Background Sync show here, in
// `engage_proxy_event_delay_seconds`.
import { isObject, own } from '../../upstream/problem';

/**
 * A delivery whose oldest accepted event is more than this many seconds late counts in
 * `engage_proxy_late_deliveries_total` (what `EngageEventsLate` reads): an hour, past any retry
 * backoff of a page that stayed open (the tracker's longest wait is 10 min), so what it counts
 * was held across a closed page, an outage or a device offline.
 */
export const LATE_SECONDS = 3_600;

/** Buckets of `engage_proxy_event_delay_seconds`: a second to the tracker's 7-day `maxEventAge`. */
export const DELAY_BUCKETS = [1, 5, 15, 30, 60, 300, 900, 3_600, 21_600, 86_400, 259_200, 604_800];

/**
 * Appends, for each action of an experience-events body, its delay in seconds (ms precision,
 * never negative) at `acceptedMs`. Reads `event_time` after the device-clock correction.
 *
 * @example eventDelays({ elements: [{ actions: [{ event_time: 1764111000 }] }] }, 1764111020000); // [20]
 */
export function eventDelays(body: unknown, acceptedMs: number, into: number[] = []): number[] {
  const elements = isObject(body) ? own(body, 'elements') : undefined;
  if (!Array.isArray(elements)) return into;
  for (const element of elements as unknown[]) {
    const actions = isObject(element) ? own(element, 'actions') : undefined;
    if (!Array.isArray(actions)) continue;
    for (const action of actions as unknown[]) {
      const time = isObject(action) ? own(action, 'event_time') : undefined;
      if (typeof time === 'number' && Number.isFinite(time)) into.push(Math.max(0, Math.round(acceptedMs - time * 1000) / 1000));
    }
  }
  return into;
}
