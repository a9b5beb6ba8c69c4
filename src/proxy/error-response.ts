import type { Operation } from './types';

/** A refusal the proxy answers itself, before (or instead of) reaching the upstream. */
export interface Refusal {
  status: number;
  message: string;
  /** The offending field, when there is one. */
  field?: string;
  /** Overrides the upstream's type/title string for this status. */
  type?: string;
  /** Seconds, for 429/503. */
  retryAfter?: number;
  /** Extra response headers (e.g. `Allow`). */
  headers?: Record<string, string>;
}

const PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

// The upstream's own `type`/`title` strings per status (facts sheet §2.6, §3.5, §4.3, §5.4).
const DATA_TYPES: Record<'users' | 'events', Record<number, string>> = {
  users: { 400: 'MissingAttributeError', 401: 'Authentication required', 403: 'BlockedClient', 413: 'PayloadTooLarge', 415: 'MediaTypeError', 429: 'RateLimitError', 500: 'ServerError' },
  events: { 400: 'MissingAttributeError', 401: 'Authentication required', 403: 'BlockedClient', 413: 'PayloadTooLarge', 415: 'Unsupported media type', 429: 'Rate Limits Exceeded', 500: 'ServerError' },
};
const TITLES: Record<number, string> = {
  400: 'Invalid Field Value',
  401: 'Authentication required',
  415: 'Unsupported media type',
  429: 'Rate Limits Exceeded',
};

/**
 * The body the upstream itself would send for this operation and status, so SDK code parses
 * one shape per operation whether the proxy or the upstream refused.
 */
export function errorBody(operation: Operation | undefined, refusal: Refusal, requestId: string): unknown {
  const { status, message, field } = refusal;
  const phrase = PHRASES[status] ?? 'Error';
  switch (operation) {
    case 'users':
    case 'events':
      return {
        status: 'fail',
        error: {
          ...(field ? { attribute: field } : {}),
          message,
          type: refusal.type ?? DATA_TYPES[operation][status] ?? phrase,
          request_id: requestId,
        },
      };
    case 'campaignUpdate':
      return {
        error: {
          code: `${status} ${phrase}`,
          message,
          target: field ?? '',
          details: [{ target: field ?? '', message }],
          request_id: requestId,
        },
      };
    case 'fileImportStatus':
      if (status === 400) return { status: 'FAILURE', error_type: refusal.type ?? 'Invalid Request', message };
      if (status === 429) {
        return { status: 'fail', error: { message, type: 'Rate Limits Exceeded', request_id: requestId } };
      }
      return { title: refusal.type ?? TITLES[status] ?? phrase, description: message };
    default:
      // Experience events, and paths that match no operation: the title/description envelope.
      return { title: refusal.type ?? TITLES[status] ?? phrase, description: message, code: requestId };
  }
}

/** Short opaque request id, like the upstream's 8-character ones. */
export function requestId(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  let out = '';
  for (const byte of bytes) out += byte.toString(36).padStart(2, '0').slice(-2);
  return out.slice(0, 8).toUpperCase();
}
