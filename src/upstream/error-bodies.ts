import type { Operation } from './operations';
import type { Problem } from './problem';
import { FILE_IMPORT_ENUM_ERROR, INVALID_ATTRIBUTE } from './error-types';

// Re-exported so one import serves code that builds bodies; validators import error-types only,
// which keeps the message tables out of a client bundle.
export { MISSING_ATTRIBUTE, MALFORMED_JSON, MALFORMED_JSON_MESSAGE, INVALID_ATTRIBUTE, FILE_IMPORT_ENUM_ERROR } from './error-types';

/** An error that is not a validation problem: auth, size, media type, rate limit, faults. */
export interface ErrorInput {
  status: number;
  /** @default the upstream's own message for this operation and status (`upstreamMessage`) */
  message?: string;
  /** Upstream error type string; defaults to the operation's type for the status. */
  type?: string;
  /** Offending field, where there is one. */
  field?: string;
}

const PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
const phrase = (status: number): string => PHRASES[status] ?? 'Error';

// Per-operation type strings, as the facts sheet lists them; undocumented statuses get a
// plain name of the same style.
const DATA_TYPES: Record<number, string> = {
  400: INVALID_ATTRIBUTE,
  401: 'Authentication required',
  403: 'BlockedClient',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  413: 'PayloadTooLarge',
  415: 'MediaTypeError',
  429: 'RateLimitError',
  500: 'ServerError',
  502: 'ServerError',
  503: 'ServiceUnavailable',
  504: 'ServerError',
};
const TYPES: Record<'users' | 'events' | 'experienceEvents', Record<number, string>> = {
  users: DATA_TYPES,
  events: { ...DATA_TYPES, 415: 'Unsupported media type', 429: 'Rate Limits Exceeded' },
  experienceEvents: {
    400: 'Invalid Field Value',
    401: 'Authentication required',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    413: 'Payload Too Large',
    415: 'Unsupported media type',
    429: 'Rate Limits Exceeded',
    500: 'Internal Server Error',
    503: 'Service Unavailable',
  },
};

/**
 * A short opaque id like the upstream's `request_id`/`code` values (8 letters).
 *
 * @example
 * requestId(); // 'kQzPwLmA'
 */
export function requestId(): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  let id = '';
  for (const byte of bytes) id += letters[byte % letters.length];
  return id;
}

const isProblem = (input: Problem | ErrorInput): input is Problem => 'rule' in input;

/**
 * The human message for a problem: the field, then its rule (`customer_id is not found in the
 * payload`). A rule written as a full sentence (capitalised) is the message on its own.
 *
 * @example
 * problemMessage({ field: 'actions', rule: 'can not be empty Array', status: 400 }); // 'actions can not be empty Array'
 */
export const problemMessage = (p: Problem): string => (/^[A-Z]/.test(p.rule) ? p.rule : `${p.field} ${p.rule}`);

const SERVER_ERROR = 'An unexpected error was encountered while processing this request. Please contact the support team.';

// The upstream's own sentences, where the public material shows them.
const MESSAGES: Record<Operation, Record<number, string>> = {
  users: {
    401: 'App Secret key mismatch. Please login to the dashboard to verify key',
    403: 'Your account is blocked. Please contact the support team.',
    404: 'Resource not found',
    405: 'Method not allowed',
    413: 'Payload size exceeds 128 KB',
    415: 'Unsupported Media Type',
    429: 'Rate limit exceeded',
    500: SERVER_ERROR,
  },
  events: {
    401: 'App Secret key mismatch. Please login to the dashboard to verify key',
    403: 'Your account is suspended. Please contact the support team.',
    404: 'Resource not found',
    405: 'Method not allowed',
    413: 'Payload size exceeds 128 KB',
    415: 'Content type is not supported',
    429: 'Rate limits for customers exceeded. Please Try After Some Time',
    500: SERVER_ERROR,
  },
  experienceEvents: {
    401: 'Invalid API_KEY used in Authentication Header',
    404: 'Resource not found',
    405: 'Method not allowed',
    413: 'Payload size exceeds 1024 KB',
    415: 'Content type is not supported',
    429: 'Rate limit exceeded',
    500: SERVER_ERROR,
  },
  campaignUpdate: {
    401: 'Invalid APP_SECRET_KEY is provided.',
    404: 'Campaign not found',
    405: 'Method not allowed',
    413: 'Payload size exceeds 1024 KB',
    415: 'Content type is not supported',
    429: 'Rate limiting breached',
    500: 'Something went wrong. Please contact the support team',
  },
  fileImportStatus: {
    401: "Password (APP_KEY) doesn't match the one available on the dashboard. Kindly ensure the same APP_KEY available on the dashboard is used.",
    403: 'Your account is suspended. Please contact the support team.',
    404: 'Resource not found.',
    405: 'Method not allowed',
    413: 'Payload size exceeds 64 KB',
    415: 'Content type is not supported',
    429: 'Rate limits exceeded, please try after some time',
    500: SERVER_ERROR,
  },
};

