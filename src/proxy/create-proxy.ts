import { basicAuth } from './pipeline/basic-auth';
import { ADMIN, configure, SAFE_HEADER_VALUE, type Config } from './config';
import { forwardedFor } from './pipeline/client-address';
import { bindCustomer, isObject } from './pipeline/customer';
import { Claims } from './pipeline/claims';
import { eventUuids, onlyEvents } from './pipeline/event-uuids';
import { errorBody, requestId, type Refusal } from './pipeline/error-response';
import type { Problem } from '../upstream/problem';
import { forward, retryAfterSeconds, sleep, type ForwardResult } from './pipeline/forward';
import { charge, DEFAULT_RATE_LIMITS, overLimit, release, type LimitCheck } from './pipeline/rate-limit';
import { readBody } from './web/read-body';
import { matchRoute } from './pipeline/routes';
import type { Operation, ProxyConnectionInfo, ProxyHandler, ProxyKeys, ProxyLogEntry, ProxyOptions } from './types';
import { validateBody } from './pipeline/validate';

/**
 * Creates the proxy: a Web-standard `(request, info?) => Promise<Response>` handler that is the
 * only holder of the upstream keys. It runs unchanged on Node (with `serve`), Deno, Bun and edge
 * runtimes. Configuration mistakes throw here, at start-up, naming the option.
 *
 * @example
 * const proxy = createProxy({
 *   workspaceId: 'ENGAGEDEMO01',
 *   keys: { personalize: process.env.ENGAGE_PERSONALIZE_KEY },
 *   sdkUrl: 'https://sdk-01.example.com',
 *   basePath: '/engage',
 *   allowedOrigins: ['https://www.example.com'],
 * });
 * await serve(proxy, { port: 8787 });
 */
export function createProxy(options: ProxyOptions): ProxyHandler {
  const config = configure(options);
  return async (request, info) => {
    const started = Date.now();
    const log: ProxyLogEntry = { level: 'info', message: 'request', method: request.method };
    let response: Response;
    try {
      response = await handle(config, request, info, log);
    } catch {
      // Never let an exception (ours or a hook's) take the server down or say anything internal.
      log.level = 'error';
      log.message = 'unexpected error';
      response = json(500, errorBody(log.operation, { status: 500, message: 'Unexpected error in the proxy' }));
    }
    if (options.logger) {
      log.status = response.status;
      log.durationMs = Date.now() - started;
      try {
        options.logger(log);
      } catch {
        // A broken logger must not break requests.
      }
    }
    return response;
  };
}


