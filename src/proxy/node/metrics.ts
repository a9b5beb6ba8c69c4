// Prometheus metrics for the proxy on Node, built from its per-request log entries. prom-client
// writes the exposition format (escaping, histogram buckets, HELP/TYPE lines), so we don't.
import { Counter, Histogram, Registry } from 'prom-client';
import { DROP_REASONS } from '../pipeline/drop-reasons';
import { DELAY_BUCKETS } from '../pipeline/event-delay';
import { STORE_ERROR_KINDS } from '../stores/store-error';
import type { ProxyLogEntry, ProxyLogger } from '../types';

export interface MetricsOptions {
  /**
   * Where the metrics are registered; give your app's registry to expose them with your own.
   * @default a new Registry
   */
  registry?: Registry;
  /**
   * Prefix of every metric name.
   * @default 'engage_proxy_'
   */
  prefix?: string;
}

export interface ProxyMetrics {
  /** Pass as (or call from) the proxy's `logger`: one entry per request feeds every metric. */
  logger: ProxyLogger;
  /** Counts a request ended by the server's deadline (pass as `serve`'s `onRequestTimeout`). */
  requestTimedOut(): void;
  registry: Registry;
  /** `Content-Type` of `render()`'s text. */
  contentType: string;
  /** The Prometheus text exposition of `registry`. */
  render(): Promise<string>;
}

