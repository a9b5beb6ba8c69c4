// The proxy's one pipeline: every request, from either edge, passes these stages in order —
// route, CORS, method and operation checks, read, validate, key, limits and claims, forward,
// answer. Each stage either answers (a refusal, or the upstream's answer) or hands on.
import type { Problem } from '../../upstream/problem';
import { ADMIN, SAFE_HEADER_VALUE, type Config } from '../config';
import type { Operation, ProxyKeys, ProxyLogEntry } from '../types';
import { json, isSuccess, passOn, refuse } from './answer';
import { basicAuth } from './basic-auth';
import { Claims } from './claims';
import { forwardedFor } from './client-address';
import { corsHeaders, refusedOrigin } from './cors';
import { loggedUserAgent } from './crawlers';
import { bindCustomer, isObject } from './customer';
import { correctEventTimes, deviceClockOffset } from './device-clock';
import { firstSight, readClientReport } from './client-report';
import { eventDelays, LATE_SECONDS } from './event-delay';
import { requestId, type Refusal } from './error-response';
import { eventUuids, onlyEvents } from './event-uuids';
import type { Answer, Exchange, Pipeline, Send } from './exchange';
import { forward, sleep, type ForwardResult } from './forward';
import { charge, DEFAULT_RATE_LIMITS, overLimit, release, type LimitCheck } from './rate-limit';
import { matchRoute, type Route } from './routes';
import type { Refused } from './admission';
import { validateBody } from './validate';
import { storeErrorHint, storeErrorKind } from '../stores/store-error';

/**
 * `Retry-After` of a 503 the `retry` store policy answers: about a failover (a replica is promoted
 * after the cluster's node timeout, seconds), and the tracker's own backoff adds to it.
 */
const STORE_RETRY_AFTER_SECONDS = 2;

/**
 * `Retry-After` of a 503 for an upstream without a free slot, drawn from 2–10 s: the refused
 * browsers come back spread over that, not as one wave when the first slots free up.
 */
export function overloadRetryAfter(random = Math.random): number {
  return 2 + Math.floor(random() * 9);
}

/** The stages over `send`, with the log entry and the last-resort guard around them. */
export function createPipeline(config: Config, send: Send): Pipeline {
  const { logger } = config.options;
  return async (exchange) => {
    const started = Date.now();
    const log: ProxyLogEntry = { level: 'info', message: 'request', method: exchange.method, path: exchange.path };
    let answer: Answer;
    try {
      answer = await handle(config, send, exchange, log, started);
      // A loss report, and lateness, count only on an accepted delivery: the tracker clears its
      // report then, and a refused or failed request states nothing. A crawler's is not a visitor's.
      if (log.operation === 'experienceEvents' && log.crawler === undefined && answer.status >= 200 && answer.status < 300) {
        log.delivered = true;
        await countStatements(config, exchange.query, log);
      }
    } catch {
      // Never let an exception (ours or a hook's) take the server down or say anything internal.
      log.level = 'error';
      log.message = 'unexpected error';
      answer = refuse(log.operation, { status: 500, message: 'Unexpected error in the proxy' });
    }
    if (logger) {
      log.status = answer.status;
      log.durationMs = Date.now() - started;
      try {
        logger(log);
      } catch {
        // A broken logger must not break requests.
      }
    }
    return answer;
  };
}