async function handle(config: Config, request: Request, info: ProxyConnectionInfo | undefined, log: ProxyLogEntry): Promise<Response> {
  const url = new URL(request.url);
  const { basePath } = config;
  log.path = url.pathname;
  if (basePath && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
    return json(404, errorBody(undefined, { status: 404, message: 'No such route' }));
  }
  const route = matchRoute(url.pathname.slice(basePath.length), config.workspaceId);
  if (!route) return json(404, errorBody(undefined, { status: 404, message: 'No such route' }));
  const operation = route.operation;
  log.operation = operation;

  // CORS first: a refused origin learns nothing else and reaches nothing.
  const origin = request.headers.get('origin');
  const sameOrigin = origin === null || origin === url.origin || origin === publicOrigin(request, info, config.trusted);
  if (!sameOrigin && !config.allowedOrigins.has(origin)) {
    return refuse(operation, { status: 403, message: 'Origin not allowed' });
  }
  const cors: Record<string, string> = sameOrigin
    ? {}
    : {
        'access-control-allow-origin': origin,
        'access-control-expose-headers': 'Retry-After, X-Engage-Deduplicated',
        vary: 'Origin',
        ...(config.allowCredentials ? { 'access-control-allow-credentials': 'true' } : {}),
      };
  const refuseWith = (refusal: Refusal | Problem) => refuse(operation, refusal, cors);

  if (request.method === 'OPTIONS') {
    if (!config.enabled.has(operation)) return refuseWith({ status: 403, message: `Operation '${operation}' is not enabled on this proxy` });
    return new Response(null, {
      status: 204,
      headers: {
        ...cors,
        'access-control-allow-methods': `${route.method}, OPTIONS`,
        'access-control-allow-headers': config.allowHeaders,
        'access-control-max-age': config.corsMaxAge,
        allow: `${route.method}, OPTIONS`,
      },
    });
  }
  if (request.method !== route.method) {
    return refuseWith({ status: 405, message: `Use ${route.method}`, headers: { allow: `${route.method}, OPTIONS` } });
  }
  if (!config.enabled.has(operation)) {
    return refuseWith({ status: 403, message: `Operation '${operation}' is not enabled on this proxy` });
  }
  if (route.upstreamPath === undefined) {
    return refuseWith({ status: 400, field: 'campaign_id', message: 'campaign_id must be 1-128 characters of A-Z a-z 0-9 _ -' });
  }
  if (ADMIN.has(operation)) {
    const allowed = await config.options.authorize!(request, operation);
    if (allowed !== true) return refuseWith({ status: 403, message: `Not authorized for '${operation}'` });
  }
  const contentType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  // text/plain too for experience events: a beacon-style request needs no preflight, and the
  // Origin check above still applies to it.
  if (contentType !== 'application/json' && !(operation === 'experienceEvents' && contentType === 'text/plain')) {
    return refuseWith({ status: 415, message: 'Content-Type must be application/json' });
  }

  const read = await readBody(request, config.maxBody[operation]);
  if ('tooLarge' in read) {
    return refuseWith({ status: 413, message: `Payload size exceeds ${config.maxBody[operation]} bytes` });
  }
  if ('failed' in read) return refuseWith({ status: 400, message: 'Request body could not be read', type: 'Malformed JSON' });
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    return refuseWith({ status: 400, field: 'body', message: 'Body is not valid JSON', type: 'Malformed JSON' });
  }
  let changed = false;

  if (config.options.resolveCustomer && (operation === 'experienceEvents' || operation === 'users' || operation === 'events')) {
    const customerId = await config.options.resolveCustomer(request);
    if (typeof customerId !== 'string' || customerId === '') {
      return refuseWith({ status: 401, message: 'No session: the customer cannot be identified', type: 'Authentication required' });
    }
    const binding = bindCustomer(operation, body, customerId);
    if (!binding.ok) {
      return refuseWith({ status: 403, field: binding.field, message: `${binding.field} does not match the signed-in customer` });
    }
    changed = binding.changed;
  }

  const problem = validateBody(operation, body, config.options.identityResolution);
  if (problem) return refuseWith(problem);

  // Before any budget is spent: a misconfigured key must not cost anyone quota.
  const key = await loadKey(config, route.tile, log);
  if (key === undefined) return refuseWith({ status: 500, message: 'The proxy is not configured for this operation' });

  const peer = forwardedFor(info?.clientAddress, request.headers.get('x-forwarded-for'), config.trusted);
  log.clientAddress = peer.client;
  const limits = config.options.rateLimits?.[operation] ?? DEFAULT_RATE_LIMITS[operation];
  const units = countUnits(operation, body);
  const budget = (scope: LimitCheck['scope'], name: string) => (rule: LimitCheck['rule']): LimitCheck => ({ scope, name, amount: units, rule });
  const checks = [
    ...(limits.client ?? []).map(budget('client', `rl:${config.workspaceId}:${operation}:client:${peer.client}`)),
    ...(limits.workspace ?? []).map(budget('workspace', `rl:${config.workspaceId}:${operation}:workspace`)),
  ];
  const claims =
    operation === 'experienceEvents' && config.dedupWindowMs > 0
      ? new Claims(config.store, config.workspaceId, eventUuids(body), { claimMs: config.claimTtlMs, acceptedMs: config.dedupWindowMs }, (message) =>
          storeFailed(log, message),
        )
      : undefined;
  const limitedAt = Date.now();
  // Budgets and claims in the same tick: one round trip to a pipelining store.
  const [totals] = await Promise.all([charged(config, checks, limitedAt, log), claims?.take()]);
  // The workspace pays only for events this request may forward, not those accepted already.
  const refused = totals && overLimit(checks, totals, limitedAt, (check) => (check.scope === 'workspace' ? (claims?.accepted.size ?? 0) : 0));
  if (refused) {
    await Promise.all([claims?.release(), release(config.store, checks, limitedAt).catch(() => storeFailed(log, 'store failed: budget not given back'))]);
    log.limited = refused.check.scope;
    const message = refused.check.scope === 'client' ? 'Too many requests from this client' : 'Workspace rate limit reached';
    return refuseWith({ status: 429, message, retryAfter: refused.retryAfter });
  }

  const headers: Record<string, string> = {
    authorization: basicAuth(config.workspaceId, key),
    'svc-appkey': config.workspaceId,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (peer.chain) headers['x-forwarded-for'] = peer.chain;
  const send = (text: string) =>
    forward(
      config.fetch,
      config.origins[route.origin]! + route.upstreamPath,
      // redirect 'manual': a redirect must never carry our Authorization anywhere else.
      // No client signal either: finishing a forward the page stopped waiting for lets the
      // memory answer its re-send from the next page.
      { method: route.method, headers, body: text, redirect: 'manual' },
      {
        // Only experience events are idempotent (the upstream dedups on svc_event_uuid).
        retries: operation === 'experienceEvents' ? config.retries : 0,
        timeoutMs: config.upstreamTimeoutMs,
        baseDelayMs: config.retryBaseDelayMs,
      },
    );
  const upstreamStarted = Date.now();
  let result: ForwardResult | undefined;
  let attempted = units;
  if (!claims) {
    result = await send(changed ? JSON.stringify(body) : read.text);
    log.attempts = result.attempts;
    if (isSuccess(result)) log.forwarded = units;
  } else {
    attempted = 0;
    log.forwarded = 0;
    // Forward what this request holds, then wait (bounded) for what others are forwarding:
    // accepted there → left out; released → claimed and forwarded here. Never wait holding a
    // claim, so two requests waiting on each other's events cannot deadlock.
    const deadline = Date.now() + config.claimWaitMs;
    for (let pause = 20; ; pause = Math.min(pause * 2, 200)) {
      if (claims.mine.length > 0) {
        const part = onlyEvents(body as Record<string, unknown>, new Set(claims.mine));
        const whole = part.count === units && !changed;
        attempted += part.count;
        result = await send(whole ? read.text : JSON.stringify(part.body));
        log.attempts = (log.attempts ?? 0) + result.attempts;
        if (!isSuccess(result)) {
          await claims.release();
          break;
        }
        log.forwarded += part.count;
        // Until it lands, the claims stand: a concurrent re-send waits rather than forwards.
        const committing = claims.commit();
        if (info?.waitUntil) info.waitUntil(committing);
        else await committing;
      }
      if (claims.pending.length === 0 || Date.now() >= deadline) break;
      await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
      await claims.take();
    }
    if (attempted > 0) log.upstreamMs = Date.now() - upstreamStarted;
    const deduplicated = units - attempted - claims.pending.length;
    if (deduplicated > 0) log.deduplicated = deduplicated;
    // The workspace budget pays for what reached the upstream, not for what others forwarded.
    const unused = units - attempted;
    const workspaceChecks = checks.filter((check) => check.scope === 'workspace').map((check) => ({ ...check, amount: unused }));
    if (unused > 0) await release(config.store, workspaceChecks, limitedAt).catch(() => storeFailed(log, 'store failed: budget not given back'));
    const dedupHeader: Record<string, string> = deduplicated > 0 ? { 'x-engage-deduplicated': String(deduplicated) } : {};
    if (claims.pending.length > 0 && (!result || isSuccess(result))) {
      // Never a 2xx for an event the upstream has not accepted: the tracker re-sends it later.
      log.level = 'warn';
      log.message = `${claims.pending.length} event(s) still being forwarded by another request`;
      return refuseWith({ status: 503, message: 'Some events are being forwarded by another request; retry', retryAfter: 1, headers: dedupHeader });
    }
    if (!result) {
      return json(200, { status: 'success', message: 'Events already accepted', req_id: requestId() }, { ...cors, ...dedupHeader });
    }
  }
  log.upstreamMs ??= Date.now() - upstreamStarted;
  return answer(result!, { log, cors, refuseWith, secrets: [key, headers.authorization!.slice('Basic '.length)], deduplicated: log.deduplicated });
}

