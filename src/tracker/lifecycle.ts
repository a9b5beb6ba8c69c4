// What happens to a tracker's events and placements, as events an inspector (or a dashboard, or a
// test) subscribes to. The tracker reports through its tap (tap.ts: a numbered stage and `_`
// members, which the build mangles: a few bytes in every tracker bundle); the public names and
// shapes are made here, and only what imports this module pays for them. Works across bundles: the script tag's tracker and an
// inspector loaded beside it share no module, only the tracker object.
import type { EngageError } from '../errors';
import { classify, SPLIT } from './retry-policy';
import {
  ANSWERED,
  CLICKED,
  COUNTED,
  DROPPED,
  LOST,
  QUEUED,
  RECORDED,
  SENDING,
  STORED,
  type Tap,
  type Tapped,
  type TapListener,
  type TapReport,
  UNOBSERVED,
  VIEW,
} from './tap';
import { NO_AREA, UNRENDERED } from './observe';
import type { AttributeValue, ConsentState, ExperienceContext, StoredEvent, Tracker } from './types';

/** An event as the queue holds it. */
export interface LifecycleRecord {
  /** Its `svc_event_uuid`. */
  uuid: string;
  action: 'shown' | 'clicked';
  /** The experience context and extra attributes it carries. */
  attributes: Record<string, AttributeValue>;
  /** The customer it was recorded for; undefined when it waits for `identify()`. */
  customerId: string | undefined;
  /** Epoch ms. */
  recordedAt: number;
}

/**
 * Everything a tracker reports. Events are named by UUID after `recorded` (and `queued`, which
 * also lists events earlier pages left in the queue).
 */
export type LifecycleEvent =
  /** Recorded in memory; its write to IndexedDB is under way. */
  | { type: 'recorded'; record: LifecycleRecord }
  /** Written to IndexedDB: it survives a reload. */
  | { type: 'stored'; uuids: string[] }
  /** A delivery run read the queue: every event in it, oldest first, whichever page recorded it. */
  | { type: 'queued'; records: LifecycleRecord[] }
  /** A request carrying these events is in flight. */
  | { type: 'sending'; uuids: string[] }
  /**
   * The proxy answered 2xx: they left the queue. `deviceClockMs`: how far this device's clock is
   * ahead of the proxy's (negative: behind), as the proxy measured it; it dated the events by its own.
   * `crawler`: the proxy took this browser for a crawler (its user agent) and did not forward them.
   */
  | { type: 'delivered'; uuids: string[]; status: number; deviceClockMs?: number; crawler?: boolean }
  /**
   * Not delivered, still queued (retried later, or the batch is halved to find the refused event):
   * `status` 0 when no answer came (offline, connection reset), `error` the reason.
   */
  | { type: 'refused'; uuids: string[]; status: number; error: EngageError; deviceClockMs?: number }
  /** Left the queue undelivered: refused alone (`rejected`), too old (`expired`), no room (`overflow`). */
  | { type: 'dropped'; uuids: string[]; reason: 'rejected' | 'expired' | 'overflow'; error?: EngageError }
  /**
   * A placement's view changed: `inView` is the 50 % rule (half the element, or half the screen for
   * one taller than it), `tabHidden` stops the clock, `counted` says its impression already counted
   * in this page view. In view, visible and not counted: it counts after 1 s of this.
   */
  | { type: 'placement'; element: Element; context: ExperienceContext; inView: boolean; tabHidden: boolean; counted: boolean; notSeen?: NotSeen; at: number }
  /** The placement's impression was recorded as `uuid`; undefined when the tracker refused it. */
  | { type: 'counted'; element: Element; context: ExperienceContext; uuid: string | undefined; at: number }
  /** A click inside the placement was recorded as `uuid`; undefined when refused. */
  | { type: 'clicked'; element: Element; context: ExperienceContext; uuid: string | undefined; at: number }
  /** The placement is no longer observed (removed from the page, or its observation stopped). */
  | { type: 'unobserved'; element: Element; context: ExperienceContext }
  /**
   * `count` events were counted for the loss report under `reason` (the proxy's label of
   * `engage_proxy_client_dropped_events_total`): every drop, including those with no UUID to name
   * (`invalid` input, a call after `destroy()`) and those held while consent was pending that did
   * not fit (`consent_overflow`). Comes beside `dropped` for events that had left the queue.
   */
  | { type: 'lost'; reason: LossReason; count: number };

/** The loss report's reasons, in the tracker's order (drop-counts.ts) and by the proxy's names (client-report.ts). */
const LOSS_REASONS = ['expired', 'refused', 'queue_full', 'consent_overflow', 'invalid', 'destroyed'] as const;
export type LossReason = (typeof LOSS_REASONS)[number];

