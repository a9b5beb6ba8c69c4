// What the inspector knows, from the tracker's lifecycle events and the page: each event's state
// and each placement's, and the words that say why a placement did or did not count. No DOM
// writes here, so the wording is tested without a browser.
import { isValidationError } from '../errors';
import { attributesOf } from '../tracker/experience-event';
import type { LifecycleEvent, NotSeen, TrackerState } from '../tracker/lifecycle';
import type { ExperienceContext } from '../tracker/types';

export type EventState = 'recorded' | 'stored' | 'in flight' | 'delivered' | 'refused' | 'dropped';

export interface EventRow {
  uuid: string;
  action: 'shown' | 'clicked';
  experience: string;
  state: EventState;
  /** For refused and dropped: the status and the error's message, or the reason. */
  detail?: string;
}

export interface PlacementRow {
  element: Element;
  context?: ExperienceContext;
  /** Why its context cannot be counted (the field and the rule), if it cannot. */
  invalid?: string;
  /** observe reported it: the 50 %-for-1-s rule runs on it. */
  observed: boolean;
  inView: boolean;
  tabHidden: boolean;
  /** In view, but a person could not see it (transparent, hidden, covered, no area). */
  notSeen?: NotSeen;
  /** Its impression already counted in this page view (by another node with the same context). */
  alreadyCounted: boolean;
  /** Epoch ms when the current spell in view began (visible tab, not counted yet). */
  since?: number;
  /** How long the last spell in view lasted, when it ended before the second was up. */
  lastSpell?: number;
  countedAt?: number;
  /** The impression's UUID; undefined with countedAt set: the tracker refused it. */
  uuid?: string;
  clicks: number;
}

export interface Answer {
  status: number;
  message: string;
  at: number;
}

/** Events kept in the panel's list (the queue's length counts them all). */
const ROWS = 50;
const FINAL: EventState[] = ['delivered', 'dropped'];