/** The upstream's answer, passed on: status and body (secrets redacted), `Retry-After` kept. */
function answer(
  result: ForwardResult,
  context: { log: ProxyLogEntry; cors: Record<string, string>; refuseWith: (refusal: Refusal) => Response; secrets: string[]; deduplicated?: number },
): Response {
  const { log, cors, refuseWith } = context;
  if (result.kind !== 'response') {
    log.level = 'warn';
    log.message = result.kind === 'timeout' ? 'upstream timed out' : 'upstream unreachable';
    return result.kind === 'timeout'
      ? refuseWith({ status: 504, message: 'The upstream did not answer in time' })
      : refuseWith({ status: 502, message: 'The upstream could not be reached' });
  }
  log.upstreamStatus = result.status;
  if (result.status >= 300 && result.status < 400) {
    log.level = 'warn';
    log.message = 'upstream redirected (not followed)';
    return refuseWith({ status: 502, message: 'The upstream answered with a redirect' });
  }
  const out: Record<string, string> = { ...cors, 'cache-control': 'no-store' };
  const type = result.headers.get('content-type');
  if (type) out['content-type'] = type;
  if (context.deduplicated) out['x-engage-deduplicated'] = String(context.deduplicated);
  if (result.status === 429 || result.status === 503) {
    const seconds = retryAfterSeconds(result.headers.get('retry-after'));
    // The tracker needs a Retry-After on every 429; the upstream's windows are per minute.
    if (seconds !== undefined || result.status === 429) out['retry-after'] = String(seconds ?? 60);
  }
  if (result.status >= 400) log.level = 'warn';
  // 204 and friends must not carry a body.
  const text = result.status === 204 || result.status === 304 ? null : redact(result.text, ...context.secrets);
  return new Response(text, { status: result.status, headers: out });
}

