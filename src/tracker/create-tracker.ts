import { DroppedEventsError, type EngageError, ValidationError } from '../errors';
import { nowSeconds, post, sentUrl, takeBatch } from './batch';
import { noop, warn } from './console';
import type { Delivery } from './delivery';
import type { Durable } from './durable';
import { CONSENT_OVERFLOW, createDropCounts, DESTROYED, INVALID } from './drop-counts';
import type { EventQueue } from './event-queue';
import { buildEvent, CLICKED, SHOWN } from './experience-event';
import { later } from './later';
import { loadDurable } from './load-durable';
import { RECORDED, STORED, type Tap, type Tapped, type TapListener } from './tap';
import type { ConsentState, ExperienceContext, ExtraAttributes, StoredEvent, Tracker, TrackerOptions } from './types';

const GRANTED = 'granted';
const PENDING = 'pending';
const DENIED = 'denied';
// Held while consent is pending: a few page views of placements and clicks, a few hundred KB at most.
const MAX_HELD = 1_000;
// Events recorded without a customer whose customer a sign-out can fix: ~1 MB of UUIDs at most.
const MAX_OWNED = 10_000;

/**
 * Creates the experience tracker: records shown/clicked events durably and delivers them
 * through the proxy, at least once, with stable UUIDs. Under `consent: 'pending'` it holds them
 * in memory only and sends nothing until `consent('granted')`.
 *
 * @example
 * const tracker = createTracker({ endpoint: '/engage', customerId: 'u-42' });
 * tracker.shown(experienceContext);
 * button.onclick = () => tracker.clicked(experienceContext, { b_id: 'Add to cart' });
 */
