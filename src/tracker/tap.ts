// The wire between a tracker (and `observe`, which reports placements through the tracker it
// records into) and lifecycle.ts, which turns what passes on it into the public lifecycle events.
// A report is a small object: a numbered stage and named members. Stages are numbers and members
// start with `_` so that a tracker-only bundle pays a few bytes per report and nothing for their
// names (the build mangles `_` names through mangle.json, the same map for every bundle, so the
// script tag and an inspector built apart agree); the public names live in lifecycle.ts, which
// only an inspector imports. Not exported from any entry: subscribe with `onLifecycle`.
import type { EngageError } from '../errors';
import type { ConsentState, ExperienceContext, StoredEvent } from './types';

/** Recorded in memory, its write to IndexedDB under way (held in memory only while consent is pending). */
export const RECORDED = 1;
/** Written to IndexedDB. */
export const STORED = 2;
/** The whole queue, as a delivery run read it (earlier pages' events too). */
export const QUEUED = 3;
/** A request carrying `_events` is on its way. */
export const SENDING = 4;
/** Its answer; `_status` 0 when none came. */
export const ANSWERED = 5;
/** Dropped by the queue's bounds: the first `_expired` for age, the rest for room. */
export const DROPPED = 6;
/**
 * A placement's view changed: `_sight` is false out of view, else what it shows (observe.ts: SEEN,
 * NO_AREA, UNRENDERED, or the element covering it); `_counted`: in this page view already.
 */
export const VIEW = 7;
/** A placement's impression was recorded (`_uuid` undefined: the tracker refused it). */
export const COUNTED = 8;
/** A click inside a placement was recorded. */
export const CLICKED = 9;
/** A placement is no longer observed. */
export const UNOBSERVED = 10;
/** Events counted for the loss report under `_reason` (drop-counts.ts), whether or not they had a UUID; `_count` may be 0. */
export const LOST = 11;

/** What a placement's reports carry: the element and the context it was observed with. */
interface PlacementReport {
  _element: Element;
  _context: ExperienceContext;
}

/** One report, by stage. */
export type TapReport =
  | { _stage: typeof RECORDED; _event: StoredEvent }
  | { _stage: typeof STORED | typeof QUEUED | typeof SENDING; _events: StoredEvent[] }
  | { _stage: typeof ANSWERED; _events: StoredEvent[]; _status: number; _error?: EngageError; _response?: Response }
  | { _stage: typeof DROPPED; _events: StoredEvent[]; _expired: number }
  | { _stage: typeof LOST; _reason: number; _count: number }
  | (PlacementReport & { _stage: typeof VIEW; _sight: false | number | Element; _counted: boolean })
  | (PlacementReport & { _stage: typeof COUNTED | typeof CLICKED; _uuid: string | undefined })
  | (PlacementReport & { _stage: typeof UNOBSERVED });

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A placement's report without its element and context (observe.ts adds them). */
export type PlacementFacts = DistributiveOmit<Extract<TapReport, PlacementReport>, keyof PlacementReport>;

/** Whoever hears a tracker's reports (lifecycle.ts's hub, or the script tag's buffer). */
export type TapListener = (report: TapReport) => void;

/** What `_attach` answers: the tracker's state as the page knows it, and the listener now attached. */
export interface TapState {
  _url: string;
  _customerId: string | undefined;
  _consent: ConsentState;
  _listener: TapListener | undefined;
}

/** The tracker's `_tap` member. */
export interface Tap {
  /** Passes `report` on to the listener, if there is one. */
  _report: TapListener;
  /** Makes `listener` the one that hears every report (undefined keeps the current one, null detaches it), and answers the state. */
  _attach(listener?: TapListener | null): TapState;
}

/** A tracker, or what `observe` records into: the tap is there when the object is a tracker. */
export interface Tapped {
  _tap?: Tap;
}