/**
 * Why a placement in view does not count: `no-area` (0×0, or zero high or wide), `transparent`
 * (`element` is at `opacity: 0`: the placement or an ancestor), `hidden` (`element` has
 * `visibility: hidden`, `display: none` or `content-visibility: hidden`), `covered` (`element` is
 * painted over it, and what is left uncovered is less than half of it, or of the screen).
 */
export interface NotSeen {
  reason: 'no-area' | 'transparent' | 'hidden' | 'covered';
  element?: Element;
}

/** Which element keeps `element` from being painted: the first at opacity 0 (or not displayed) up the tree, else where visibility: hidden was set. */
function unrendered(element: Element): NotSeen {
  const style = (node: Element) => element.ownerDocument.defaultView!.getComputedStyle(node);
  for (let node: Element | null = element; node; node = node.parentElement) {
    const own = style(node);
    if (own.opacity === '0') return { reason: 'transparent', element: node };
    if (own.display === 'none' || (node !== element && own.contentVisibility === 'hidden')) return { reason: 'hidden', element: node };
  }
  // visibility is inherited: the outermost of the run is where it was set.
  let node = element;
  while (node.parentElement && style(node.parentElement).visibility !== 'visible') node = node.parentElement;
  return { reason: 'hidden', element: node };
}

/** `notSeen` for what observe reported on the VIEW tap (SEEN, NO_AREA, UNRENDERED or the covering element). */
function notSeen(what: unknown, element: Element): NotSeen | undefined {
  if (what === NO_AREA) return { reason: 'no-area' };
  if (what === UNRENDERED) return unrendered(element);
  if (what && typeof what === 'object') return { reason: 'covered', element: what as Element };
  return undefined;
}

export type LifecycleListener = (event: LifecycleEvent) => void;

/** What a tracker is set up with, as far as the page already knows it: no headers, no proxy settings. */
export interface TrackerState {
  /** The URL events are posted to. */
  endpoint: string;
  /** Undefined while the tracker waits for `identify()`. */
  customerId: string | undefined;
  /** `consent === 'denied'`. */
  optedOut: boolean;
  /** `pending`: events are held in memory, nothing is stored or sent until it is granted. */
  consent: ConsentState;
}

/** The listener this module attaches: it fans out to every subscriber, of this bundle or another. */
type Hub = TapListener & { _subscribers: Set<TapListener>; _history: TapReport[] };
/** What the script tag attaches while the inspector loads (iife.ts): the reports it buffered. */
type Buffer = TapListener & { _buffered?: TapReport[] };
// Reports kept for a subscriber that comes later (an inspector loaded after the page started).
const HISTORY = 500;

const ACTIONS: Record<string, 'shown' | 'clicked'> = {
  SVC_PERSONALIZATION_MESSAGE_SHOWN: 'shown',
  SVC_PERSONALIZATION_MESSAGE_CLICKED: 'clicked',
};
const record = (event: StoredEvent): LifecycleRecord => ({
  uuid: event.uuid,
  action: ACTIONS[event.action]!,
  attributes: event.attributes,
  customerId: event.customerId ?? undefined,
  recordedAt: event.recordedAt,
});
const uuids = (events: StoredEvent[]) => events.map((event) => event.uuid);

/** `{ deviceClockMs }` from the proxy's answer (device-clock.ts sets the header), or nothing. */
function deviceClock(response: Response | undefined): { deviceClockMs?: number } {
  const value = Number(response?.headers.get('x-engage-device-clock') ?? NaN);
  return Number.isFinite(value) ? { deviceClockMs: value } : {};
}

