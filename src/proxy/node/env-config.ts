import { availableParallelism } from 'node:os';
import { OPERATION_NAMES, OPERATIONS } from '../../upstream/operations';
import { DEFAULT_UPSTREAM_CONCURRENCY, DEFAULT_UPSTREAM_QUEUE, HEADER_NAME } from '../config';
import { LOG_FORMATS, type LogFormat } from './log-line';
import { rateLimitsFromEnv } from './rate-limits-env';
import { LOG_LEVELS, type LogLevel } from './request-log';
import { UPSTREAM_ORIGIN } from '../pipeline/routes';
import type { Operation, ProxyOptions } from '../types';

const KEY_VARS = { data: 'ENGAGE_DATA_KEY', personalize: 'ENGAGE_PERSONALIZE_KEY', campaign: 'ENGAGE_CAMPAIGN_KEY' } as const;
const URL_VARS = { baseUrl: 'ENGAGE_BASE_URL', sdkUrl: 'ENGAGE_SDK_URL', fileImportsUrl: 'ENGAGE_FILEIMPORTS_URL' } as const;

export interface EnvConfig {
  options: ProxyOptions;
  port: number;
  host: string;
  /** `ENGAGE_LOG_FORMAT`: one text line (default) or one JSON object per request. */
  logFormat: LogFormat;
  /** `ENGAGE_LOG_LEVEL`: `info` (every request, default), `warn` (problems only), `error`, `off`. */
  logLevel: LogLevel;
  /** `ENGAGE_REDIS_URL`: the shared store of several instances; absent = this process's memory. */
  redisUrl?: string;
  /** `ENGAGE_WORKERS`: processes serving the port (`auto`: one per core); 1 = this process alone. */
  workers: number;
  /** `ENGAGE_REQUEST_TIMEOUT_MS`: a request's headers and body must all arrive within this (408 otherwise). */
  requestTimeoutMs: number;
  /** `ENGAGE_PROBE_PORT`: a second port answering /healthz, /readyz and /metrics only; absent = none. */
  probePort?: number;
}

/** Default `ENGAGE_REQUEST_TIMEOUT_MS`: a browser's ≤ 64 KB body takes about 10 s at 50 kbit/s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Reads the `engage-proxy` configuration from environment variables. Every problem is collected
 * (naming the variable, never echoing a key), so one run tells the operator everything to fix.
 *
 * Variables: ENGAGE_WORKSPACE_ID; ENGAGE_DATA_KEY, ENGAGE_PERSONALIZE_KEY, ENGAGE_CAMPAIGN_KEY and
 * ENGAGE_BASE_URL, ENGAGE_SDK_URL, ENGAGE_FILEIMPORTS_URL (each required when an enabled operation
 * needs it); ENGAGE_ALLOWED_ORIGINS, ENGAGE_OPERATIONS, ENGAGE_TRUSTED_PROXIES (comma-separated);
 * ENGAGE_BASE_PATH; ENGAGE_ADMIN_TOKEN (enables the administrative operations for requests with
 * `Authorization: Bearer <token>`, and allows that header cross-origin); ENGAGE_ALLOWED_HEADERS
 * (comma-separated request headers a cross-origin page may send, added to `Content-Type` and,
 * with an admin token, `Authorization`); ENGAGE_LOG_FORMAT (`text` or `json`); ENGAGE_LOG_LEVEL (`info`, `warn`, `error`, `off`);
 * ENGAGE_WORKERS (a number of processes, or `auto`: one per core; more than 1 needs
 * ENGAGE_REDIS_URL); ENGAGE_STORE_FAILURE (`forward` or `retry`: what a request does while the
 * store cannot claim); ENGAGE_BOTS (`drop` or `forward`: crawlers' experience events); ENGAGE_REQUEST_TIMEOUT_MS (headers and body within it, else 408); ENGAGE_RATE_LIMITS (see
 * rate-limits-env.ts: `off`, or rules like `experienceEvents.client=600/min`); ENGAGE_REDIS_URL (`redis://[user:password@]host:port[/db]`
 * or `rediss://`: the store shared by several instances); PORT (default
 * 8787); HOST (default 127.0.0.1); ENGAGE_PROBE_PORT (a second port, on HOST, for the probes and
 * metrics alone).
 *
 * @example
 * const result = configFromEnv(process.env);
 * if ('errors' in result) { console.error(result.errors.join('\n')); process.exit(1); }
 */