export function createModel() {
  const events = new Map<string, EventRow>();
  const placements = new Map<Element, PlacementRow>();
  let lastAnswer: Answer | undefined;
  let deviceClockMs: number | undefined;
  let crawler: boolean | undefined;
  let optedOut = false;
  // This page's drops by the loss report's reasons (the lifecycle's `lost`: every reason, events with no UUID too).
  const drops: Record<string, number> = {};
  const dropped = (reason: string, count: number) => (drops[reason] = (drops[reason] ?? 0) + count);

  const row = (uuid: string) => events.get(uuid);
  const set = (uuids: string[], state: EventState, detail?: string) => {
    for (const uuid of uuids) {
      const current = row(uuid);
      // Delivered and dropped are final; a late "stored" (written after delivery) changes nothing.
      if (!current || FINAL.includes(current.state) || (state === 'stored' && current.state !== 'recorded')) continue;
      current.state = state;
      current.detail = detail;
    }
  };
  const add = (uuid: string, action: 'shown' | 'clicked', experience: unknown, state: EventState) => {
    if (events.has(uuid)) return;
    events.set(uuid, { uuid, action, experience: typeof experience === 'string' ? experience : '?', state });
    // Oldest finished rows go first; undelivered ones stay, they are the queue.
    if (events.size > ROWS) for (const [key, value] of events) if (FINAL.includes(value.state) && events.size > ROWS) events.delete(key);
  };

  function placement(element: Element, context?: ExperienceContext): PlacementRow {
    let found = placements.get(element);
    if (!found) placements.set(element, (found = { element, observed: false, inView: false, tabHidden: false, alreadyCounted: false, clicks: 0 }));
    if (context && !found.context) {
      found.context = context;
      found.invalid = validate(context);
    }
    return found;
  }

  return {
    events,
    placements,
    get lastAnswer() {
      return lastAnswer;
    },
    /** This page's dropped events by the loss report's reasons: expired, refused, queue_full, consent_overflow, invalid, destroyed. */
    drops,
    /** How far the device's clock is ahead of the proxy's, as the proxy last measured it. */
    get deviceClockMs() {
      return deviceClockMs;
    },

    /** Whether the proxy's last delivery answer took this browser for a crawler; undefined before one. */
    get crawler() {
      return crawler;
    },

    /** Takes one lifecycle event in. */
    take(event: LifecycleEvent): void {
      switch (event.type) {
        case 'recorded':
          return add(event.record.uuid, event.record.action, event.record.attributes.experience, 'recorded');
        case 'queued':
          for (const record of event.records) add(record.uuid, record.action, record.attributes.experience, 'stored');
          return;
        case 'stored':
          return set(event.uuids, 'stored');
        case 'sending':
          return set(event.uuids, 'in flight');
        case 'delivered':
          deviceClockMs = event.deviceClockMs ?? deviceClockMs;
          crawler = event.crawler;
          lastAnswer = { status: event.status, message: 'OK', at: Date.now() };
          return set(event.uuids, 'delivered');
        case 'refused': {
          deviceClockMs = event.deviceClockMs ?? deviceClockMs;
          const message = errorMessage(event.error);
          lastAnswer = { status: event.status, message, at: Date.now() };
          return set(event.uuids, 'refused', event.status ? `HTTP ${event.status}: ${message}` : message);
        }
        case 'lost':
          return void dropped(event.reason, event.count);
        case 'dropped':
          if (event.error) lastAnswer = { status: 'status' in event.error ? (event.error.status as number) : 0, message: errorMessage(event.error), at: Date.now() };
          return set(event.uuids, 'dropped', event.reason + (event.error ? ` (${errorMessage(event.error)})` : ''));
        case 'placement': {
          const found = placement(event.element, event.context);
          // observe stops reporting a placement once it counted: a report after that is a new page view.
          if (found.countedAt !== undefined) Object.assign(found, { countedAt: undefined, uuid: undefined, lastSpell: undefined });
          const running = event.inView && !event.tabHidden && !event.counted && !event.notSeen;
          if (found.since !== undefined && !running && found.countedAt === undefined) found.lastSpell = event.at - found.since;
          if (!running) found.since = undefined;
          else found.since ??= event.at;
          Object.assign(found, { observed: true, inView: event.inView, tabHidden: event.tabHidden, alreadyCounted: event.counted, notSeen: event.notSeen });
          return;
        }
        case 'counted': {
          const found = placement(event.element, event.context);
          Object.assign(found, { countedAt: event.at, uuid: event.uuid, since: undefined, observed: true });
          return;
        }
        case 'clicked':
          placement(event.element, event.context).clicks++;
          return;
        case 'unobserved':
          placements.delete(event.element);
          return;
      }
    },

    /** A placement found in the page by its attribute, observed or not. */
    found(element: Element): void {
      if (placements.has(element)) return;
      const found = placement(element);
      try {
        const context: unknown = JSON.parse(element.getAttribute('data-engage-context')!);
        if (!context || typeof context !== 'object' || Array.isArray(context)) throw new TypeError();
        found.context = context as ExperienceContext;
        found.invalid = validate(found.context);
      } catch {
        found.invalid = 'data-engage-context: must be the experience context as a JSON object';
      }
    },

    /** The consent choice changed: opting out emptied the queue. */
    state(state: TrackerState): void {
      if (state.optedOut && !optedOut) {
        for (const value of events.values()) if (!FINAL.includes(value.state)) Object.assign(value, { state: 'dropped', detail: 'opted out: the queue was emptied' });
      }
      optedOut = state.optedOut;
    },

    /** Events still in the queue, as far as this page saw them. */
    queueLength(): number {
      let count = 0;
      for (const value of events.values()) if (!FINAL.includes(value.state)) count++;
      return count;
    },
  };
}

export type Model = ReturnType<typeof createModel>;

/**
 * The panel's customer line. Without one the tracker holds every event (they are sent for a
 * customer), so the line says what to set: a script-tag page without `data-customer-id` sent
 * nothing and said nothing (issue 43).
 *
 * @example
 * describeCustomer(undefined, 2); // 'not set: 2 event(s) wait for one. Set customerId (data-customer-id on the script tag) or call identify(id)'
 */
export function describeCustomer(customerId: string | undefined, queued: number): string {
  return customerId ?? `not set: ${queued} event(s) wait for one. Set customerId (data-customer-id on the script tag) or call identify(id)`;
}

/** The tracker's own rule for a context, or undefined when it passes. */
function validate(context: ExperienceContext): string | undefined {
  try {
    attributesOf(context, undefined);
    return undefined;
  } catch (error) {
    return isValidationError(error) ? `${error.field}: ${error.rule}` : String(error);
  }
}

/** The error's message, with what the proxy or the upstream said when its body carried it. */
function errorMessage(error: { message: string; body?: unknown }): string {
  const body = error.body as { error?: unknown; message?: unknown } | undefined;
  const said = typeof body?.error === 'string' ? body.error : ((body?.error as { message?: unknown } | undefined)?.message ?? body?.message);
  return typeof said === 'string' && said ? `${error.message} · ${said}` : error.message;
}