/** The public event for one report, or undefined for a stage this version does not know. */
function translate(report: TapReport): LifecycleEvent | undefined {
  switch (report._stage) {
    case RECORDED:
      return { type: 'recorded', record: record(report._event) };
    case STORED:
      return { type: 'stored', uuids: uuids(report._events) };
    case QUEUED:
      return { type: 'queued', records: report._events.map(record) };
    case SENDING:
      return { type: 'sending', uuids: uuids(report._events) };
    case ANSWERED: {
      const { _events: events, _status: status, _error: error, _response: response } = report;
      const clock = deviceClock(response);
      if (!error) return { type: 'delivered', uuids: uuids(events), status, ...clock, crawler: response?.headers.get('x-engage-crawler') === 'dropped' };
      // The tracker drops an event refused on its own (a 400/413/422 for a batch of one).
      if (classify(status) === SPLIT && events.length < 2) return { type: 'dropped', uuids: uuids(events), reason: 'rejected', error };
      return { type: 'refused', uuids: uuids(events), status, error, ...clock };
    }
    case DROPPED:
      // Expired events are the oldest, so they come first.
      return { type: 'dropped', uuids: uuids(report._events), reason: report._expired ? 'expired' : 'overflow' };
    case LOST: {
      // A count of 0 (a run that dropped for one reason only counts the other as 0) is no news.
      const reason = LOSS_REASONS[report._reason];
      return reason && report._count ? { type: 'lost', reason, count: report._count } : undefined;
    }
    case VIEW: {
      const element = report._element;
      return {
        type: 'placement',
        element,
        context: report._context,
        // false: not in view; SEEN, a reason or a covering element: in view.
        inView: !!report._sight,
        tabHidden: element.ownerDocument.visibilityState === 'hidden' || !!(element.ownerDocument as { prerendering?: boolean }).prerendering,
        counted: report._counted,
        notSeen: notSeen(report._sight, element),
        at: Date.now(),
      };
    }
    case COUNTED:
    case CLICKED:
      return { type: report._stage === COUNTED ? 'counted' : 'clicked', element: report._element, context: report._context, uuid: report._uuid, at: Date.now() };
    case UNOBSERVED:
      return { type: 'unobserved', element: report._element, context: report._context };
  }
  return undefined;
}

/** Each report as public events: a drop of expired and overflowing events at once is two. */
function publish(report: TapReport, listener: LifecycleListener): void {
  if (report._stage === DROPPED && report._expired && report._events.length > report._expired) {
    const { _events: events, _expired: expired } = report;
    publish({ _stage: DROPPED, _events: events.slice(0, expired), _expired: expired }, listener);
    publish({ _stage: DROPPED, _events: events.slice(expired), _expired: 0 }, listener);
    return;
  }
  const event = translate(report);
  if (event) listener(event);
}

/** The tap of the tracker behind `target`: itself, or the script tag's default tracker behind `Engage`. */
const tapOf = (target: unknown): Tap | undefined => {
  const tap = (target as Tapped | null)?._tap;
  return typeof tap?._attach === 'function' ? tap : undefined;
};

/** Attaches this module's hub to the tracker, or joins the one already there (another bundle's). */
function hubOf(tap: Tap): Hub {
  const current: (Partial<Hub> & Buffer) | undefined = tap._attach()._listener;
  if (current?._subscribers) return current as Hub;
  const hub: Hub = Object.assign(
    (report: TapReport) => {
      hub._history.push(report);
      if (hub._history.length > HISTORY) hub._history.shift();
      hub._subscribers.forEach((subscriber) => subscriber(report));
    },
    // What the script tag buffered while the inspector loaded, or what an earlier listener saw.
    { _subscribers: new Set<TapListener>(), _history: current?._buffered?.slice(-HISTORY) ?? [] },
  );
  tap._attach(hub);
  return hub;
}

/**
 * Calls `listener` with every lifecycle event of `tracker`: its events (recorded, stored, queued,
 * in flight, delivered, refused, dropped) and the placements observed for it (in view or not,
 * counted, clicked). Reports from before the call are replayed when the tracker kept them (the
 * script tag does while `?engage-inspect` loads the inspector; another subscriber's recent ones
 * otherwise). Never throws: a throwing listener is skipped for that event.
 *
 * @param tracker a tracker from `createTracker`, or the script tag's `Engage`
 * @returns a function that unsubscribes
 * @example
 * const stop = onLifecycle(tracker, (event) => {
 *   if (event.type === 'refused') console.warn(event.status, event.error.message);
 * });
 */
export function onLifecycle(tracker: Tracker, listener: LifecycleListener): () => void {
  const tap = tapOf(tracker);
  if (!tap) return () => {};
  const hub = hubOf(tap);
  const subscriber = (report: TapReport) => {
    try {
      publish(report, listener);
    } catch {
      // A subscriber's failure is its own: the tracker and the other subscribers go on.
    }
  };
  hub._history.forEach(subscriber);
  hub._subscribers.add(subscriber);
  return () => void hub._subscribers.delete(subscriber);
}

/**
 * The tracker's state as the page knows it: where events go, the customer, the consent choice.
 * Undefined for anything that is not a tracker.
 *
 * @example
 * trackerState(tracker); // { endpoint: '/engage/v1/experiences/events', customerId: 'u-42', optedOut: false, consent: 'granted' }
 */
export function trackerState(tracker: Tracker): TrackerState | undefined {
  const tap = tapOf(tracker);
  if (!tap) return undefined;
  const { _url: endpoint, _customerId: customerId, _consent: consent } = tap._attach();
  return { endpoint, customerId, optedOut: consent === 'denied', consent };
}
