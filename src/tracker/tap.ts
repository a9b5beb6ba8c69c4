// The wire between a tracker (and `observe`, which reports placements through the tracker it
// records into) and lifecycle.ts, which turns what passes on it into the public lifecycle events.
// Stages are numbers and arguments are positional so that a tracker-only bundle pays a few bytes
// per report and nothing for their names or shapes: the names live in lifecycle.ts, which only an
// inspector imports. Not exported from any entry: subscribe with `onLifecycle`.
import type { ConsentState } from './types';

/**
 * The tracker's `tap` member: `tap(ATTACH, listener?)` makes `listener` the one that hears every
 * report (undefined keeps the current one) and answers `[eventsUrl, customerId, consent,
 * listener]`; any other stage is passed on to the listener, if there is one.
 */
export type Tap = (stage: number, a?: unknown, b?: unknown, c?: unknown, d?: unknown) => unknown;

/** A tracker, or what `observe` records into: the tap is there when the object is a tracker. */
export interface Tapped {
  tap?: Tap;
}

/** What `tap(ATTACH)` answers. */
export type TapState = [url: string, customerId: string | undefined, consent: ConsentState, listener: Tap | undefined];

export const ATTACH = 0;
/** (event: StoredEvent) — recorded in memory, its write to IndexedDB under way (held in memory only while consent is pending). */
export const RECORDED = 1;
/** (events: StoredEvent[]) — written to IndexedDB. */
export const STORED = 2;
/** (events: StoredEvent[]) — the whole queue, as a delivery run read it (earlier pages' events too). */
export const QUEUED = 3;
/** (events: StoredEvent[]) — a request carrying them is on its way. */
export const SENDING = 4;
/** (events: StoredEvent[], status: number, error?: EngageError, response?: Response) — its answer; status 0 when none came. */
export const ANSWERED = 5;
/** (events: StoredEvent[], expired: number) — dropped by the queue's bounds: the first `expired` for age, the rest for room. */
export const DROPPED = 6;
/** (element, context, inView: boolean, counted: boolean) — a placement's view changed (`counted`: in this page view already). */
export const VIEW = 7;
/** (element, context, uuid: string | undefined) — its impression was recorded (undefined: the tracker refused it). */
export const COUNTED = 8;
/** (element, context, uuid: string | undefined) — a click inside it was recorded. */
export const CLICKED = 9;
/** (element, context) — it is no longer observed. */
export const UNOBSERVED = 10;