// Upstream calls take milliseconds to a few retries of 10 s; the buckets cover both ends.
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Device clocks: right (within a request's flight), a minute or ten off by hand, an hour or a day
// (a zone set wrong, a date typed wrong), years (a dead clock battery): either way.
const CLOCK_STEPS = [2, 10, 60, 600, 3_600, 86_400, 31_536_000];
const CLOCK_BUCKETS = [...CLOCK_STEPS.map((step) => -step).reverse(), 0, ...CLOCK_STEPS];

/**
 * Counters and histograms of the proxy's traffic: requests by operation and status, events
 * forwarded, deduplicated and from crawlers, upstream latency, retries, rate-limit refusals, upstream overload
 * refusals, retries the retry budget withheld and store failures; accepted deliveries, the loss
 * reports and late deliveries among them, and the events the reports say were dropped.
 *
 * @example
 * const metrics = createMetrics();
 * const proxy = createProxy({ ...options, logger: metrics.logger });
 * // GET /metrics → new Response(await metrics.render(), { headers: { 'content-type': metrics.contentType } })
 */
export function createMetrics(options: MetricsOptions = {}): ProxyMetrics {
  const registry = options.registry ?? new Registry();
  const prefix = options.prefix ?? 'engage_proxy_';
  const registers = [registry];
  const requests = new Counter({
    name: `${prefix}requests_total`,
    help: 'Requests answered, by operation (none = no route) and HTTP status.',
    labelNames: ['operation', 'status'] as const,
    registers,
  });
  const forwarded = new Counter({
    name: `${prefix}events_forwarded_total`,
    help: 'Units the upstream accepted with a 2xx: events for experienceEvents and events, else requests.',
    labelNames: ['operation'] as const,
    registers,
  });
  const deduplicated = new Counter({
    name: `${prefix}events_deduplicated_total`,
    help: 'Experience events answered from the UUID memory instead of being forwarded again.',
    registers,
  });
  const upstream = new Histogram({
    name: `${prefix}upstream_duration_seconds`,
    help: 'Time spent calling the upstream per request, every attempt and backoff included.',
    labelNames: ['operation'] as const,
    buckets: UPSTREAM_BUCKETS,
    registers,
  });
  const retries = new Counter({
    name: `${prefix}upstream_retries_total`,
    help: 'Upstream attempts beyond the first (experience events after a network error, timeout or 5xx).',
    labelNames: ['operation'] as const,
    registers,
  });
  const deviceClock = new Histogram({
    name: `${prefix}device_clock_offset_seconds`,
    help: 'How far a tracker’s device clock was ahead of the proxy’s (negative: behind), per experience-events request that stated its send time; events are dated by the proxy’s clock.',
    buckets: CLOCK_BUCKETS,
    registers,
  });
  const limited = new Counter({
    name: `${prefix}rate_limited_total`,
    help: 'Requests refused with 429 by the proxy’s own budgets, by budget (client or workspace).',
    labelNames: ['operation', 'budget'] as const,
    registers,
  });
  const overloaded = new Counter({
    name: `${prefix}upstream_overloaded_total`,
    help: 'Requests refused 503 with Retry-After because their upstream origin had no free slot: full (every slot and queue place taken, answered at once) or waited (queued past the upstream timeout). See ENGAGE_UPSTREAM_CONCURRENCY and ENGAGE_UPSTREAM_QUEUE.',
    labelNames: ['operation', 'reason'] as const,
    registers,
  });
  const budgetSpent = new Counter({
    name: `${prefix}upstream_retry_budget_spent_total`,
    help: 'Requests whose upstream failure was passed on without the retry that was due, because the origin’s retry budget (ENGAGE_RETRY_BUDGET) was spent.',
    labelNames: ['operation'] as const,
    registers,
  });
  const storeErrors = new Counter({
    name: `${prefix}store_errors_total`,
    help: 'Store operations that failed (the request was served without limits or UUID memory).',
    registers,
  });
  const storeErrorKinds = new Counter({
    name: `${prefix}store_errors_by_kind_total`,
    help: 'Store operations that failed, by kind: redirection (MOVED, ASK, CROSSSLOT: a cluster read through a single-node client, slots moving), timeout, connection (a node down or refusing, a wrong password, a shard without a master), script, other.',
    labelNames: ['kind'] as const,
    registers,
  });
  const crawlers = new Counter({
    name: `${prefix}bot_events_total`,
    help: 'Experience events from crawlers and automation (the bots option, ENGAGE_BOTS), answered as delivered and not forwarded.',
    registers,
  });
  const timeouts = new Counter({
    name: `${prefix}request_timeouts_total`,
    help: 'Requests ended because their headers or body did not all arrive within the deadline (ENGAGE_REQUEST_TIMEOUT_MS), answered 408 where still possible.',
    registers,
  });
  const clientDropped = new Counter({
    name: `${prefix}client_dropped_events_total`,
    help: 'Experience events the trackers dropped, by reason, as their loss reports stated (each report counted once, on an accepted delivery, at most 10,000 events, within its address’s reports budget): expired (older than maxEventAge), refused (an answer ended its delivery), queue_full, consent_overflow (beyond the bound held while consent was pending), invalid (refused at record time), destroyed (recorded after destroy()), other. A sum for the dashboard; alerts read engage_proxy_loss_reports_total.',
    labelNames: ['reason'] as const,
    registers,
  });
  const deliveries = new Counter({
    name: `${prefix}deliveries_total`,
    help: 'Experience-event delivery requests accepted: answered 2xx (forwarded and accepted upstream, or answered from the UUID memory), crawlers’ excluded. What loss reports and late deliveries are a share of.',
    registers,
  });
  const lossReports = new Counter({
    name: `${prefix}loss_reports_total`,
    help: 'Accepted deliveries whose loss report was counted, by each reason it stated (a report counted once, within its client address’s reports budget: ENGAGE_RATE_LIMITS experienceEvents.reports). What EngageEventsLost reads: how many browsers say they lose events, not how many they say.',
    labelNames: ['reason'] as const,
    registers,
  });
  const lateDeliveries = new Counter({
    name: `${prefix}late_deliveries_total`,
    help: 'Accepted deliveries whose oldest event was more than an hour late (within the client address’s reports budget). What EngageEventsLate reads.',
    registers,
  });
  const overBudget = new Counter({
    name: `${prefix}reports_over_budget_total`,
    help: 'Statements of accepted deliveries not counted because their client address’s reports budget was spent: kind loss (a loss report) or late (a late delivery). Their events were forwarded as usual.',
    labelNames: ['kind'] as const,
    registers,
  });
  const eventDelay = new Histogram({
    name: `${prefix}event_delay_seconds`,
    help: 'Each accepted experience event’s delay: from its time, as the proxy dated it (device clock corrected), to the upstream’s 2xx. Next-visit and Background Sync deliveries are the long tail.',
    buckets: DELAY_BUCKETS,
    registers,
  });
  for (const reason of DROP_REASONS) {
    clientDropped.inc({ reason }, 0);
    lossReports.inc({ reason }, 0);
  }
  deliveries.inc(0);
  lateDeliveries.inc(0);
  for (const kind of ['loss', 'late']) overBudget.inc({ kind }, 0);
  timeouts.inc(0);
  // Created at 0 so a dashboard shows the series before the first failure.
  deduplicated.inc(0);
  storeErrors.inc(0);
  crawlers.inc(0);
  for (const kind of STORE_ERROR_KINDS) storeErrorKinds.inc({ kind }, 0);

  const logger = (entry: ProxyLogEntry): void => {
    const operation = entry.operation ?? 'none';
    if (entry.status !== undefined) requests.inc({ operation, status: String(entry.status) });
    if (entry.forwarded) forwarded.inc({ operation }, entry.forwarded);
    if (entry.deduplicated) deduplicated.inc(entry.deduplicated);
    if (entry.crawlerEvents) crawlers.inc(entry.crawlerEvents);
    if (entry.upstreamMs !== undefined) upstream.observe({ operation }, entry.upstreamMs / 1000);
    if (entry.attempts !== undefined && entry.attempts > 1) retries.inc({ operation }, entry.attempts - 1);
    if (entry.deviceClockMs !== undefined) deviceClock.observe(entry.deviceClockMs / 1000);
    if (entry.delivered) deliveries.inc();
    if (entry.clientDropped) {
      for (const [reason, count] of Object.entries(entry.clientDropped)) {
        clientDropped.inc({ reason }, count);
        if (count > 0) lossReports.inc({ reason });
      }
    }
    if (entry.lateDelivery) lateDeliveries.inc();
    if (entry.overBudget) for (const kind of entry.overBudget) overBudget.inc({ kind });
    if (entry.eventDelaySeconds) for (const delay of entry.eventDelaySeconds) eventDelay.observe(delay);
    if (entry.limited) limited.inc({ operation, budget: entry.limited });
    if (entry.overloaded) overloaded.inc({ operation, reason: entry.overloaded });
    if (entry.retryBudgetSpent) budgetSpent.inc({ operation });
    if (entry.storeErrors) storeErrors.inc(entry.storeErrors);
    if (entry.storeErrorKinds) for (const [kind, count] of Object.entries(entry.storeErrorKinds)) storeErrorKinds.inc({ kind }, count);
  };
  return { logger, requestTimedOut: () => timeouts.inc(), registry, contentType: registry.contentType, render: () => registry.metrics() };
}
