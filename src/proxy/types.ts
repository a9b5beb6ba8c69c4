// Type-only module: the proxy's public option and store types.

import type { Operation } from '../upstream/operations';
import type { StoreErrorKind } from './stores/store-error';
import type { DropReason } from './pipeline/drop-reasons';

export type { StoreErrorKind };
export type { DropReason };

/** The five upstream operations the proxy can route (names shared with the emulator and client). */
export type { Operation };

/** Upstream API keys, one per tile. Only the proxy (server side) ever holds them. */
export interface ProxyKeys {
  /** Data tile key: users, events, file-import status. */
  data?: string;
  /** Personalization tile key: experience events. */
  personalize?: string;
  /** Campaign key: campaign update. */
  campaign?: string;
}

/** One fixed-window budget: at most `limit` units per `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/**
 * Budgets for one operation. Units are events (actions) for `experienceEvents` and `events`,
 * requests for the others. Several entries are all enforced (e.g. 10/s and 100/min).
 */
export interface OperationRateLimits {
  /** Shared by every client of the workspace (mirrors the upstream's quota). */
  workspace?: RateLimit[];
  /** Per client address (see `trustedProxies`). */
  client?: RateLimit[];
  /**
   * Experience events only: per client address, how many of its browsers' statements the loss
   * and lateness metrics count — loss reports (`engage_proxy_loss_reports_total`, and their
   * events in `engage_proxy_client_dropped_events_total`) and late deliveries
   * (`engage_proxy_late_deliveries_total`), each its own budget of these units. Beyond it they are
   * not counted (`engage_proxy_reports_over_budget_total`); the request's events are forwarded as
   * usual. A browser writes both, so anyone can: this keeps one address from moving the alerts.
   * @default [{ limit: 3, windowMs: 3_600_000 }]
   */
  reports?: RateLimit[];
}

/** What a claim found for one event key: now ours, already accepted upstream, or being forwarded by another request. */
export type ClaimState = 'claimed' | 'accepted' | 'pending';

/**
 * The only state the proxy keeps: rate-limit counters, claims on event UUIDs being forwarded, and
 * the memory of UUIDs the upstream accepted. In memory by default (`createMemoryStore`); shared by
 * several instances over Redis (`createRedisStore` from `engage-sdk/proxy/redis`) or any store
 * that can do the same atomically per key. Calls a request makes together are issued in the same
 * tick, so a pipelining client sends them in one round trip.
 */
export interface ProxyStore {
  /**
   * Adds `amount` (may be negative, to give back a refused request) to the counter `key`,
   * creating it at 0 with a lifetime of `ttlMs`, and returns the new value. Must be atomic per key.
   */
  increment(key: string, amount: number, ttlMs: number): Promise<number>;
  /**
   * For each key, atomically: absent → claimed by `owner` for `ttlMs` ('claimed'); already
   * claimed by `owner` → 'claimed'; accepted → 'accepted'; claimed by another owner → 'pending'.
   * `acceptedMs` is how long a key is remembered once committed (the dedup window): a store that
   * accepts a whole claim at once at commit (the Redis store) gives each key its lifetime here.
   */
  claim(keys: readonly string[], owner: string, ttlMs: number, acceptedMs: number): Promise<ClaimState[]>;
  /**
   * The upstream accepted these keys, claimed by `owner`: each answers 'accepted' to every owner
   * for `ttlMs`, the claim ended. A store may mark the owner's claim instead of each key.
   */
  commit(keys: readonly string[], ttlMs: number, owner: string): Promise<void>;
  /** Deletes each key still claimed by `owner` (a claim that expired and was re-taken stays). */
  release(keys: readonly string[], owner: string): Promise<void>;
  /** Resolves when the store is reachable (used by readiness probes); rejects otherwise. */
  ping?(): Promise<void>;
}

