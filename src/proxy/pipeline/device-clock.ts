// Dating experience events by the proxy's clock instead of the device's. The tracker states on
// every request when it sent it, by the same clock that dated its events (`?sent_at=` epoch ms: a
// beacon can carry no header); the proxy reads the device's error off that and moves every event
// by it, as Snowplow's `derived_tstamp` and Segment's `sentAt` do:
//   event_time = received − (sent − recorded)
// Nothing here refuses a request: a sent time that cannot be read means "no correction", and an
// event still in the future after it is clamped to now (the upstream refuses future-dated events).
import { isObject, own } from '../../upstream/problem';

/** The query parameter a tracker's request states its send time in: integer epoch ms by the device's clock. */
export const SENT_AT = 'sent_at';

/**
 * A device that looks up to this much slow is left alone: the request's own flight makes a right
 * clock look slow by that long (never fast), and correcting it would date its events late by it.
 */
export const DEAD_BAND_MS = 2_000;

/** A sent time this close to now when read as seconds was sent in seconds, where ms belong. */
const SECONDS_WINDOW_MS = 365 * 86_400_000;
/** Largest epoch ms a Date can hold. */
const MAX_DATE_MS = 8.64e15;
/** An `event_time` this large is milliseconds where seconds belong: the body is wrong, not the clock (validation says so). */
const MS_LIKE = 1e11;

const SENT_AT_PARAM = /(?:^|&)sent_at=(\d{1,16})(?:&|$)/;

/**
 * How far the device's clock is ahead of ours (negative: behind), in ms, read from the request's
 * `sent_at`; undefined when it has none, or none that can be read (not an integer, beyond a Date,
 * or seconds where ms belong).
 *
 * @param query the request's query string, without `?`
 * @param receivedMs when the proxy received the request, by its own clock
 * @example deviceClockOffset('sent_at=1764111600000', 1764111000000); // 600000: ten minutes fast
 */
export function deviceClockOffset(query: string, receivedMs: number): number | undefined {
  const digits = SENT_AT_PARAM.exec(query)?.[1];
  if (digits === undefined) return undefined;
  const sentMs = Number(digits);
  if (sentMs > MAX_DATE_MS || Math.abs(sentMs * 1000 - receivedMs) < SECONDS_WINDOW_MS) return undefined;
  return sentMs - receivedMs;
}

/**
 * Moves every `event_time` of an experience-events body by the device's offset (unless it is in
 * the dead band), in integer ms, rounded down to seconds last, and clamps each to the proxy's
 * current second (never in the future, with or without an offset) and to 0. Walks only what has
 * the upstream's shape and leaves the rest for validation to name. Returns whether a time changed.
 *
 * @param offsetMs `deviceClockOffset`'s answer
 * @example correctEventTimes(body, 600_000, Date.now()); // true: each event dated ten minutes earlier
 */
export function correctEventTimes(body: unknown, offsetMs: number | undefined, receivedMs: number): boolean {
  const shift = offsetMs === undefined || (offsetMs <= 0 && offsetMs > -DEAD_BAND_MS) ? 0 : offsetMs;
  const latest = Math.floor(receivedMs / 1000);
  let changed = false;
  const elements = isObject(body) ? own(body, 'elements') : undefined;
  if (!Array.isArray(elements)) return false;
  for (const element of elements as unknown[]) {
    const actions = isObject(element) ? own(element, 'actions') : undefined;
    if (!Array.isArray(actions)) continue;
    for (const action of actions as unknown[]) {
      if (!isObject(action)) continue;
      const time = own(action, 'event_time');
      if (typeof time !== 'number' || !Number.isInteger(time) || time < 0 || time >= MS_LIKE) continue;
      const corrected = Math.max(0, Math.min(Math.floor((time * 1000 - shift) / 1000), latest));
      if (corrected !== time) {
        action.event_time = corrected;
        changed = true;
      }
    }
  }
  return changed;
}
