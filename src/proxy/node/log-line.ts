// How engage-proxy prints its log entries: a short text line, or one JSON object per line for log
// collectors. Entries carry no key, body or header value by construction, so neither can leak one.
import type { ProxyLogEntry } from '../types';

/** `ENGAGE_LOG_FORMAT` values. */
export type LogFormat = 'text' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

/**
 * One line for an entry, without a trailing newline.
 *
 * @example
 * logLine({ level: 'info', message: 'request', method: 'POST', path: '/engage/v1/event', status: 200, durationMs: 4 }, 'text');
 * // '200 POST /engage/v1/event 4ms'
 */
export function logLine(entry: ProxyLogEntry, format: LogFormat, now: Date = new Date()): string {
  if (format === 'json') return JSON.stringify({ time: now.toISOString(), ...entry });
  const extras = [
    entry.operation && `op=${entry.operation}`,
    entry.upstreamStatus !== undefined && `upstream=${entry.upstreamStatus}`,
    entry.attempts !== undefined && entry.attempts > 1 && `attempts=${entry.attempts}`,
    entry.deduplicated && `dedup=${entry.deduplicated}`,
    entry.limited && `limited=${entry.limited}`,
    entry.overloaded && `overloaded=${entry.overloaded}`,
    entry.retryBudgetSpent && 'retry-budget-spent',
    // The one header value a line carries: which crawler it was (printable, cut at 200 characters).
    entry.crawler !== undefined && `crawler-events=${entry.crawlerEvents} ua=${JSON.stringify(entry.crawler)}`,
    entry.clientDropped &&
      `dropped=${Object.entries(entry.clientDropped)
        .map(([reason, count]) => `${reason}:${count}`)
        .join(',')}`,
    entry.lateDelivery && 'late',
    entry.overBudget && `over-budget=${entry.overBudget.join(',')}`,
    entry.clientAddress && `client=${entry.clientAddress}`,
  ].filter(Boolean);
  const line = `${entry.status} ${entry.method} ${entry.path} ${entry.durationMs}ms ${extras.join(' ')}${entry.level === 'info' ? '' : ` ${entry.level}: ${entry.message}`}`;
  return line.trimEnd().replace(/ {2,}/g, ' ');
}