/** One line of the proxy's log. Never carries a key, a body or a header value (but a crawler's user agent, which names it). */
export interface ProxyLogEntry {
  level: 'info' | 'warn' | 'error';
  message: string;
  operation?: Operation;
  method?: string;
  path?: string;
  status?: number;
  upstreamStatus?: number;
  attempts?: number;
  deduplicated?: number;
  /** Units sent upstream with a 2xx (events for experience events and events, else 1). */
  forwarded?: number;
  /** Time spent calling the upstream, all attempts and backoff included. */
  upstreamMs?: number;
  /** Which budget refused the request with 429. */
  limited?: 'client' | 'workspace';
  /**
   * Refused 503 because the upstream origin had no free slot: `full` (slots and queue taken,
   * answered at once) or `waited` (queued for `upstreamTimeoutMs` without a slot).
   */
  overloaded?: 'full' | 'waited';
  /** A retry was due but the origin's retry budget was spent, so the failure was passed on. */
  retryBudgetSpent?: true;
  /** Store operations that failed during this request (limits or memory skipped). */
  storeErrors?: number;
  /** The same failures by kind: redirection, timeout, connection, script, other. */
  storeErrorKinds?: Partial<Record<StoreErrorKind, number>>;
  clientAddress?: string;
  durationMs?: number;
  /**
   * Experience events answered as delivered and not forwarded, because the request's user agent
   * is a crawler's (`bots`); `crawler` is that user agent (printable, at most 200 characters).
   */
  crawlerEvents?: number;
  crawler?: string;
  /** Experience events: how far the device's clock was ahead of the proxy's (negative: behind), in ms, from the request's `sent_at`. */
  deviceClockMs?: number;
  /**
   * Experience events: the loss report this request carried (what the browser dropped, by reason,
   * at most 10,000 events in all), on an accepted delivery, the first time its id was seen, within
   * its client address's `reports` budget. See `engage_proxy_client_dropped_events_total` and
   * `engage_proxy_loss_reports_total`.
   */
  clientDropped?: Partial<Record<DropReason, number>>;
  /**
   * Experience events: a delivery the proxy accepted (answered 2xx, forwarded or answered from
   * the UUID memory, not a crawler's): what a loss report or a late delivery may ride on.
   */
  delivered?: true;
  /**
   * Experience events: a delivery whose oldest accepted event was more than an hour late (see
   * `engage_proxy_late_deliveries_total`), counted within its client address's `reports` budget.
   */
  lateDelivery?: true;
  /** Statements of this delivery not counted because its client address's `reports` budget was spent: a loss report, lateness. */
  overBudget?: Array<'loss' | 'late'>;
  /** Experience events: each accepted event's delay, in seconds, from its (corrected) time to the upstream's 2xx. */
  eventDelaySeconds?: number[];
}

export type ProxyLogger = (entry: ProxyLogEntry) => void;

/** What `serve` (or an edge runtime's glue) knows about the connection. */
export interface ProxyConnectionInfo {
  /** The TCP peer's address. */
  clientAddress?: string;
  /**
   * Keeps work going after the response is sent (a Cloudflare Worker's `ctx.waitUntil`; `serve`
   * and the Node middleware pass one, since a Node process lives on). The proxy then marks the
   * events it forwarded as accepted after answering instead of before: one store round trip less
   * per request. Without it, that write is awaited; until it lands, a concurrent re-send waits.
   */
  waitUntil?: (work: Promise<unknown>) => void;
}

export type ProxyHandler = (request: Request, info?: ProxyConnectionInfo) => Promise<Response>;

