import type { StoredEvent, TrackerOptions } from './types';

/** Upstream limit: one request carries at most 100 elements (users). */
const MAX_ELEMENTS = 100;

/** One request's worth of events. */
export interface Batch {
  _events: StoredEvent[];
  /** The upstream-shaped JSON body. */
  _body: string;
  /** Its length in UTF-8 bytes. */
  _bytes: number;
}

/**
 * Takes events from the front of `events` into one upstream-shaped request body: elements grouped
 * by customer and time-zone offset, at most 100 of them and `maxBytes` in all (one oversized event
 * still goes alone, so the proxy can refuse it by itself). An event recorded without a customer
 * takes `customerOf(event)`, and is skipped while that is undefined.
 * `event_time` is the device's, clamped to `nowSeconds` (the device clock may have moved back since
 * recording): our proxy dates it by its own clock from the request's `sent_at`, and a plain
 * reverse proxy in its place still never forwards an event the device dates in the future.
 */
export function takeBatch(
  events: StoredEvent[],
  customerOf: (event: StoredEvent) => string | undefined,
  nowSeconds: number,
  maxBytes: number,
): { _batch: Batch | undefined; _rest: StoredEvent[] } {
  const taken: StoredEvent[] = [];
  const rest: StoredEvent[] = [];
  // Each element's opening (which names its customer and offset, so it is also its key) → its actions.
  const elements = new Map<string, string[]>();
  // `{"elements":[` + `]}`
  let bytes = 15;
  let full = false;
  for (const event of events) {
    const customer = event.customerId ?? customerOf(event);
    if (!full && customer !== undefined) {
      const action = JSON.stringify({
        action: event.action,
        svc_event_uuid: event.uuid,
        event_time: Math.min(event.time, nowSeconds),
        platform: 'web',
        attributes: event.attributes,
      });
      const head = `{"customer_id":${JSON.stringify(customer)},"user_timezone_offset":${event.offset},"actions":[`;
      let actions = elements.get(head);
      const added = utf8Length(action) + 1 + (actions ? 0 : utf8Length(head) + 3);
      full = !!taken.length && (bytes + added > maxBytes || (!actions && elements.size === MAX_ELEMENTS));
      if (!full) {
        if (!actions) elements.set(head, (actions = []));
        actions.push(action);
        taken.push(event);
        bytes += added;
        continue;
      }
    }
    rest.push(event);
  }
  // An array in a template is its items joined by commas: the JSON list, written short (bytes).
  // eslint-disable-next-line @typescript-eslint/restrict-template-expressions
  const body = `{"elements":[${[...elements].map(([head, actions]) => `${head}${actions}]}`)}]}`;
  return { _batch: taken.length ? { _events: taken, _body: body, _bytes: utf8Length(body) } : undefined, _rest: rest };
}

/** UTF-8 byte length of `text`. */
export const utf8Length = (text: string): number => new TextEncoder().encode(text).length;

/**
 * A request's URL. Every request states when it left (`sent_at`), by the clock that dated its
 * events, so the proxy can date them by its own (a device clock minutes fast would otherwise have
 * every event refused as future-dated); read at each send, retries and beacons too. The loss
 * report (drop-counts.ts) rides along: in the query, since a beacon has no headers.
 */
// toFixed, not the number itself: a few doubles (milliseconds since 1970) turned into strings grow
// V8's number-to-string cache from 1.5 to 48 KB, a sixth of the tracker's heap on a page.
export const sentUrl = (url: string, query: string) => `${url}?sent_at=${Date.now().toFixed()}${query}`;

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** POSTs a batch's body to `target` with the tracker's own fetch, headers and credentials. */
export const post = (options: TrackerOptions, target: string, body: string, keepalive: boolean): Promise<Response> =>
  (options.fetch ?? fetch)(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body,
    keepalive,
    // null → undefined, which fetch reads as its own default, 'same-origin'.
    credentials: options.credentials ?? undefined,
  });
