import { type EngageError, ValidationError } from '../errors';
import { backgroundSync } from './background-sync';
import { createDelivery } from './delivery';
import { createEventQueue } from './event-queue';
import { buildEvent, CLICKED, SHOWN } from './experience-event';
import { RECORDED, STORED, type Tap, type Tapped } from './tap';
import type { ExperienceContext, ExtraAttributes, StoredEvent, Tracker, TrackerOptions } from './types';

const noop = () => {};

/**
 * Creates the experience tracker: records shown/clicked events durably and delivers them
 * through the proxy, at least once, with stable UUIDs.
 *
 * @example
 * const tracker = createTracker({ endpoint: '/engage', customerId: 'u-42' });
 * tracker.shown(experienceContext);
 * button.onclick = () => tracker.clicked(experienceContext, { b_id: 'Add to cart' });
 */
export function createTracker(options: TrackerOptions): Tracker {
  const namespace = options.namespace ?? 'default';
  const url = `${String(options.endpoint).replace(/\/+$/, '')}/v1/experiences/events`;
  const consentKey = `engage-sdk:v1:${namespace}:opt-out`;
  const warned = new Set<string>();

  let customerId: string | undefined;
  let destroyed = false;
  // Whoever listens to this tracker's reports (lifecycle.ts); unset unless something subscribed.
  let listener: Tap | undefined;
  const tap: Tap = (stage, a, b, c, d) => (stage ? listener?.(stage, a, b, c, d) : [url, customerId, optedOut, (listener = (a as Tap | undefined) ?? listener)]);

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
      console.warn(`engage-sdk: ${error.message}`);
    }
    return undefined;
  }

  /** The consent choice, remembered across page loads; without storage (SSR, blocked cookies), for this page only. */
  const storage = (use: (storage: Storage) => unknown) => {
    try {
      return use(localStorage);
    } catch {
      // No storage: nothing remembered, not opted out.
    }
  };
  let optedOut = storage((s) => s.getItem(consentKey)) === '1';
  const consent = (optOut: boolean) => {
    optedOut = optOut;
    storage((s) => (optOut ? s.setItem(consentKey, '1') : s.removeItem(consentKey)));
  };

  const queue = createEventQueue(namespace, options.storageTimeout ?? 3_000, report, (events) => tap(STORED, events));
  // A worker delivers only what consent let into the queue; an opted-out page asks it for nothing.
  const wake = backgroundSync(options, url, namespace, report);
  const [add, schedule, flush, forget, stop] = createDelivery(
    options,
    url,
    queue,
    () => customerId,
    report,
    tap,
    () => optedOut || wake?.(),
  );

  function record(action: string, context: ExperienceContext, attributes?: ExtraAttributes | null): string | undefined {
    if (destroyed || optedOut) return undefined;
    let event: StoredEvent;
    try {
      event = buildEvent(action, context, attributes, customerId, Date.now());
    } catch (error) {
      return refuse(error as ValidationError);
    }
    queue.push(event);
    listener?.(RECORDED, event);
    add(event);
    return event.uuid;
  }

  // `tap` is on the object for lifecycle.ts (and for observe, which reports through the recorder
  // it is given), and off the Tracker type on purpose: subscribe with onLifecycle.
  const tracker: Tracker & Tapped = {
    shown: (context, attributes) => record(SHOWN, context, attributes),
    clicked: (context, attributes) => record(CLICKED, context, attributes),
    identify(id) {
      // null/undefined: not given, the customer stays as it is.
      if (id == null) return;
      if (typeof id !== 'string' || !id) return void refuse(new ValidationError('customerId', 'must be a non-empty string'));
      customerId = id;
      schedule(0);
    },
    flush: () => (destroyed || optedOut ? Promise.resolve() : flush()),
    optOut() {
      consent(true);
      forget();
      queue.clear().catch(noop);
    },
    optIn: () => consent(false),
    destroy() {
      destroyed = true;
      stop();
    },
    tap,
  };

  tracker.identify(options.customerId);
  return tracker;
}
