import type { StoredEvent } from './types';

/** Upstream limit: one request carries at most 100 elements (users). */
const MAX_ELEMENTS = 100;

export interface Batch {
  events: StoredEvent[];
  body: string;
  bytes: number;
}

interface Element {
  head: string;
  actions: string[];
}

/**
 * Takes events from the front of `events` into one upstream-shaped request body: elements grouped
 * by customer and time-zone offset, at most 100 of them and `maxBytes` in all (one oversized event
 * still goes alone, so the proxy can refuse it by itself). Events without a customer are skipped.
 * `event_time` is clamped to `nowSeconds`, because the upstream refuses events dated in the future
 * and the device clock may have moved back since recording.
 */
export function takeBatch(
  events: StoredEvent[],
  customerId: string | undefined,
  nowSeconds: number,
  maxBytes: number,
): { batch: Batch | undefined; rest: StoredEvent[] } {
  const taken: StoredEvent[] = [];
  const rest: StoredEvent[] = [];
  const elements = new Map<string, Element>();
  // `{"elements":[` + `]}`
  let bytes = 15;
  let full = false;
  for (const event of events) {
    const customer = event.customerId ?? customerId;
    if (full || customer === undefined) {
      rest.push(event);
      continue;
    }
    const action = JSON.stringify({
      action: event.action,
      svc_event_uuid: event.uuid,
      event_time: Math.min(event.time, nowSeconds),
      platform: 'web',
      attributes: event.attributes,
    });
    const key = `${event.offset} ${customer}`;
    let element = elements.get(key);
    let added = utf8Length(action) + 1;
    const head = element ? '' : `{"customer_id":${JSON.stringify(customer)},"user_timezone_offset":${event.offset},"actions":[`;
    if (!element) added += utf8Length(head) + 3;
    if (taken.length && (bytes + added > maxBytes || (!element && elements.size === MAX_ELEMENTS))) {
      full = true;
      rest.push(event);
      continue;
    }
    if (!element) elements.set(key, (element = { head, actions: [] }));
    element.actions.push(action);
    taken.push(event);
    bytes += added;
  }
  if (!taken.length) return { batch: undefined, rest };
  const parts: string[] = [];
  elements.forEach((element) => parts.push(`${element.head}${element.actions.join(',')}]}`));
  const body = `{"elements":[${parts.join(',')}]}`;
  return { batch: { events: taken, body, bytes: utf8Length(body) }, rest };
}

/** UTF-8 byte length of `text`. */
export const utf8Length = (text: string): number => new TextEncoder().encode(text).length;
