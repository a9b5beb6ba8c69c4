import type { UpstreamErrorDetail } from '../errors';

// The upstream's error bodies differ per API family (facts sheet §0.3 and the per-operation
// tables); the proxy answers its own refusals in the same shapes. This reads any of them into one
// `UpstreamErrorDetail`, so callers look at `error.upstream.code`/`message` whatever the family.
//
// | family                       | body                                                        | → code        | → message   | → target   | → requestId            |
// | standard data (users/events, | {status:'fail', error:{attribute?, message, type,           | type          | message     | attribute  | request_id             |
// |   file-import 403/429)       |   request_id}}                                              |               |             |            |                        |
// | title/description            | {title, description, code?}                                 | title         | description |            | code (an opaque id)    |
// | file-import 400              | {status:'FAILURE', error_type, message}                     | error_type    | message     |            |                        |
// | file-import 400 (enum case)  | {success:false, status_code, data}                          | status_code   | data        |            |                        |
// | campaigns V1                 | {error:{code, message, target, details[], request_id}}      | code          | message     | target     | request_id             |
// | campaigns V5                 | {response_id, error:{code, message, target?, details[]}}    | code          | message     | target     | request_id/response_id |
// | file-import 404 / 405        | {status:'fail', data} / {status:'fail', message}            |               | data/message|            |                        |
// | plain text (a gateway page)  | text                                                        |               | text (≤200) |            |                        |

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);

/** Keeps only the defined fields, so `toEqual` comparisons and logs stay clean. */
function compact(detail: UpstreamErrorDetail): UpstreamErrorDetail {
  const out: UpstreamErrorDetail = {};
  for (const key of Object.keys(detail) as Array<keyof UpstreamErrorDetail>) {
    if (detail[key] !== undefined && detail[key] !== '') (out as Record<string, unknown>)[key] = detail[key];
  }
  return out;
}

function readDetails(value: unknown): UpstreamErrorDetail['details'] {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isRecord).map((d) => {
    const item: { target?: string; message?: unknown; code?: string } = {};
    if (str(d.target) !== undefined) item.target = str(d.target);
    // Campaign 401 bodies nest an array of {code, target, message} here: kept as sent.
    if (d.message !== undefined) item.message = d.message;
    if (str(d.code) !== undefined) item.code = str(d.code);
    return item;
  });
}

/**
 * Reads an error body of any upstream family (or the proxy's refusals, which use the same
 * shapes) into `{code, message, target, details, requestId}`. Unknown shapes give `{}`; text
 * gives its first 200 characters as `message`.
 *
 * @example
 * parseUpstreamError({ status: 'fail', error: { attribute: 'customer_id', message: 'customer_id is not found in the payload', type: 'MissingAttributeError', request_id: 'kQzPwLmA' } });
 * // { code: 'MissingAttributeError', message: 'customer_id is not found in the payload', target: 'customer_id', requestId: 'kQzPwLmA' }
 */
export function parseUpstreamError(body: unknown): UpstreamErrorDetail {
  if (typeof body === 'string') return compact({ message: body.trim().slice(0, 200) });
  if (!isRecord(body)) return {};
  const error = body.error;
  if (isRecord(error)) {
    if (body.status === 'fail') {
      return compact({ code: str(error.type), message: str(error.message), target: str(error.attribute), requestId: str(error.request_id) });
    }
    // Campaign envelopes (V1, V5): `request_id` inside `error`; V5 adds `response_id` outside.
    return compact({
      code: str(error.code),
      message: str(error.message),
      target: str(error.target),
      details: readDetails(error.details),
      requestId: str(error.request_id) || str(body.response_id),
    });
  }
  if ('title' in body || 'description' in body) {
    return compact({ code: str(body.title), message: str(body.description), requestId: str(body.code) });
  }
  if ('error_type' in body) return compact({ code: str(body.error_type), message: str(body.message) });
  if (body.success === false) return compact({ code: str(body.status_code), message: str(body.data) });
  return compact({ message: str(body.message) ?? str(body.data) });
}

/**
 * Milliseconds a `Retry-After` header asks for (delta-seconds or an HTTP date), or undefined.
 *
 * @example
 * parseRetryAfter('5'); // 5000
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