async function handle(config: Config, send: Send, exchange: Exchange, log: ProxyLogEntry, received: number): Promise<Answer> {
  // Route: outside basePath, or no operation there → 404.
  const { basePath } = config;
  const { path } = exchange;
  if (basePath && path !== basePath && !path.startsWith(`${basePath}/`)) {
    return refuse(undefined, { status: 404, message: 'No such route' });
  }
  const route = matchRoute(path.slice(basePath.length), config.workspaceId);
  if (!route) return refuse(undefined, { status: 404, message: 'No such route' });
  const operation = route.operation;
  log.operation = operation;

  // CORS first: a refused origin learns nothing else and reaches nothing.
  const cors = corsHeaders(config, exchange);
  if (!cors) {
    // Said in the log, with the origin seen and the setting that allows it: a dev server's proxy
    // with `changeOrigin` (Host rewritten, Origin kept) was refused here with nothing said (issue 43).
    log.level = 'warn';
    log.message = refusedOrigin(exchange);
    return refuse(operation, { status: 403, message: 'Origin not allowed' });
  }
  const refuseWith = (refusal: Refusal | Problem) => refuse(operation, refusal, cors);

  if (exchange.method === 'OPTIONS') {
    if (!config.enabled.has(operation)) return refuseWith({ status: 403, message: `Operation '${operation}' is not enabled on this proxy` });
    const allow = `${route.method}, OPTIONS`;
    return {
      status: 204,
      headers: {
        ...cors,
        'access-control-allow-methods': allow,
        'access-control-allow-headers': config.allowHeaders,
        'access-control-max-age': config.corsMaxAge,
        allow,
      },
      body: null,
    };
  }
  if (exchange.method !== route.method) {
    return refuseWith({ status: 405, message: `Use ${route.method}`, headers: { allow: `${route.method}, OPTIONS` } });
  }
  if (!config.enabled.has(operation)) {
    return refuseWith({ status: 403, message: `Operation '${operation}' is not enabled on this proxy` });
  }
  if (route.upstreamPath === undefined) {
    return refuseWith({ status: 400, field: 'campaign_id', message: 'campaign_id must be 1-128 characters of A-Z a-z 0-9 _ -' });
  }
  if (ADMIN.has(operation)) {
    const allowed = await config.options.authorize!(exchange.request(), operation);
    if (allowed !== true) return refuseWith({ status: 403, message: `Not authorized for '${operation}'` });
  }

  // A brownout's excess is refused before its body is read: no memory, parsing or store call
  // for a request that could only wait in a full queue.
  const { admission } = config.upstreams[route.origin]!;
  if (admission.full) return overloaded(log, 'full', refuseWith);

  // Read: JSON only, bounded.
  const contentType = (exchange.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  // text/plain too for experience events: a beacon-style request needs no preflight, and the
  // Origin check above still applies to it.
  if (contentType !== 'application/json' && !(operation === 'experienceEvents' && contentType === 'text/plain')) {
    return refuseWith({ status: 415, message: 'Content-Type must be application/json' });
  }
  const read = await exchange.readBody(config.maxBody[operation]);
  if ('tooLarge' in read) {
    return refuseWith({ status: 413, message: `Payload size exceeds ${config.maxBody[operation]} bytes` });
  }
  // The Node edge's deadline (serve's requestTimeoutMs) ended it; Node already answered 408.
  if ('timedOut' in read) return refuseWith({ status: 408, message: 'The request body did not arrive in time' });
  if ('failed' in read) return refuseWith({ status: 400, message: 'Request body could not be read', type: 'Malformed JSON' });
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    return refuseWith({ status: 400, field: 'body', message: 'Body is not valid JSON', type: 'Malformed JSON' });
  }

  // A crawler's render is not an impression (crawlers.ts): checked before the session, which a
  // crawler has none of.
  const crawler = operation === 'experienceEvents' && config.crawler && crawlerAgent(config.crawler, exchange, log);

  // Validate: the session's customer, then the upstream's own rules.
  let changed = false;
  if (config.options.resolveCustomer && !crawler && (operation === 'experienceEvents' || operation === 'users' || operation === 'events')) {
    const customerId = await config.options.resolveCustomer(exchange.request());
    if (typeof customerId !== 'string' || customerId === '') {
      return refuseWith({ status: 401, message: 'No session: the customer cannot be identified', type: 'Authentication required' });
    }
    const binding = bindCustomer(operation, body, customerId);
    if (!binding.ok) {
      return refuseWith({ status: 403, field: binding.field, message: `${binding.field} does not match the signed-in customer` });
    }
    changed = binding.changed;
  }
  if (operation === 'experienceEvents') {
    // Dated by our clock, not the device's: corrected by the request's send time, never in the future.
    const offset = deviceClockOffset(exchange.query, received);
    if (offset !== undefined) {
      log.deviceClockMs = offset;
      // Every answer from here on says what was measured (an inspector shows it).
      cors['x-engage-device-clock'] = String(offset);
    }
    if (correctEventTimes(body, offset, received)) changed = true;
  }
  const problem = validateBody(operation, body, config.options.identityResolution);
  if (problem) return refuseWith(problem);
  // A crawler's events: answered as delivered (its tracker keeps and retries nothing), counted,
  // never forwarded, and before any key, budget or claim is touched.
  if (crawler) {
    log.crawlerEvents = eventUuids(body).length;
    log.message = 'crawler: events answered, not forwarded';
    return json(200, { status: 'success', message: 'Not forwarded: the user agent is a crawler', req_id: requestId() }, { ...cors, 'x-engage-crawler': 'dropped' });
  }

  // Key, before any budget is spent: a misconfigured key must not cost anyone quota.
  const key = await loadKey(config, route.tile, log);
  if (key === undefined) return refuseWith({ status: 500, message: 'The proxy is not configured for this operation' });

  // Admission, before any budget or claim is taken: a request refused here has nothing to give
  // back, and one waiting holds nothing another request (a re-send from another tab) needs.
  const admitted = await admission.acquire();
  if (admitted !== true) return overloaded(log, admitted, refuseWith);
  try {
    return await limitAndForward(config, send, exchange, log, { route, operation, cors, refuseWith, body, text: read.text, changed, key });
  } finally {
    admission.release();
  }
}