/** File-import 400 bodies carry a fixed sentence per `error_type`. */
export const FILE_IMPORT_MESSAGES: Record<string, string> = {
  'Invalid Date format': "The provided date format is either incorrect or doesn't match the entered dates. Please ensure both the dates and the format are valid.",
  'Invalid Offset Value': 'The offset value you have provided is not valid. Please review and correct the offset.',
  'Difference exceeds 30 days': 'Please note that only imports with a date difference of 30 can be displayed. Kindly adjust the dates accordingly.',
};

/**
 * The upstream's message for an operation and status, or a plain phrase where none is shown.
 *
 * @example
 * upstreamMessage('events', 429); // 'Rate limits for customers exceeded. Please Try After Some Time'
 */
export const upstreamMessage = (operation: Operation, status: number): string =>
  MESSAGES[operation][status] ?? (status >= 500 ? MESSAGES[operation][500]! : phrase(status));

/**
 * The exact upstream JSON error body of `operation` for a problem or an error.
 *
 * @param id the request id to put in the body. @default a fresh `requestId()`
 * @example
 * errorBody('users', { field: 'customer_id', rule: 'is required', status: 400, type: 'MissingAttributeError' });
 * // { status: 'fail', error: { attribute: 'customer_id', message: 'customer_id is required', type: 'MissingAttributeError', request_id: '…' } }
 */
export function errorBody(operation: Operation, input: Problem | ErrorInput, id: string = requestId()): unknown {
  const status = input.status;
  let message = isProblem(input) ? problemMessage(input) : (input.message ?? upstreamMessage(operation, status));
  if (operation === 'fileImportStatus' && status === 400 && input.type && FILE_IMPORT_MESSAGES[input.type]) {
    // The fixed sentence, then which field broke which rule (the sentence alone names neither).
    message = `${FILE_IMPORT_MESSAGES[input.type]} (${message})`;
  }
  const field = input.field === 'body' ? undefined : input.field;
  switch (operation) {
    case 'users':
    case 'events': {
      const type = input.type ?? TYPES[operation][status] ?? 'ServerError';
      return { status: 'fail', error: { ...(field ? { attribute: field } : {}), message, type, request_id: id } };
    }
    case 'experienceEvents': {
      const title = input.type ?? TYPES.experienceEvents[status] ?? phrase(status);
      // The documented 401 carries no `code`; every other error does.
      return status === 401 ? { title, description: message } : { title, description: message, code: id };
    }
    case 'campaignUpdate': {
      const target = field ?? '';
      if (status === 401) {
        return {
          error: {
            code: '401 Authentication error',
            message: 'Authentication required',
            details: [{ code: 'InvalidValue', target: 'APP_SECRET_KEY', message: [{ code: 'InvalidValue', target: 'APP_SECRET_KEY', message }] }],
            request_id: '',
          },
        };
      }
      if (status === 429) {
        // Sic: the upstream's V1 rate-limit body says "conflict".
        return { error: { code: '429 conflict', message: 'rate_limit', target: '', details: [{ target: 'rate_limit', message }], request_id: id } };
      }
      if (status >= 500) {
        return { error: { code: `${status} ${phrase(status)}`, message, target, details: [{ message, target }] } };
      }
      return { error: { code: `${status} ${phrase(status)}`, message, target, details: [{ target, message }], request_id: id } };
    }
    case 'fileImportStatus': {
      switch (status) {
        case 400:
          return input.type === FILE_IMPORT_ENUM_ERROR
            ? { success: false, status_code: '400 Bad Request', data: FILE_IMPORT_ENUM_ERROR }
            : { status: 'FAILURE', error_type: input.type ?? 'Invalid Request', message };
        case 401:
          return { title: input.type ?? 'AuthenticationInvalid', description: message };
        case 403:
          return { status: 'fail', error: { message, type: input.type ?? 'BlockedClient', request_id: id } };
        case 404:
          return { status: 'fail', data: 'Resource not found.' };
        case 405:
          return { status: 'fail', message };
        case 500:
          return { title: input.type ?? 'Server Error', description: message, code: id };
        case 413:
          return { title: input.type ?? 'Payload Too Large', description: message };
        case 415:
          return { title: input.type ?? 'Unsupported media type', description: message };
        case 429:
          return { status: 'fail', error: { message, type: input.type ?? 'Rate Limits Exceeded', request_id: id } };
        default:
          return { title: input.type ?? phrase(status), description: message, code: id };
      }
    }
  }
}

/** Extra response details. */
export interface ErrorResponseInit {
  /** Request id placed in the body. @default a fresh `requestId()` */
  requestId?: string;
  /** Sent as `Retry-After` (seconds), e.g. with 429 and 503. @default none */
  retryAfterSeconds?: number;
  /** Headers to add (e.g. CORS). */
  headers?: HeadersInit;
}

/**
 * A Web `Response` carrying the upstream's error body for `operation`.
 *
 * @example
 * return errorResponse('events', { status: 429, message: 'Rate limit exceeded' }, { retryAfterSeconds: 60 });
 */
export function errorResponse(operation: Operation, input: Problem | ErrorInput, init: ErrorResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json');
  if (init.retryAfterSeconds !== undefined) headers.set('retry-after', String(Math.max(0, Math.ceil(init.retryAfterSeconds))));
  return new Response(JSON.stringify(errorBody(operation, input, init.requestId)), { status: input.status, headers });
}
