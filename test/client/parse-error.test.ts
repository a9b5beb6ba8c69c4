// Every error envelope of the facts sheet (§0.3 and the per-operation tables), as the shared body
// builder of the emulator and proxy produces them, and as the public material shows them.
import { describe, expect, it } from 'vitest';
import { parseRetryAfter, parseUpstreamError } from '../../src/client/parse-error';
import { errorBody } from '../../src/upstream/error-bodies';
import type { Operation } from '../../src/upstream/operations';

describe('parseUpstreamError: bodies built by the shared upstream rules', () => {
  const cases: Array<[Operation, number, string | RegExp]> = [
    ['users', 400, 'MissingAttributeError'],
    ['users', 401, 'Authentication required'],
    ['users', 403, 'BlockedClient'],
    ['users', 413, 'PayloadTooLarge'],
    ['users', 415, 'MediaTypeError'],
    ['users', 429, 'RateLimitError'],
    ['users', 500, 'ServerError'],
    ['events', 415, 'Unsupported media type'],
    ['events', 429, 'Rate Limits Exceeded'],
    ['campaignUpdate', 400, '400 Bad Request'],
    ['campaignUpdate', 401, '401 Authentication error'],
    ['campaignUpdate', 404, '404 Not Found'],
    ['campaignUpdate', 429, '429 conflict'],
    ['campaignUpdate', 500, '500 Internal Server Error'],
    ['fileImportStatus', 401, 'AuthenticationInvalid'],
    ['fileImportStatus', 403, 'BlockedClient'],
    ['fileImportStatus', 415, 'Unsupported media type'],
    ['fileImportStatus', 429, 'Rate Limits Exceeded'],
    ['fileImportStatus', 500, 'Server Error'],
    ['experienceEvents', 400, 'Invalid Field Value'],
    ['experienceEvents', 401, 'Authentication required'],
  ];
  it.each(cases)('%s %i → code %s and a message', (operation, status, code) => {
    const input =
      status === 400 && operation !== 'experienceEvents'
        ? { field: 'customer_id', rule: 'is not found in the payload', status, type: 'MissingAttributeError' }
        : { status };
    const parsed = parseUpstreamError(errorBody(operation, input, 'ReqIdAbc'));
    expect(parsed.code).toBe(code);
    expect(parsed.message).toMatch(/\w/);
  });

  it('standard data: attribute → target, request_id → requestId', () => {
    expect(
      parseUpstreamError(errorBody('users', { field: 'customer_id', rule: 'is not found in the payload', status: 400, type: 'MissingAttributeError' }, 'ReqIdAbc')),
    ).toEqual({
      code: 'MissingAttributeError',
      message: 'customer_id is not found in the payload',
      target: 'customer_id',
      requestId: 'ReqIdAbc',
    });
  });

  it('file-import 400: error_type → code; the enum-case body: status_code → code, data → message', () => {
    expect(
      parseUpstreamError(errorBody('fileImportStatus', { field: 'offset', rule: 'must be an integer of at least 1', status: 400, type: 'Invalid Offset Value' })),
    ).toMatchObject({
      code: 'Invalid Offset Value',
      message: expect.stringContaining('offset value'),
    });
    expect(parseUpstreamError({ success: false, status_code: '400 Bad Request', data: 'Unable to process the request' })).toEqual({
      code: '400 Bad Request',
      message: 'Unable to process the request',
    });
  });

  it('file-import 404 and 405 bodies', () => {
    expect(parseUpstreamError({ status: 'fail', data: 'Resource not found.' })).toEqual({ message: 'Resource not found.' });
    expect(parseUpstreamError({ status: 'fail', message: 'Method not allowed' })).toEqual({ message: 'Method not allowed' });
  });

  it('campaign V1 400 as documented (section 7 example): all five fields', () => {
    const body = {
      error: {
        code: '400 Bad Request',
        message: 'request_id key is mandatory field',
        target: 'request_id',
        details: [{ target: 'request_id', message: 'request_id key is mandatory field' }],
        request_id: '11',
      },
    };
    expect(parseUpstreamError(body)).toEqual({
      code: '400 Bad Request',
      message: 'request_id key is mandatory field',
      target: 'request_id',
      details: [{ target: 'request_id', message: 'request_id key is mandatory field' }],
      requestId: '11',
    });
  });

  it('campaign V1 401: details[].message kept as the array it is', () => {
    const parsed = parseUpstreamError(errorBody('campaignUpdate', { status: 401 }));
    expect(parsed.details?.[0]).toMatchObject({ code: 'InvalidValue', target: 'APP_SECRET_KEY' });
    expect(Array.isArray(parsed.details?.[0]?.message)).toBe(true);
  });

  it('campaign V5: response_id stands in for a missing request_id', () => {
    expect(parseUpstreamError({ response_id: 'resp-1', error: { code: 'VALIDATION_FAILED', message: 'bad', details: [] } })).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'bad',
      details: [],
      requestId: 'resp-1',
    });
  });

  it('title/description: title → code, description → message, code (an opaque id) → requestId', () => {
    expect(parseUpstreamError({ title: 'Invalid Field Value', description: 'x failed', code: 'Ab12Cd34' })).toEqual({
      code: 'Invalid Field Value',
      message: 'x failed',
      requestId: 'Ab12Cd34',
    });
  });

  it('text bodies give their first 200 characters; unknown shapes give {}', () => {
    expect(parseUpstreamError('<html>Bad gateway</html>')).toEqual({ message: '<html>Bad gateway</html>' });
    expect(parseUpstreamError('x'.repeat(500)).message).toHaveLength(200);
    expect(parseUpstreamError(undefined)).toEqual({});
    expect(parseUpstreamError([1, 2])).toEqual({});
    expect(parseUpstreamError({ unexpected: true })).toEqual({});
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('5')).toBe(5000);
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });
});