function isSuccess(result: ForwardResult): boolean {
  return result.kind === 'response' && result.status >= 200 && result.status < 300;
}

/**
 * The origin the browser used, when a trusted proxy in front terminated TLS or rewrote the host
 * (`X-Forwarded-Proto`/`-Host`, first value); undefined otherwise. Only believed from
 * `trustedProxies`, so a client cannot claim to be same-origin.
 */
function publicOrigin(request: Request, info: ProxyConnectionInfo | undefined, trusted: (address: string) => boolean): string | undefined {
  const peer = info?.clientAddress;
  if (!peer || !trusted(peer.toLowerCase().replace(/^::ffff:(?=\d+\.)/, ''))) return undefined;
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]!.trim().toLowerCase();
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]!.trim().toLowerCase() ?? new URL(request.url).host;
  if ((proto !== 'https' && proto !== 'http') || !/^[a-z0-9.:[\]-]+$/.test(host)) return undefined;
  try {
    return new URL(`${proto}://${host}`).origin; // drops a default port, as Origin does
  } catch {
    return undefined;
  }
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
  // Validated already: every action carries its UUID.
  if (operation === 'experienceEvents') return eventUuids(body).length;
  return 1;
}

// The store is shared infrastructure (maybe Redis): when it fails, serve without limits rather
// than refuse real events. The log says so.
async function charged(config: Config, checks: LimitCheck[], now: number, log: ProxyLogEntry): Promise<number[] | undefined> {
  if (checks.length === 0) return undefined;
  try {
    return await charge(config.store, checks, now);
  } catch {
    storeFailed(log, 'store failed: rate limit skipped');
    return undefined;
  }
}

function storeFailed(log: ProxyLogEntry, message: string): void {
  log.level = 'warn';
  log.message = message;
  log.storeErrors = (log.storeErrors ?? 0) + 1;
}

/** An upstream that echoes a credential (plain or as the Basic token) must not pass it on. */
function redact(text: string, ...secrets: string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('[redacted]');
  }
  return out;
}

function refuse(operation: Operation | undefined, refusal: Refusal | Problem, cors: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { ...cors };
  if ('headers' in refusal) Object.assign(headers, refusal.headers);
  if ('retryAfter' in refusal && refusal.retryAfter !== undefined) headers['retry-after'] = String(refusal.retryAfter);
  return json(refusal.status, errorBody(operation, refusal), headers);
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}
