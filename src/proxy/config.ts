import { OPERATIONS } from '../upstream/operations';
import { Admission } from './pipeline/admission';
import { trustMatcher } from './pipeline/client-address';
import { isCrawler } from './pipeline/crawlers';
import { isObject } from './pipeline/customer';
import { eventKeyer } from './pipeline/event-keys';
import { MAX_RETRY_DELAY_MS } from './pipeline/forward';
import { RetryBudget } from './pipeline/retry-budget';
import { createMemoryStore } from './stores/memory-store';
import { OPERATION_NAMES, UPSTREAM_ORIGIN, type Route } from './pipeline/routes';
import type { Operation, ProxyOptions, ProxyStore } from './types';

/** Operations that need the integrator's `authorize` hook. */
export const ADMIN: ReadonlySet<Operation> = new Set(['campaignUpdate', 'fileImportStatus']);
const KIB = 1024;
const DEFAULT_MAX_BODY: Readonly<Record<Operation, number>> = {
  // The tracker keeps a request near 64 KB; 256 KiB leaves room for 100 elements of big contexts.
  experienceEvents: 256 * KIB,
  users: 128 * KIB,
  events: 128 * KIB,
  campaignUpdate: 256 * KIB,
  fileImportStatus: 16 * KIB,
};
/**
 * Default bound on concurrent upstream requests per upstream origin, per process. One core serves
 * about 5,000–13,000 requests/s (docs/performance.md); an upstream across the internet answers in
 * tens of ms; by Little's law 10,000/s × 50 ms = 500 in flight. 512 serves that core at a 50 ms
 * upstream and refuses nothing until the upstream is several times slower than that.
 */
export const DEFAULT_UPSTREAM_CONCURRENCY = 512;
/** Default bound on requests waiting for one of those slots: one more round of them. */
export const DEFAULT_UPSTREAM_QUEUE = 512;
/** Default share of requests the proxy may retry upstream (Finagle's and Envoy's 20 %). */
export const DEFAULT_RETRY_BUDGET = 0.2;
/** Retries allowed per 10 s whatever the traffic, so a quiet proxy still retries its rare failure. */
const RETRY_BUDGET_FLOOR = 10;

/** One upstream origin's bounds: its admission and its retry budget, shared by both edges. */
export interface UpstreamBounds {
  admission: Admission;
  budget: RetryBudget;
}

/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Header values we build from configuration must not be able to start a new header line.
export const SAFE_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Options checked and resolved once, at start-up. */
export interface Config {
  workspaceId: string;
  origins: Record<Route['origin'], string | undefined>;
  basePath: string;
  allowedOrigins: ReadonlySet<string>;
  allowCredentials: boolean;
  corsMaxAge: string;
  allowHeaders: string;
  enabled: ReadonlySet<Operation>;
  options: ProxyOptions;
  maxBody: Record<Operation, number>;
  store: ProxyStore;
  trusted: (address: string) => boolean;
  dedupWindowMs: number;
  /** An event UUID's store key (pipeline/event-keys.ts), tags made once for the workspace. */
  eventKey: (uuid: string) => string;
  storeFailure: 'forward' | 'retry';
  claimWaitMs: number;
  /** Lifetime of a claim: the whole forward, every attempt and backoff included, plus a margin. */
  claimTtlMs: number;
  retries: number;
  upstreamTimeoutMs: number;
  retryBaseDelayMs: number;
  /** Admission and retry budget per upstream origin (scheme, host, port), by route origin. */
  upstreams: Record<Route['origin'], UpstreamBounds | undefined>;
  upstreamConcurrency: number;
  fetch: typeof fetch;
  /** Whether a user agent is a crawler's, whose experience events are answered and not forwarded; undefined with `bots: 'forward'`. */
  crawler: ((userAgent: string) => boolean) | undefined;
}