export function createTracker(options: TrackerOptions): Tracker {
  const namespace = options.namespace ?? 'default';
  // Trailing slashes off without a regular expression: compiling one was ~5 ms of the script tag's
  // evaluation at 4× CPU.
  let base = String(options.endpoint);
  while (base.endsWith('/')) base = base.slice(0, -1);
  const url = `${base}/v1/experiences/events`;
  const consentKey = `engage-sdk:v1:${namespace}:opt-out`;
  const warned = new Set<string>();

  let customerId: string | undefined;
  // Sign-out (reset()): the events this tab recorded without a customer (objects, not UUID keys:
  // a push per event, not a hash), and the customer a sign-out fixed for each (UUID → customer),
  // here or in another tab. Without one, an event is given the customer of the moment it is sent,
  // which after a sign-out would be the next person's. Bounded: beyond it, an event recorded
  // without a customer goes to whoever is identified when it is sent.
  let anonymous: StoredEvent[] = [];
  const owners = new Map<string, string>();
  // The sign-out reaches every tab of the site that shares this queue (the namespace's: any of them
  // may send an event waiting for a customer), on a channel named by the namespace's key. Unset
  // without BroadcastChannel, and on a server, where an open channel would keep the process alive.
  let channel: BroadcastChannel | undefined;
  let destroyed = false;
  // Whoever listens to this tracker's reports (lifecycle.ts); unset unless something subscribed.
  let listener: TapListener | undefined;
  const tap: Tap = {
    _report: (report) => listener?.(report),
    // null detaches (the script tag's buffer, once it knows no inspector is coming).
    _attach: (next) => ({ _url: url, _customerId: customerId, _consent: state, _listener: (listener = next === null ? undefined : (next ?? listener)) }),
  };

  function report(error: EngageError): void {
    try {
      options.onError?.(error);
    } catch {
      // A throwing onError must not break tracking.
    }
  }

  function refuse(error: ValidationError): undefined {
    report(error);
    if (!warned.has(error.message)) {
      warned.add(error.message);
      warn(error);
    }
    return undefined;
  }

  /** The denial, remembered across page loads; without storage (SSR, blocked cookies), for this page only. */
  const storage = (use: (storage: Storage) => unknown) => {
    try {
      return use(localStorage);
    } catch {
      // No storage: nothing remembered, not denied.
    }
  };
  // An honoured Global Privacy Control signal is a denial no call can lift (CCPA regulations
  // §7025(c): the business shall process it), and is not written down: it is read on every load.
  const gpc = options.honorGlobalPrivacyControl !== false && (globalThis.navigator as { globalPrivacyControl?: boolean } | undefined)?.globalPrivacyControl === true;
  // Until the first consent() below, nothing is stored and nothing sent.
  let state: ConsentState = gpc ? DENIED : PENDING;
  // What was recorded while consent was pending, in memory only, and how many did not fit.
  let held: StoredEvent[] = [];
  let overflow = 0;
  let queue: EventQueue | undefined;
  // Made on the first grant, not before: its start-up run, its timers and its closing-page
  // listeners (keepalive, beacon) must not exist while consent is pending or denied.
  let delivery: Delivery | undefined;
  // The loss report: kept from the first grant, never while pending or after a denial.
  const drops = createDropCounts(namespace, undefined, tap._report);
  const customerOf = (event: StoredEvent) => owners.get(event.uuid) ?? customerId;
  // The queue's and delivery's code, loaded as code of its own (load-durable.ts): the start waits
  // for it.
  let code: Durable | undefined;
  const arrival = loadDurable().then((loaded) => void (code = loaded));
  arrival.catch(report);
  const newQueue = () => code!._queue(namespace, options.storageTimeout ?? 3_000, report, (events) => tap._report({ _stage: STORED, _events: events }));

  // Until the start (below) has run, as under pending consent, what is recorded stays in memory and
  // nothing is stored or sent; consent choices made meanwhile (a CMP restoring one, a queued
  // Engage.consent) are applied, in order, after the start's own. A page prerendered by speculation
  // rules starts only once the visitor opens it.
  const doc = globalThis.document as (Document & { prerendering?: boolean }) | undefined;
  const wanted: ConsentState[] = [];
  let started = false;

  function consent(next: ConsentState): void {
    if (next !== GRANTED && next !== PENDING && next !== DENIED) return void refuse(new ValidationError('consent', "must be 'granted', 'pending' or 'denied'"));
    // Remembered as it is made, before the start too: a page closed before the start (the delivery
    // code still loading) must not forget a denial, nor keep one the visitor lifted. An honoured
    // GPC signal is not written down: it is read on every load.
    if (!gpc && (next === DENIED || (next === GRANTED && !destroyed))) storage((s) => (next === DENIED ? s.setItem(consentKey, '1') : s.removeItem(consentKey)));
    if (!started) {
      wanted.push(next);
      // A denial known now refuses at once what this task records (GPC too: no call lifts it).
      return void (state = next === DENIED || gpc ? DENIED : PENDING);
    }
    if (gpc && next !== DENIED) return;
    state = next;
    // The loss report's counts are kept in the queue from a grant on (never before).
    drops._consent(next, next === GRANTED && !destroyed ? (queue ??= newQueue()) : undefined);
    if (next === DENIED) {
      held = [];
      overflow = 0;
      delivery?._forget();
      // The durable queue goes too, whether or not this page ever used it; a grant after this
      // writes to the same queue, after the clear.
      void (queue ??= newQueue())._clear();
    } else if (next === GRANTED && !destroyed) {
      queue ??= newQueue();
      if (!delivery) {
        // The service worker too is registered on the first grant, not before: a registration is
        // something stored on the device. It delivers only what consent let into the queue.
        const wake = code!._sync(options, url, namespace, report);
        delivery = code!._delivery(options, url, queue, customerOf, report, tap._report, drops, () => state === GRANTED && wake?.());
      }
      for (const event of held) {
        queue._push(event);
        delivery._add(event);
      }
      held = [];
      if (overflow) report(new DroppedEventsError(overflow, 'consent-pending'));
      drops._add(CONSENT_OVERFLOW, overflow);
      overflow = 0;
    }
  }

  function record(action: string, context: ExperienceContext, attributes?: ExtraAttributes | null): string | undefined {
    if (state === DENIED) return undefined;
    if (destroyed) return void drops._add(DESTROYED, 1);
    let event: StoredEvent;
    try {
      event = buildEvent(action, context, attributes, customerId, Date.now());
    } catch (error) {
      drops._add(INVALID, 1);
      return refuse(error as ValidationError);
    }
    listener?.({ _stage: RECORDED, _event: event });
    if (!customerId && anonymous.length + owners.size < MAX_OWNED) anonymous.push(event);
    // Held only to keep the first task short: a page that records more than can be held before the
    // start has paid more than the start costs, and the start must not cost it a single event
    // (while the delivery code loads, the start waits: unless consent is pending, up to MAX_OWNED
    // are held).
    if (state === PENDING && !started && held.length >= MAX_HELD) startNow();
    if (state === PENDING) {
      // The first ones are kept: what the visitor saw while the banner was open (the hero) matters most.
      if (held.length < MAX_HELD || (!started && held.length < MAX_OWNED && decided() !== PENDING)) held.push(event);
      else overflow++;
    } else {
      queue!._push(event);
      delivery!._add(event);
    }
    return event.uuid;
  }

  /**
   * Forgets the customer. What this tab recorded without one is fixed to the customer it had (none:
   * it waits for the next); `fixed` brings what another tab's sign-out fixed.
   */
  function forget(fixed?: Map<string, string | undefined>): void {
    fixed?.forEach((id, uuid) => id && owners.set(uuid, id));
    if (customerId) {
      for (const event of anonymous) owners.set(event.uuid, customerId);
      anonymous = [];
    }
    customerId = undefined;
  }

  // `_tap` is on the object for lifecycle.ts (and for observe, which reports through the recorder
  // it is given), and off the Tracker type on purpose: subscribe with onLifecycle.
  const tracker: Tracker & Tapped = {
    shown: (context, attributes) => record(SHOWN, context, attributes),
    clicked: (context, attributes) => record(CLICKED, context, attributes),
    identify(id) {
      // null/undefined: not given, the customer stays as it is.
      if (id == null) return;
      if (typeof id !== 'string' || !id) return void refuse(new ValidationError('customerId', 'must be a non-empty string'));
      customerId = id;
      delivery?._schedule(0);
    },
    reset() {
      // The channel to the other tabs is opened by the start.
      startNow();
      forget();
      channel?.postMessage(owners);
    },
    // Nothing is delivered but under a grant: while pending, what is held waits for it. The start
    // waits for the delivery code (rejected when it could not load).
    flush: () => arrival.then(flushNow),
    consent,
    optOut: () => consent(DENIED),
    optIn: () => consent(GRANTED),
    destroy() {
      // What was recorded before it is queued, as when the start had run.
      startNow();
      destroyed = true;
      delivery?._stop();
      channel = void channel?.close();
    },
    _tap: tap,
  };

  tracker.identify(options.customerId);
  // The start runs in later tasks, not in the one that created the tracker (issue 51: at 4× CPU,
  // localStorage's first read and the queue and delivery it creates made the script tag's
  // evaluation a 112-129 ms task). A call in this task needs none of it: events are held.
  // Its first half: the channel to the other tabs, and the denial a page remembered.
  let denied: boolean | undefined;
  const remember = () => (denied ??= (doc && !destroyed && listenToOtherTabs(), storage((s) => s.getItem(consentKey)) === '1' || gpc));
  const listenToOtherTabs = () => {
    try {
      (channel = new BroadcastChannel(consentKey)).onmessage = (message) => forget(message.data as Map<string, string | undefined>);
    } catch {
      // No BroadcastChannel (Safari before 15.4): a sign-out reaches this tab only.
    }
  };
  const flushNow = () => (startNow(), !destroyed && state === GRANTED ? delivery!._flush() : Promise.resolve());
  // Its second half, and the whole start when called before its task (a page going away, flush()
  // or destroy() cannot wait); a prerendered page starts only once it is shown, and none before
  // the delivery code is here. A destroy() that came first is done again after it: what was recorded
  // before it is queued, as when the start had run.
  function startNow(): void {
    if (started || doc?.prerendering) return;
    remember();
    if (!code) return;
    started = true;
    const wasDestroyed = destroyed;
    if (wasDestroyed) destroyed = false;
    consent(denied ? DENIED : (options.consent ?? GRANTED));
    wanted.forEach(consent);
    // Held past the bound while the delivery code loaded: under pending consent, the bound holds.
    if (state === PENDING) overflow += held.splice(MAX_HELD).length;
    if (wasDestroyed) tracker.destroy();
  }
  const start = () => later(() => (remember(), void arrival.then(() => later(startNow), noop)));
  if (doc?.prerendering) doc.addEventListener('prerenderingchange', start, { once: true });
  else start();
  // A page hidden or going away before the start ran: the start runs now, then what delivery's own
  // listeners do (added during this event's dispatch, they are not called for it). Before the
  // delivery code is here (it may never come), what is held and consented to leaves as beacons, at
  // every hide (Firefox loses either event's requests at random, delivery.ts); the proxy answers a
  // repeat from its UUID memory.
  const early = (event: Event) => {
    if (started) return;
    startNow();
    if (delivery) delivery._hide(event);
    else if (!started && (event.type === 'pagehide' || doc!.visibilityState === 'hidden')) beaconHeld();
  };
  // What the start will decide, as things are.
  const decided = () => wanted.reduce((now, next) => (gpc && next !== DENIED ? now : next), denied ? DENIED : (options.consent ?? GRANTED));
  // Requests that need headers or a fetch of their own go as keepalive fetches, as delivery sends
  // a hiding page's; the rest as beacons (text/plain, which the proxy accepts).
  function beaconHeld(): void {
    if (decided() !== GRANTED) return;
    const fetched = options.fetch || options.headers;
    for (let rest = held, taken; (taken = takeBatch(rest, customerOf, nowSeconds(), options.maxRequestBytes ?? 60_000))._batch; rest = taken._rest) {
      const target = sentUrl(url, drops._query());
      const body = taken._batch._body;
      try {
        if (!fetched) {
          if (!navigator.sendBeacon(target, body)) break;
        } else void post(options, target, body, true).catch(noop);
      } catch {
        // A fetch of the site's that throws, or no sendBeacon: nothing more leaves this page.
        break;
      }
    }
  }
  if (doc) {
    addEventListener('pagehide', early);
    doc.addEventListener('visibilitychange', early);
  }
  return tracker;
}
