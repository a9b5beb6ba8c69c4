import type { EngageError } from '../errors';

/**
 * The experience context the page received when it fetched the experience, passed through
 * unchanged as the event's `attributes`.
 */
export interface ExperienceContext {
  cid: string;
  experience: string;
  svc_locale_id: string;
  svc_variation_id: string;
  audience_name: string;
  audience_id: string;
  /** Upstream value: `Web Personalization`. */
  type?: string;
}

export type AttributeValue = string | number | boolean;

/** Extra event attributes: `b_id` names the clicked control; `svc_` names and context keys are refused. */
export type ExtraAttributes = Record<string, AttributeValue>;

/** Every option but `endpoint` may be left out, `undefined` or `null`: all three mean the default. */
export interface TrackerOptions {
  /** The proxy's base URL, e.g. `/engage` or `https://www.example.com/engage`. */
  endpoint: string;
  /** The user's `customer_id`. Events recorded before one is known wait for `identify()`. */
  customerId?: string | null;
  /** A flush starts as soon as this many events were recorded since the last one. @default 20 */
  batchSize?: number | null;
  /** Longest time an event waits before a flush, in ms. @default 5000 */
  flushInterval?: number | null;
  /** Most events kept; beyond it the oldest are dropped and reported. @default 10000 */
  maxQueueSize?: number | null;
  /** Events older than this (ms) are dropped and reported. @default 604800000 (7 days) */
  maxEventAge?: number | null;
  /** Largest request body in bytes; also keeps requests under the 64 KiB keepalive cap. @default 60000 */
  maxRequestBytes?: number | null;
  /** Separates the queues of several apps (or proxies) on one origin. @default 'default' */
  namespace?: string | null;
  /** How long IndexedDB may take to open before the tracker carries on from memory, in ms. @default 3000 */
  storageTimeout?: number | null;
  /** Receives every error; tracking calls themselves never throw. */
  onError?: ((error: EngageError) => void) | null;
  /** @default globalThis.fetch */
  fetch?: typeof fetch | null;
  /** Extra request headers (say, a CSRF token your proxy checks). */
  headers?: Record<string, string> | null;
  /** Use `include` when the proxy is on another origin and needs the session cookie. @default 'same-origin' */
  credentials?: RequestCredentials | null;
  /**
   * The visitor's consent when the tracker starts. `'pending'`: events are held in memory only
   * (at most 1,000; nothing stored, nothing sent) until `consent('granted')` delivers them or
   * `consent('denied')` drops them. A denial remembered from an earlier page wins over this.
   * @default 'granted'
   */
  consent?: ConsentState | null;
  /**
   * Whether `navigator.globalPrivacyControl === true` counts as a denial (California's CCPA
   * regulations, §7025, and Colorado's rules make the signal a valid opt-out). `false` for sites
   * whose counsel says the signal does not apply to them. @default true
   */
  honorGlobalPrivacyControl?: boolean | null;
  /**
   * The URL of `engage-sw.js` (or of the site's own service worker that imports it): where
   * Background Sync exists (Chromium), events this page could not deliver leave when the
   * connection returns, with no page of the site open. Elsewhere it changes nothing.
   * @example '/engage-sw.js'
   */
  serviceWorker?: string | null;
}

/**
 * The visitor's consent: `granted` stores and delivers; `pending` holds events in memory only and
 * sends nothing; `denied` drops what was held or queued and records nothing more.
 */
export type ConsentState = 'granted' | 'pending' | 'denied';

export interface Tracker {
  /**
   * Records an impression; returns the event's `svc_event_uuid`, or `undefined` if the input was
   * refused. `attributes` may be left out, `undefined` or `null`.
   */
  shown(context: ExperienceContext, attributes?: ExtraAttributes | null): string | undefined;
  /** Records a click (pass `{ b_id }` to name the control); returns the UUID, or `undefined` if refused. */
  clicked(context: ExperienceContext, attributes?: ExtraAttributes | null): string | undefined;
  /**
   * Sets the customer for this and later events, and for events still waiting for one.
   * `null`/`undefined` change nothing (say, `identify(session.user?.id)` before sign-in): to sign
   * out, call `reset()`.
   */
  identify(customerId: string | null | undefined): void;
  /**
   * Sign-out: forgets the customer, in this tab and in every other open tab of the site that
   * shares its queue (same origin and `namespace`). Events recorded from then on wait for the next
   * `identify()` (within `maxEventAge` and `maxQueueSize`, like any event without a customer);
   * events recorded before keep the customer they were recorded for and are delivered once.
   * Consent is not touched.
   * @example
   * signOutButton.onclick = () => { session.end(); tracker.reset(); };
   */
  reset(): void;
  /** Resolves once everything queued at the call is delivered; rejects with the reason it was kept. */
  flush(): Promise<void>;
  /**
   * Sets the visitor's consent. `granted` writes what was held to the durable queue and delivers
   * it once; `denied` drops what was held or queued, records nothing more and is remembered across
   * page loads until `consent('granted')`; `pending` holds what comes next in memory. Ignored
   * (but for `denied`) while an honoured Global Privacy Control signal is on.
   */
  consent(state: ConsentState): void;
  /** `consent('denied')`: stops recording, clears the queue, and is remembered across page loads. */
  optOut(): void;
  /** `consent('granted')`. */
  optIn(): void;
  /** Removes every timer and listener. Events already queued stay queued for the next page. */
  destroy(): void;
}

/** One queued event, as stored in IndexedDB. */
export interface StoredEvent {
  uuid: string;
  action: string;
  /** Event time, epoch seconds. */
  time: number;
  /** Seconds east of UTC at the event's instant. */
  offset: number;
  customerId?: string | null;
  attributes: Record<string, AttributeValue>;
  /** Epoch ms; orders the queue and ages events out. */
  recordedAt: number;
}