/** Checks and resolves the options; throws a TypeError naming the option (never a key). */
export function configure(options: ProxyOptions): Config {
  const fail = (message: string): never => {
    throw new TypeError(`createProxy: ${message}`);
  };
  if (!isObject(options)) fail('options must be an object');
  if (typeof options.workspaceId !== 'string' || !/^[\w.-]{1,128}$/.test(options.workspaceId)) {
    fail('workspaceId must be a non-empty string of letters, digits, _ . -');
  }
  if (typeof options.keys !== 'function' && !isObject(options.keys)) fail('keys must be an object or a function returning one');
  const operations = options.operations ?? ['experienceEvents'];
  if (!Array.isArray(operations)) fail('operations must be an array');
  for (const operation of operations) {
    if (!OPERATION_NAMES.includes(operation)) fail(`operations: '${String(operation)}' is not one of ${OPERATION_NAMES.join(', ')}`);
    if (ADMIN.has(operation) && typeof options.authorize !== 'function') {
      fail(`operations: '${operation}' is administrative and needs an authorize(request, operation) hook`);
    }
  }
  const origins: Config['origins'] = { baseUrl: undefined, sdkUrl: undefined, fileImportsUrl: undefined };
  for (const name of ['baseUrl', 'sdkUrl', 'fileImportsUrl'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash) {
      fail(`${name} must be an http(s) URL without query or fragment (got '${value}')`);
    }
    origins[name] = value.replace(/\/+$/, '');
  }
  for (const operation of operations) {
    const origin = UPSTREAM_ORIGIN[operation];
    const tile = OPERATIONS[operation].keyTile;
    if (!origins[origin]) fail(`${origin} is required for the '${operation}' operation`);
    if (isObject(options.keys)) {
      const key = options.keys[tile];
      if (typeof key !== 'string' || key === '') fail(`keys.${tile} is required for the '${operation}' operation`);
      // Named, never shown: the message must not carry the key.
      else if (!SAFE_HEADER_VALUE.test(key)) fail(`keys.${tile} contains characters that cannot go in a header (CR, LF or other control characters)`);
    }
  }
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  if (basePath && !/^\/[\w./~-]*$/.test(basePath)) fail(`basePath must start with '/' (got '${options.basePath}')`);
  const allowedOrigins = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    let parsed: string | undefined;
    try {
      parsed = new URL(origin).origin;
    } catch {
      // reported below
    }
    if (!parsed || parsed === 'null') fail(`allowedOrigins: '${origin}' is not an origin like https://www.example.com`);
    allowedOrigins.add(parsed!);
  }
  const given = options.allowedHeaders ?? [];
  if (!Array.isArray(given)) fail('allowedHeaders must be an array of header names');
  for (const name of given) {
    if (typeof name !== 'string' || !HEADER_NAME.test(name)) fail(`allowedHeaders: '${String(name)}' is not a header name`);
  }
  // Content-Type is always allowed: every operation requires it (415 otherwise), so a list that
  // forgot it would make every cross-origin JSON request fail its preflight.
  const allowHeaders = given.some((name) => name.toLowerCase() === 'content-type') ? given : ['Content-Type', ...given];
  const maxBody = { ...DEFAULT_MAX_BODY };
  if (typeof options.maxBodyBytes === 'number') {
    for (const operation of OPERATION_NAMES) maxBody[operation] = options.maxBodyBytes;
  } else if (options.maxBodyBytes) {
    Object.assign(maxBody, options.maxBodyBytes);
  }
  for (const operation of OPERATION_NAMES) {
    if (!(maxBody[operation] > 0)) fail(`maxBodyBytes for '${operation}' must be a positive number`);
  }
  const storeFailure = options.storeFailure ?? 'forward';
  if (storeFailure !== 'forward' && storeFailure !== 'retry') fail(`storeFailure must be 'forward' or 'retry' (got '${String(storeFailure)}')`);
  const retries = Math.max(0, Math.floor(options.retries ?? 2));
  const upstreamTimeoutMs = Math.max(0, options.upstreamTimeoutMs ?? 10_000);
  const upstreamConcurrency = options.upstreamConcurrency ?? DEFAULT_UPSTREAM_CONCURRENCY;
  if (!Number.isInteger(upstreamConcurrency) || upstreamConcurrency < 1) fail(`upstreamConcurrency must be a whole number from 1 (got ${upstreamConcurrency})`);
  const upstreamQueue = options.upstreamQueue ?? DEFAULT_UPSTREAM_QUEUE;
  if (!Number.isInteger(upstreamQueue) || upstreamQueue < 0) fail(`upstreamQueue must be a whole number from 0 (got ${upstreamQueue})`);
  const retryBudget = options.retryBudget ?? DEFAULT_RETRY_BUDGET;
  if (typeof retryBudget !== 'number' || !(retryBudget >= 0 && retryBudget <= 1)) fail(`retryBudget must be a share from 0 to 1 (got ${retryBudget})`);
  const bots = options.bots ?? 'drop';
  if (bots !== 'drop' && bots !== 'forward' && typeof bots !== 'function')
    fail(`bots must be 'drop', 'forward' or a function (userAgent) => boolean (got '${String(bots)}')`);
  // Per origin, not per route: two routes on one host share its connections and its bounds.
  const byOrigin = new Map<string, UpstreamBounds>();
  const upstreams: Config['upstreams'] = { baseUrl: undefined, sdkUrl: undefined, fileImportsUrl: undefined };
  for (const name of ['baseUrl', 'sdkUrl', 'fileImportsUrl'] as const) {
    if (!origins[name]) continue;
    const origin = new URL(origins[name]).origin;
    if (!byOrigin.has(origin)) {
      // A waiter is refused after one upstream timeout: a slot turns over within that unless
      // the upstream hangs, and its body should not sit in memory longer.
      byOrigin.set(origin, { admission: new Admission(upstreamConcurrency, upstreamQueue, upstreamTimeoutMs), budget: new RetryBudget(retryBudget, RETRY_BUDGET_FLOOR) });
    }
    upstreams[name] = byOrigin.get(origin);
  }
  return {
    workspaceId: options.workspaceId,
    origins,
    basePath,
    allowedOrigins,
    allowCredentials: options.allowCredentials ?? false,
    corsMaxAge: String(Math.max(0, Math.floor(options.corsMaxAgeSeconds ?? 7200))),
    allowHeaders: allowHeaders.join(', '),
    enabled: new Set(operations),
    options,
    maxBody,
    store: options.store ?? createMemoryStore(),
    trusted: trustMatcher(options.trustedProxies ?? []),
    dedupWindowMs: Math.max(0, options.dedupWindowMs ?? 86_400_000),
    eventKey: eventKeyer(options.workspaceId),
    storeFailure,
    claimWaitMs: Math.max(0, options.claimWaitMs ?? 3_000),
    claimTtlMs: (retries + 1) * upstreamTimeoutMs + retries * MAX_RETRY_DELAY_MS + 5_000,
    retries,
    upstreamTimeoutMs,
    retryBaseDelayMs: Math.max(0, options.retryBaseDelayMs ?? 200),
    upstreams,
    upstreamConcurrency,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    crawler: bots === 'forward' ? undefined : bots === 'drop' ? isCrawler : bots,
  };
}