export interface ProxyOptions {
  /** The workspace (app) ID: the Basic-auth username, `SVC-APPKEY`, and the path segment upstream. */
  workspaceId: string;
  /**
   * Upstream keys, or a function returning them. A function is called for every request, so a
   * rotated key takes effect without a restart.
   * @example keys: () => ({ personalize: secrets.get('ENGAGE_PERSONALIZE_KEY') })
   */
  keys: ProxyKeys | (() => ProxyKeys | Promise<ProxyKeys>);
  /**
   * Origin (plus path prefix, if any) of campaign, user and event operations, e.g.
   * `https://api-01.<upstream-domain>`. Required when one of those operations is enabled.
   */
  baseUrl?: string;
  /** Origin (plus path prefix) of experience events. Required when they are enabled. */
  sdkUrl?: string;
  /** Origin (plus path prefix) of file-import status. Required when it is enabled. */
  fileImportsUrl?: string;
  /**
   * Mount prefix of the proxy's routes, e.g. `'/engage'`.
   * @default ''
   */
  basePath?: string;
  /**
   * Origins allowed to call the proxy cross-origin (exact `scheme://host[:port]`). Same-origin
   * requests, and requests without an `Origin` header, need no entry.
   * @default []
   */
  allowedOrigins?: string[];
  /**
   * Send `Access-Control-Allow-Credentials: true` to allowed origins, so cookies of a cross-origin
   * session reach `resolveCustomer`.
   * @default false
   */
  allowCredentials?: boolean;
  /**
   * Request headers a cross-origin page may send (answered in preflights), e.g. a CSRF header
   * your `resolveCustomer` reads, or `Authorization` for a bearer token your `authorize` checks.
   * Never forwarded upstream. `Content-Type` is always allowed (every operation needs it).
   * @default ['Content-Type']
   * @example allowedHeaders: ['Authorization']
   */
  allowedHeaders?: string[];
  /**
   * How long browsers may cache a preflight answer, in seconds (Chromium caps it at 7200).
   * @default 7200
   */
  corsMaxAgeSeconds?: number;
  /**
   * Operations this proxy serves. `campaignUpdate` and `fileImportStatus` also need `authorize`.
   * @default ['experienceEvents']
   */
  operations?: Operation[];
  /**
   * Gate for the administrative operations (`campaignUpdate`, `fileImportStatus`): return true to
   * let the request through. Not called for the other operations (bind those with `resolveCustomer`).
   */
  authorize?: (request: Request, operation: Operation) => boolean | Promise<boolean>;
  /**
   * The customer ID of the caller's own server-side session. When set, `customer_id` in
   * experience events, users and events is filled in when absent and must match when present
   * (else 403); `undefined` (no session) refuses the request with 401.
   */
  resolveCustomer?: (request: Request) => string | undefined | Promise<string | undefined>;
  /**
   * The workspace has identity resolution on: users and events may then omit `customer_id` and
   * identify the user by one of these identifiers instead (as the upstream accepts them).
   * @default undefined (off: `customer_id` is required)
   * @example identityResolution: { identifiers: ['svc_mobile'] }
   */
  identityResolution?: { identifiers: string[] };
  /**
   * Maximum request body in bytes (413 beyond), one number for all, or per operation.
   * @default { experienceEvents: 262144, users: 131072, events: 131072, campaignUpdate: 262144, fileImportStatus: 16384 }
   */
  maxBodyBytes?: number | Partial<Record<Operation, number>>;
  /**
   * Rate limits per operation, replacing the default for each operation given (`{}` = none).
   * Per workspace the defaults mirror the upstream's documented quotas: events 30,000 events/min,
   * users 10,000/min, file-import status 50/min, campaign update 10/s + 100/min + 6000/h;
   * experience events have none documented, so none here. Per client: experience events and
   * events 1,200 events/min, users 120/min; experience events' `reports`, 3/h (an operation given
   * without `reports` has none: spread the default to keep it). From the environment: `ENGAGE_RATE_LIMITS`.
   * @default DEFAULT_RATE_LIMITS
   * @example rateLimits: { experienceEvents: { ...DEFAULT_RATE_LIMITS.experienceEvents, client: [{ limit: 600, windowMs: 60_000 }] } }
   */
  rateLimits?: Partial<Record<Operation, OperationRateLimits>>;
  /**
   * Addresses (exact IPs or IPv4 CIDR ranges) of reverse proxies in front of this one. Only hops
   * they add to `X-Forwarded-For` are believed; anything else in the header is discarded.
   * @default []
   */
  trustedProxies?: string[];
  /**
   * Rate-limit counters, claims on event UUIDs and the memory of accepted ones. Give every
   * instance of one workspace the same shared store (Redis) so that each event is forwarded once
   * and a workspace budget holds across instances.
   * @default createMemoryStore()
   */
  store?: ProxyStore;
  /**
   * What a request does when the store cannot claim its events (Redis down, a cluster shard
   * without a master during a failover, a stalled node):
   * - `'forward'`: forwards them without a claim, counted and logged. No event waits; an event
   *   re-sent meanwhile (a reload, a second instance) may reach the upstream twice, which
   *   deduplicates on `svc_event_uuid`.
   * - `'retry'`: forwards none of them and answers 503 with `Retry-After`; the tracker keeps the
   *   events and re-sends them. Nothing is accepted twice, and nothing is lost while the tracker
   *   holds them, but every event waits for the store (and a client that does not retry loses them).
   * @default 'forward'
   */
  storeFailure?: 'forward' | 'retry';
  /**
   * How long experience-event UUIDs the upstream accepted are remembered (re-sends answered
   * without forwarding). `0` turns claims and memory off: every request is forwarded as it is.
   * @default 86400000 (24 h)
   */
  dedupWindowMs?: number;
  /**
   * How long a request waits for events that another request (on any instance) is forwarding.
   * Accepted ones are then left out of its own forward; released ones it forwards itself; those
   * still being forwarded after this long get a 503 with `Retry-After`, and the tracker re-sends.
   * @default 3000
   */
  claimWaitMs?: number;
  /**
   * Time limit of one upstream attempt, in ms (504 when the last attempt times out).
   * @default 10000
   */
  upstreamTimeoutMs?: number;
  /**
   * Extra attempts for experience events after a network error, timeout or 5xx (other operations
   * are never retried: they are not idempotent).
   * @default 2
   */
  retries?: number;
  /**
   * First retry delay in ms; doubles per attempt, with full jitter, capped at 2 s.
   * @default 200
   */
  retryBaseDelayMs?: number;
  /**
   * Share of requests the proxy may retry upstream, per upstream origin over the last 10 s (plus
   * 10 retries per 10 s whatever the traffic). While the upstream fails, retries past it are not
   * made: the request gets the failure at once and the tracker's own backoff waits. `0` keeps
   * only those 10.
   * @default 0.2
   */
  retryBudget?: number;
  /**
   * Most upstream requests in flight at once, per upstream origin (and per process: each
   * `ENGAGE_WORKERS` process has its own). Requests past it wait in a queue of `upstreamQueue`;
   * past both the proxy answers 503 with `Retry-After` at once, in the operation's error shape,
   * and the tracker keeps and re-sends the events. On Node it also bounds the pool's connections.
   * @default 512
   */
  upstreamConcurrency?: number;
  /**
   * Most requests waiting for an upstream slot, per upstream origin; a waiter is refused (503)
   * after `upstreamTimeoutMs`. With `upstreamConcurrency`, it bounds the bodies held in memory:
   * (concurrency + queue) × the body limit.
   * @default 512
   */
  upstreamQueue?: number;
  /**
   * What to do with experience events whose request comes from a crawler or automation that ran
   * the page's JavaScript (Googlebot, Bingbot, SEO tools, link previews, monitors, headless
   * browsers, and any request without a user agent, which no browser sends):
   * - `'drop'`: recognised by isbot's list (`isCrawler`), answered as delivered, so the tracker
   *   neither retries nor keeps them, and never forwarded; counted (`engage_proxy_bot_events_total`)
   *   and logged, and the answer says so in `X-Engage-Crawler: dropped` (the inspection panel shows it);
   * - `'forward'`: every request is forwarded, with no check;
   * - a function of the user agent (`''` when there is none) that returns true for a crawler: a
   *   rule of your own. If it throws, the events are forwarded.
   * The other operations are never checked.
   * @default 'drop'
   * @example bots: (ua) => !ua.includes('AcmeMonitor') && isCrawler(ua) // let your own monitor through
   */
  bots?: 'drop' | 'forward' | ((userAgent: string) => boolean);
  /**
   * The `fetch` used for upstream calls.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Receives one entry per request and per upstream problem. Entries never carry keys or bodies.
   * @default no logging
   */
  logger?: ProxyLogger;
}