// Largest first; a unit is used from two of it (90 s, not 2 min).
const CLOCK_UNITS: Array<{ _ms: number; _one: string; _many: string }> = [
  { _ms: 31_536_000_000, _one: ' year', _many: ' years' },
  { _ms: 86_400_000, _one: ' day', _many: ' days' },
  { _ms: 3_600_000, _one: ' h', _many: ' h' },
  { _ms: 60_000, _one: ' min', _many: ' min' },
  { _ms: 1_000, _one: ' s', _many: ' s' },
];

/**
 * The device clock, in words: "device clock 10 min fast — corrected by the proxy".
 *
 * @param ms how far the device's clock is ahead of the proxy's (negative: behind), or undefined before the proxy answered
 */
/** The panel's line for this page's drops by reason. */
export function describeDrops(drops: Record<string, number>): string {
  const parts = Object.entries(drops).map(([reason, count]) => `${reason} ${count}`);
  return parts.length ? `${parts.join(' · ')} — counted for the proxy’s loss report` : 'none on this page';
}

export function describeDeviceClock(ms: number | undefined): string {
  if (ms === undefined) return 'not measured yet: the proxy has not answered';
  const size = Math.abs(ms);
  // Within what a request's flight explains.
  if (size < 2_000) return 'right (within 2 s of the proxy)';
  // Seconds always fit from here.
  const { _ms: unit, _one: one, _many: many } = CLOCK_UNITS.find(({ _ms }) => size >= 2 * _ms)!;
  const count = Math.round(size / unit);
  return `device clock ${count}${count === 1 ? one : many} ${ms > 0 ? 'fast' : 'slow'} — corrected by the proxy`;
}

const time = (ms: number) => new Date(ms).toLocaleTimeString('en-GB');

/**
 * A placement's label: what it is, its state, and — when it does not count — why, in words.
 *
 * @param ratio the share of the element in view now, 0 to 1 (measured by the caller)
 */
/** An element as a person finds it in the page: `div#wall.cookie-wall`. */
const named = (element: Element | undefined): string =>
  element ? `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${[...element.classList].map((name) => `.${name}`).join('')}` : '?';

/** Why a placement in view could not be seen, in the panel's words. */
function seenNot({ reason, element }: NotSeen): string {
  if (reason === 'no-area') return 'it has no area (0×0 or zero high)';
  if (reason === 'covered') return `covered by ${named(element)}`;
  return reason === 'transparent' ? `transparent (${named(element)} is at opacity 0)` : `hidden (${named(element)})`;
}

export function describePlacement(
  row: PlacementRow,
  ratio: number,
  state: TrackerState | undefined,
  events: Map<string, EventRow>,
  now: number,
): { title: string; lines: string[] } {
  const context = row.context;
  const title = context ? `${context.experience ?? '?'} · variation ${context.svc_variation_id ?? '?'}` : 'placement';
  const percent = `${Math.round(ratio * 100)} % in view`;
  const lines: string[] = [];
  if (row.invalid) lines.push(`not counted: invalid data-engage-context (${row.invalid})`);
  else if (row.countedAt !== undefined) {
    const event = row.uuid ? events.get(row.uuid) : undefined;
    lines.push(
      row.uuid
        ? `counted at ${time(row.countedAt)}${event ? ` · ${event.state}${event.detail ? ` (${event.detail})` : ''}` : ''}`
        : `not counted: ${state?.optedOut ? 'opted out' : 'refused by the tracker'}`,
    );
  } else if (!row.observed) lines.push('not observed: nothing counts it (automatic observation off?)');
  else if (row.alreadyCounted) lines.push('not counted again: already counted in this page view');
  else if (!row.inView) {
    lines.push(ratio > 0 ? `${percent}: less than half in view` : 'not in view');
    if (row.lastSpell !== undefined) lines.push(`was in view for ${Math.round(row.lastSpell)} ms: less than 1 s`);
  } else if (row.tabHidden) lines.push(`${percent}, but the tab is hidden: the second waits`);
  else if (row.notSeen) lines.push(`${percent}, but ${seenNot(row.notSeen)}: not counted`);
  else lines.push(`${percent} for ${Math.max(0, Math.round(now - (row.since ?? now)))} ms (counts at 1 s)`);
  if (row.clicks) lines.push(`clicked ×${row.clicks}`);
  if (state?.optedOut) lines.push('opted out: nothing is recorded');
  else if (state?.consent === 'pending') lines.push('waiting for consent: held in memory, nothing stored or sent');
  return { title, lines };
}