/** What the stages before admission established about the request. */
interface Admitted {
  route: Route;
  operation: Operation;
  cors: Record<string, string>;
  refuseWith: (refusal: Refusal | Problem) => Answer;
  body: unknown;
  /** The body as it came. */
  text: string;
  /** Whether the customer binding changed the body (then it is sent re-serialized). */
  changed: boolean;
  key: string;
}

/** Limits, claims, forward and answer: the stages run while holding an upstream slot. */
async function limitAndForward(config: Config, send: Send, exchange: Exchange, log: ProxyLogEntry, admitted: Admitted): Promise<Answer> {
  const { route, operation, cors, refuseWith, body, changed, key } = admitted;
  const read = { text: admitted.text };
  // Limits and claims: the store's only calls, in one tick (one round trip to a pipelining store).
  const peer = forwardedFor(exchange.clientAddress, exchange.header('x-forwarded-for'), config.trusted);
  log.clientAddress = peer.client;
  const limits = config.options.rateLimits?.[operation] ?? DEFAULT_RATE_LIMITS[operation];
  // Experience events' UUIDs, walked once: they are both the units and what is claimed.
  const uuids = operation === 'experienceEvents' ? eventUuids(body) : undefined;
  const units = uuids ? uuids.length : countUnits(operation, body);
  const budget =
    (scope: LimitCheck['scope'], name: string) =>
    (rule: LimitCheck['rule']): LimitCheck => ({ scope, name, amount: units, rule });
  const checks = [
    ...(limits.client ?? []).map(budget('client', `rl:${config.workspaceId}:${operation}:client:${peer.client}`)),
    ...(limits.workspace ?? []).map(budget('workspace', `rl:${config.workspaceId}:${operation}:workspace`)),
  ];
  const claims =
    operation === 'experienceEvents' && config.dedupWindowMs > 0
      ? new Claims(
          config.store,
          config.eventKey,
          uuids!,
          { claimMs: config.claimTtlMs, acceptedMs: config.dedupWindowMs },
          (message, error) => storeFailed(log, message, error),
          config.storeFailure,
        )
      : undefined;
  const limitedAt = Date.now();
  const [totals] = await Promise.all([charged(config, checks, limitedAt, log), claims?.take()]);
  if (claims?.failed) {
    // The `retry` policy: nothing forwarded without a claim; the tracker keeps the events and
    // re-sends them once the store (a shard's new master) can claim again.
    if (totals) await giveBack(config, checks, limitedAt, log);
    return refuseWith({ status: 503, message: 'The proxy cannot claim these events right now; retry', retryAfter: STORE_RETRY_AFTER_SECONDS });
  }
  // The workspace pays only for events this request may forward, not those accepted already.
  const refused = totals && overLimit(checks, totals, limitedAt, (check) => (check.scope === 'workspace' ? (claims?.accepted.size ?? 0) : 0));
  if (refused) {
    await Promise.all([claims?.release(), giveBack(config, checks, limitedAt, log)]);
    log.limited = refused.check.scope === 'workspace' ? 'workspace' : 'client';
    const message = refused.check.scope === 'client' ? 'Too many requests from this client' : 'Workspace rate limit reached';
    return refuseWith({ status: 429, message, retryAfter: refused.retryAfter });
  }

  // Forward: the one place a request leaves for the upstream.
  const headers: Record<string, string> = {
    authorization: basicAuth(config.workspaceId, key),
    'svc-appkey': config.workspaceId,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (peer.chain) headers['x-forwarded-for'] = peer.chain;
  // No client signal: finishing a forward the page stopped waiting for lets the memory answer
  // its re-send from the next page.
  const upstream = (text: string) =>
    forward(
      send,
      config.origins[route.origin]!,
      route.upstreamPath!,
      { method: route.method, headers, body: text },
      {
        // Only experience events are idempotent (the upstream dedups on svc_event_uuid).
        retries: operation === 'experienceEvents' ? config.retries : 0,
        timeoutMs: config.upstreamTimeoutMs,
        baseDelayMs: config.retryBaseDelayMs,
        budget: config.upstreams[route.origin]!.budget,
      },
    ).then((result) => {
      if (result.budgetSpent) log.retryBudgetSpent = true;
      return result;
    });
  const upstreamStarted = Date.now();
  let result: ForwardResult | undefined;
  if (!claims) {
    result = await upstream(changed ? JSON.stringify(body) : read.text);
    log.attempts = result.attempts;
    if (isSuccess(result)) log.forwarded = units;
    if (isSuccess(result) && operation === 'experienceEvents') log.eventDelaySeconds = eventDelays(body, Date.now());
  } else {
    let attempted = 0;
    log.forwarded = 0;
    // Forward what this request holds, then wait (bounded) for what others are forwarding:
    // accepted there → left out; released → claimed and forwarded here. Never wait holding a
    // claim, so two requests waiting on each other's events cannot deadlock.
    const deadline = Date.now() + config.claimWaitMs;
    for (let pause = 20; ; pause = Math.min(pause * 2, 200)) {
      if (claims.mine.length > 0) {
        // Holding every event (the usual case), the body goes as it came; else only its share.
        const part = claims.mine.length === units ? { body, count: units } : onlyEvents(body as Record<string, unknown>, new Set(claims.mine));
        attempted += part.count;
        result = await upstream(part.count === units && !changed ? read.text : JSON.stringify(part.body));
        log.attempts = (log.attempts ?? 0) + result.attempts;
        if (!isSuccess(result)) {
          await claims.release();
          break;
        }
        log.forwarded += part.count;
        log.eventDelaySeconds = eventDelays(part.body, Date.now(), log.eventDelaySeconds);
        // Until it lands, the claims stand: a concurrent re-send waits rather than forwards.
        const committing = claims.commit();
        if (exchange.waitUntil) exchange.waitUntil(committing);
        else await committing;
      }
      if (claims.pending.length === 0 || claims.failed || Date.now() >= deadline) break;
      await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
      await claims.take();
    }
    if (attempted > 0) log.upstreamMs = Date.now() - upstreamStarted;
    const deduplicated = units - attempted - claims.pending.length;
    if (deduplicated > 0) log.deduplicated = deduplicated;
    // The workspace budget pays for what reached the upstream, not for what others forwarded.
    const unused = units - attempted;
    const workspaceChecks = checks.filter((check) => check.scope === 'workspace').map((check) => ({ ...check, amount: unused }));
    if (unused > 0) await giveBack(config, workspaceChecks, limitedAt, log);
    const dedupHeader: Record<string, string> = deduplicated > 0 ? { 'x-engage-deduplicated': String(deduplicated) } : {};
    if (claims.pending.length > 0 && (!result || isSuccess(result))) {
      // Never a 2xx for an event the upstream has not accepted: the tracker re-sends it later.
      if (claims.failed) {
        return refuseWith({ status: 503, message: 'The proxy cannot claim these events right now; retry', retryAfter: STORE_RETRY_AFTER_SECONDS, headers: dedupHeader });
      }
      log.level = 'warn';
      log.message = `${claims.pending.length} event(s) still being forwarded by another request`;
      return refuseWith({ status: 503, message: 'Some events are being forwarded by another request; retry', retryAfter: 1, headers: dedupHeader });
    }
    if (!result) {
      return json(200, { status: 'success', message: 'Events already accepted', req_id: requestId() }, { ...cors, ...dedupHeader });
    }
  }

  // Answer: the upstream's own, secrets redacted.
  log.upstreamMs ??= Date.now() - upstreamStarted;
  return passOn(result, { log, cors, refuseWith, secrets: [key, headers.authorization!.slice('Basic '.length)], deduplicated: log.deduplicated });
}

/** Whether `isCrawler` says the request's user agent is a crawler's (then logged); false for a person's. */
function crawlerAgent(isCrawler: (userAgent: string) => boolean, exchange: Exchange, log: ProxyLogEntry): boolean {
  const userAgent = exchange.header('user-agent') ?? '';
  try {
    if (!isCrawler(userAgent)) return false;
  } catch {
    // A site's own rule that throws must not cost a person's events: they are forwarded.
    log.level = 'warn';
    log.message = 'bots() threw: events forwarded';
    return false;
  }
  log.crawler = loggedUserAgent(userAgent);
  return true;
}

/** The 503 for a request the upstream origin's admission refused; the tracker keeps its events. */
function overloaded(log: ProxyLogEntry, why: Refused, refuseWith: (refusal: Refusal) => Answer): Answer {
  log.level = 'warn';
  log.message = why === 'full' ? 'upstream overloaded: every slot and queue place taken' : 'upstream overloaded: no slot within the wait';
  log.overloaded = why;
  return refuseWith({ status: 503, message: 'The upstream is busy; retry later', retryAfter: overloadRetryAfter() });
}

/** The key for `tile`, or undefined (logged by tile name only) when there is no usable one. */
async function loadKey(config: Config, tile: keyof ProxyKeys, log: ProxyLogEntry): Promise<string | undefined> {
  let keys: ProxyKeys;
  try {
    keys = typeof config.options.keys === 'function' ? await config.options.keys() : config.options.keys;
  } catch {
    log.level = 'error';
    log.message = 'keys() failed';
    return undefined;
  }
  const key = isObject(keys) ? keys[tile] : undefined;
  if (typeof key === 'string' && key !== '' && SAFE_HEADER_VALUE.test(key)) return key;
  log.level = 'error';
  log.message = `no usable '${tile}' key`;
  return undefined;
}

function countUnits(operation: Operation, body: unknown): number {
  if (operation === 'events') return isObject(body) && Array.isArray(body.actions) ? body.actions.length : 1;
  return 1;
}

// The store is shared infrastructure (maybe Redis): when it fails, serve without limits rather
// than refuse real events. The log says so.
async function charged(config: Config, checks: LimitCheck[], now: number, log: ProxyLogEntry): Promise<number[] | undefined> {
  if (checks.length === 0) return undefined;
  try {
    return await charge(config.store, checks, now);
  } catch (error) {
    storeFailed(log, 'store failed: rate limit skipped', error);
    return undefined;
  }
}

/** Gives back what `charged` took; a store that fails keeps it (logged): the budget refills with its window. */
async function giveBack(config: Config, checks: LimitCheck[], now: number, log: ProxyLogEntry): Promise<void> {
  await release(config.store, checks, now).catch((error) => storeFailed(log, 'store failed: budget not given back', error));
}

/**
 * What an accepted delivery's browser stated, counted on its log entry: its loss report (unless its
 * id was counted already) and whether its oldest event was late, each within its client address's
 * `reports` budget (issue 47: a browser writes both, so one address must not move the alerts). A
 * store that fails counts them: a report counted twice, or beyond a budget, is better than a real
 * loss never counted.
 */
async function countStatements(config: Config, query: string, log: ProxyLogEntry): Promise<void> {
  const report = query.includes('drops=') ? readClientReport(query) : undefined;
  const late = log.eventDelaySeconds?.some((delay) => delay > LATE_SECONDS) ?? false;
  if (!report && !late) return;
  const rules = (config.options.rateLimits?.experienceEvents ?? DEFAULT_RATE_LIMITS.experienceEvents).reports ?? [];
  const client = log.clientAddress ?? 'unknown';
  const within = async (kind: 'loss' | 'late'): Promise<boolean> => {
    const checks = rules.map((rule): LimitCheck => ({ scope: 'reports', name: `rl:${config.workspaceId}:experienceEvents:${kind}:${client}`, amount: 1, rule }));
    if (!checks.length) return true;
    const now = Date.now();
    const totals = await charged(config, checks, now, log);
    if (!totals || !overLimit(checks, totals, now)) return true;
    // Given back, so a rule not yet spent is not spent by what another refused.
    await giveBack(config, checks, now, log);
    (log.overBudget ??= []).push(kind);
    return false;
  };
  if (report) {
    let first = true;
    try {
      first = await firstSight(config.store, config.workspaceId, report.id, config.dedupWindowMs);
    } catch (error) {
      // Counted anyway: a report counted twice is better than one never counted.
      storeFailed(log, 'store failed: loss report counted without deduplication', error);
    }
    // A report seen already spends no budget.
    if (first && (await within('loss'))) log.clientDropped = report.counts;
  }
  if (late && (await within('late'))) log.lateDelivery = true;
}

function storeFailed(log: ProxyLogEntry, message: string, error: unknown): void {
  log.level = 'warn';
  // A store that knows the cause (a misdeclared Durable Object class) has it named in the log.
  const hint = storeErrorHint(error);
  log.message = hint ? `${message} (${hint})` : message;
  log.storeErrors = (log.storeErrors ?? 0) + 1;
  const kind = storeErrorKind(error);
  (log.storeErrorKinds ??= {})[kind] = (log.storeErrorKinds[kind] ?? 0) + 1;
}