export function configFromEnv(env: Record<string, string | undefined>): EnvConfig | { errors: string[] } {
  const errors: string[] = [];
  const missing: string[] = [];
  const get = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const list = (name: string) =>
    (get(name) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  const workspaceId = get('ENGAGE_WORKSPACE_ID');
  if (!workspaceId) missing.push('ENGAGE_WORKSPACE_ID');
  const operations = (list('ENGAGE_OPERATIONS').length ? list('ENGAGE_OPERATIONS') : ['experienceEvents']) as Operation[];
  for (const operation of operations) {
    if (!OPERATION_NAMES.includes(operation)) errors.push(`ENGAGE_OPERATIONS: '${operation}' is not one of ${OPERATION_NAMES.join(', ')}`);
  }
  const known = operations.filter((operation) => OPERATION_NAMES.includes(operation));
  const adminToken = get('ENGAGE_ADMIN_TOKEN');
  for (const operation of known) {
    // Administrative operations need a caller check; from the environment that is a bearer token.
    const admin = operation === 'campaignUpdate' || operation === 'fileImportStatus';
    if (admin && !adminToken && !missing.includes('ENGAGE_ADMIN_TOKEN')) missing.push('ENGAGE_ADMIN_TOKEN');
    const keyVar = KEY_VARS[OPERATIONS[operation].keyTile];
    const urlVar = URL_VARS[UPSTREAM_ORIGIN[operation]];
    if (!get(keyVar) && !missing.includes(keyVar)) missing.push(keyVar);
    if (!get(urlVar) && !missing.includes(urlVar)) missing.push(urlVar);
  }
  const extraHeaders = list('ENGAGE_ALLOWED_HEADERS');
  for (const name of extraHeaders) {
    if (!HEADER_NAME.test(name)) errors.push(`ENGAGE_ALLOWED_HEADERS: '${name}' is not a header name (letters, digits and !#$%&'*+.^_\`|~-)`);
  }
  const logFormat = (get('ENGAGE_LOG_FORMAT') ?? 'text').toLowerCase() as LogFormat;
  if (!LOG_FORMATS.includes(logFormat)) errors.push(`ENGAGE_LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')} (got '${get('ENGAGE_LOG_FORMAT')}')`);
  const logLevel = (get('ENGAGE_LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) errors.push(`ENGAGE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${get('ENGAGE_LOG_LEVEL')}')`);
  const workersText = (get('ENGAGE_WORKERS') ?? '1').toLowerCase();
  const workers = workersText === 'auto' ? availableParallelism() : Number(workersText);
  if (!/^\d+$/.test(workersText) && workersText !== 'auto') errors.push(`ENGAGE_WORKERS must be a number of processes or auto (got '${workersText}')`);
  else if (!(workers >= 1 && workers <= 256)) errors.push(`ENGAGE_WORKERS must be between 1 and 256 (got '${workersText}')`);
  const portText = get('PORT') ?? '8787';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) errors.push(`PORT must be a port number (got '${portText}')`);
  const probePortText = get('ENGAGE_PROBE_PORT');
  const probePort = probePortText === undefined ? undefined : Number(probePortText);
  if (probePortText !== undefined && (!/^\d+$/.test(probePortText) || probePort! > 65535)) {
    errors.push(`ENGAGE_PROBE_PORT must be a port number (got '${probePortText}')`);
  } else if (probePort !== undefined && probePort !== 0 && probePort === port) {
    errors.push(`ENGAGE_PROBE_PORT must differ from PORT (both ${port}): the probes' port is a second one`);
  }
  if (missing.length) errors.unshift(`missing environment variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  const rateLimits = rateLimitsFromEnv(get('ENGAGE_RATE_LIMITS'));
  if ('errors' in rateLimits) errors.push(...rateLimits.errors);
  const storeFailure = (get('ENGAGE_STORE_FAILURE') ?? 'forward').toLowerCase();
  if (storeFailure !== 'forward' && storeFailure !== 'retry') {
    errors.push(
      `ENGAGE_STORE_FAILURE must be forward (events go on without a claim while the store fails) or retry (503 + Retry-After: the tracker re-sends) (got '${get('ENGAGE_STORE_FAILURE')}')`,
    );
  }
  const bots = (get('ENGAGE_BOTS') ?? 'drop').toLowerCase();
  if (bots !== 'drop' && bots !== 'forward') {
    errors.push(`ENGAGE_BOTS must be drop (crawlers' experience events answered, counted and not forwarded) or forward (no check) (got '${get('ENGAGE_BOTS')}')`);
  }
  const timeoutText = get('ENGAGE_REQUEST_TIMEOUT_MS') ?? String(DEFAULT_REQUEST_TIMEOUT_MS);
  const requestTimeoutMs = Number(timeoutText);
  if (!/^\d+$/.test(timeoutText) || requestTimeoutMs < 1_000 || requestTimeoutMs > 300_000) {
    errors.push(`ENGAGE_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 300000 (got '${timeoutText}')`);
  }
  const whole = (name: string, fallback: number, min: number, rule: string): number => {
    const text = get(name) ?? String(fallback);
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > 1_000_000) errors.push(`${name} must be a whole number from ${min} to 1000000: ${rule} (got '${text}')`);
    return value;
  };
  const upstreamConcurrency = whole('ENGAGE_UPSTREAM_CONCURRENCY', DEFAULT_UPSTREAM_CONCURRENCY, 1, 'upstream requests in flight at once, per upstream origin');
  const upstreamQueue = whole('ENGAGE_UPSTREAM_QUEUE', DEFAULT_UPSTREAM_QUEUE, 0, 'requests waiting for one of those, per upstream origin');
  const budgetText = get('ENGAGE_RETRY_BUDGET');
  const retryBudget = budgetText === undefined ? undefined : Number(budgetText);
  if (retryBudget !== undefined && !(/^\d*\.?\d+$/.test(budgetText!) && retryBudget <= 1)) {
    errors.push(`ENGAGE_RETRY_BUDGET must be a share from 0 to 1 of requests the proxy may retry upstream, e.g. 0.2 (got '${budgetText}')`);
  }
  const redisUrl = get('ENGAGE_REDIS_URL');
  // Named, never shown: the URL may carry a password.
  if (redisUrl && !/^rediss?:\/\//i.test(redisUrl)) errors.push('ENGAGE_REDIS_URL must start with redis:// or rediss://');
  // Each process would have its own memory: a re-send reaching another one is forwarded again.
  if (workers > 1 && !redisUrl) {
    errors.push(
      `ENGAGE_WORKERS=${workersText} needs ENGAGE_REDIS_URL: with the memory store each process remembers only its own forwards, so a re-send reaching another process would be forwarded again`,
    );
  }
  if (errors.length) return { errors };

  const options: ProxyOptions = {
    workspaceId: workspaceId!,
    keys: { data: get(KEY_VARS.data), personalize: get(KEY_VARS.personalize), campaign: get(KEY_VARS.campaign) },
    baseUrl: get(URL_VARS.baseUrl),
    sdkUrl: get(URL_VARS.sdkUrl),
    fileImportsUrl: get(URL_VARS.fileImportsUrl),
    basePath: get('ENGAGE_BASE_PATH') ?? '',
    allowedOrigins: list('ENGAGE_ALLOWED_ORIGINS'),
    trustedProxies: list('ENGAGE_TRUSTED_PROXIES'),
    // The admin client sends its token cross-origin, so its preflight asks for Authorization.
    allowedHeaders: uniqueHeaders(['Content-Type', ...(adminToken ? ['Authorization'] : []), ...extraHeaders]),
    operations: known,
    rateLimits: 'limits' in rateLimits ? rateLimits.limits : undefined,
    storeFailure: storeFailure as 'forward' | 'retry',
    bots: bots as 'drop' | 'forward',
  };
  // Set only when given, so createProxy's defaults stay the one place they are decided.
  if (get('ENGAGE_UPSTREAM_CONCURRENCY')) options.upstreamConcurrency = upstreamConcurrency;
  if (get('ENGAGE_UPSTREAM_QUEUE')) options.upstreamQueue = upstreamQueue;
  if (retryBudget !== undefined) options.retryBudget = retryBudget;
  if (adminToken) options.authorize = (request) => sameSecret(request.headers.get('authorization') ?? '', `Bearer ${adminToken}`);
  return { options, port, host: get('HOST') ?? '127.0.0.1', logFormat, logLevel, redisUrl, workers, requestTimeoutMs, ...(probePort === undefined ? {} : { probePort }) };
}

/** Header names are case-insensitive: keep the first spelling of each. */
function uniqueHeaders(names: string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()));
}

/** Compares without an early exit, so timing does not reveal how much of a token was right. */
function sameSecret(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return diff === 0;
}
