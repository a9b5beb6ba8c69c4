import type { Problem } from '../../upstream/problem';
import type { Operation, ProxyLogEntry } from '../types';
import { errorBody, type Refusal } from './error-response';
import type { Answer } from './exchange';
import { retryAfterSeconds, type ForwardResult } from './forward';

/** A JSON answer; never cached (every answer is about one request). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }, body: JSON.stringify(body) };
}

/** A refusal in the upstream's error shape for `operation`. */
export function refuse(operation: Operation | undefined, refusal: Refusal | Problem, cors: Record<string, string> = {}): Answer {
  const headers: Record<string, string> = { ...cors };
  if ('headers' in refusal) Object.assign(headers, refusal.headers);
  if ('retryAfter' in refusal && refusal.retryAfter !== undefined) headers['retry-after'] = String(refusal.retryAfter);
  return json(refusal.status, errorBody(operation, refusal), headers);
}

/** The upstream's answer, passed on: status and body (secrets redacted), `Retry-After` kept. */
export function passOn(
  result: ForwardResult,
  context: { log: ProxyLogEntry; cors: Record<string, string>; refuseWith: (refusal: Refusal) => Answer; secrets: string[]; deduplicated?: number },
): Answer {
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
  const headers: Record<string, string> = { ...cors, 'cache-control': 'no-store' };
  if (result.contentType) headers['content-type'] = result.contentType;
  if (context.deduplicated) headers['x-engage-deduplicated'] = String(context.deduplicated);
  if (result.status === 429 || result.status === 503) {
    const seconds = retryAfterSeconds(result.retryAfter);
    // The tracker needs a Retry-After on every 429; the upstream's windows are per minute.
    if (seconds !== undefined || result.status === 429) headers['retry-after'] = String(seconds ?? 60);
  }
  if (result.status >= 400) log.level = 'warn';
  // 204 and friends must not carry a body.
  const body = result.status === 204 || result.status === 304 ? null : redact(result.text, context.secrets);
  return { status: result.status, headers, body };
}

export function isSuccess(result: ForwardResult): boolean {
  return result.kind === 'response' && result.status >= 200 && result.status < 300;
}

/** An upstream that echoes a credential (plain or as the Basic token) must not pass it on. */
function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('[redacted]');
  }
  return out;
}
