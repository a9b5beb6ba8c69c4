// The shared rules as pure functions (no server): what the proxy and the client rely on.
import { describe, expect, it } from 'vitest';
import {
  checkJsonShape,
  errorBody,
  errorResponse,
  eventTimeMs,
  matchProxyPath,
  matchUpstreamPath,
  OPERATIONS,
  parseFileImportQuery,
  parseImportDate,
  upstreamPathFor,
  validate,
  validateCampaignUpdate,
  validateEvents,
  validateExperienceEvents,
  validateFileImportStatus,
  validateUser,
} from '../../src/upstream/index.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const action = (extra: Record<string, unknown> = {}) => ({
  action: 'SVC_PERSONALIZATION_MESSAGE_SHOWN',
  svc_event_uuid: '0f8fad5b-d9cb-469f-a165-70867728950e',
  event_time: NOW / 1000 - 10,
  attributes: { cid: 'c', experience: 'e', svc_locale_id: '0', svc_variation_id: '1', audience_name: 'a', audience_id: 'b' },
  ...extra,
});

describe('routes', () => {
  it('matches upstream and proxy paths to operations', () => {
    expect(matchUpstreamPath('/v1/experiences/events')).toEqual({ operation: 'experienceEvents' });
    expect(matchUpstreamPath('/v1/customer/WS1')).toEqual({ operation: 'users', workspaceId: 'WS1' });
    expect(matchUpstreamPath('/v1/event/WS1/')).toEqual({ operation: 'events', workspaceId: 'WS1' });
    expect(matchUpstreamPath('/core-services/v1/campaigns/camp_1')).toEqual({ operation: 'campaignUpdate', campaignId: 'camp_1' });
    expect(matchUpstreamPath('/v1.0/data/fileimports/import/status')).toEqual({ operation: 'fileImportStatus' });
    expect(matchUpstreamPath('/v1/customer')).toBeUndefined();
    expect(matchProxyPath('/v1/customer')).toEqual({ operation: 'users' });
    expect(matchProxyPath('/v1/event')).toEqual({ operation: 'events' });
    expect(matchProxyPath('/v1/customer/WS1')).toBeUndefined();
    expect(matchProxyPath('/core-services/v1/campaigns/camp_1')).toEqual({ operation: 'campaignUpdate', campaignId: 'camp_1' });
    expect(upstreamPathFor('campaignUpdate', { campaignId: 'a/b' })).toBe('/core-services/v1/campaigns/a%2Fb');
    expect(OPERATIONS.experienceEvents).toMatchObject({ keyTile: 'personalize', appKeyRequired: true, method: 'POST' });
    expect(OPERATIONS.users).toMatchObject({ keyTile: 'data', appKeyRequired: false, maxBodyBytes: 131072 });
    expect(OPERATIONS.campaignUpdate).toMatchObject({ keyTile: 'campaign', method: 'PATCH' });
  });
});

describe('validators return the first problem, or undefined', () => {
  it('experience events', () => {
    expect(validateExperienceEvents({ elements: [{ customer_id: 'u', actions: [action()] }] }, { now: NOW })).toBeUndefined();
    expect(validateExperienceEvents({ elements: [{ customer_id: 'u', actions: [action({ event_time: NOW / 1000 + 61 })] }] }, { now: NOW })).toEqual({
      field: 'elements[0].actions[0].event_time',
      rule: 'must not be in the future (epoch seconds, not milliseconds)',
      status: 400,
      type: 'Invalid Field Value',
    });
    expect(
      validateExperienceEvents({ elements: [{ customer_id: 'u', actions: [action({ event_time: NOW / 1000 + 61 })] }] }, { now: NOW, futureSkewSeconds: 120 }),
    ).toBeUndefined();
  });

  it('users, with and without identity resolution', () => {
    expect(validateUser({ type: 'customer', customer_id: 'u-1' })).toBeUndefined();
    expect(validateUser({ type: 'customer', attributes: { svc_mobile: '+91' } })).toMatchObject({ field: 'customer_id', type: 'MissingAttributeError' });
    expect(validateUser({ type: 'customer', attributes: { svc_mobile: '+91' } }, { identityResolution: { identifiers: ['svc_mobile'] } })).toBeUndefined();
  });

  it('events', () => {
    expect(validateEvents({ type: 'event', customer_id: 'u-1', actions: [{ action: 'A', current_time: NOW / 1000 }] }, { now: NOW })).toBeUndefined();
    expect(validateEvents({ type: 'event', customer_id: 'u-1', actions: [{ action: 'A', current_time: NOW / 1000 + 3600 }] }, { now: NOW })).toMatchObject({
      field: 'actions[0].current_time',
      status: 400,
    });
    expect(eventTimeMs('1708939453396')).toBe(1708939453396);
    expect(eventTimeMs(1708939453)).toBe(1708939453000);
    expect(eventTimeMs('2024-02-26T09:24:13')).toBe(Date.parse('2024-02-26T09:24:13Z'));
    expect(eventTimeMs('soon')).toBeUndefined();
  });

  it('campaign update, with the stored channel', () => {
    expect(validateCampaignUpdate({ request_id: 'r', updated_by: 'a@b.co' })).toBeUndefined();
    expect(validateCampaignUpdate({ updated_by: 'a@b.co' })).toEqual({ field: 'request_id', rule: 'key is mandatory field', status: 400 });
    expect(validateCampaignUpdate({ request_id: 'r', updated_by: 'a@b.co', connector: {} }, { channel: 'PUSH' })).toMatchObject({ field: 'connector' });
    expect(validateCampaignUpdate({ request_id: 'r', updated_by: 'a@b.co', connector: {} }, { channel: 'EMAIL' })).toBeUndefined();
  });

  it('file-import status: normalised query', () => {
    expect(parseFileImportQuery({ import_type: 'USERS', schedule_status: ['FAILED'], offset: '3' })).toEqual({
      query: { importTypes: ['USERS'], scheduleStatuses: ['FAILED'], offset: 3 },
    });
    expect(parseFileImportQuery({ date: { start_date: '01/03/2026', end_date: '02/03/2026', datetime_format: 'DD/MM/YYYY' } }).query?.range).toEqual({
      startMs: Date.UTC(2026, 2, 1),
      endMs: Date.UTC(2026, 2, 3) - 1,
    });
    expect(validateFileImportStatus({ offset: 0 })).toMatchObject({ field: 'offset', type: 'Invalid Offset Value' });
    expect(parseImportDate('29/02/2024 23:59:59', 'DD/MM/YYYY hh:mm:ss')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59));
    expect(parseImportDate('29/02/2023', 'DD/MM/YYYY')).toBeUndefined();
    expect(parseImportDate('2024-1-01', 'YYYY-MM-DD')).toBeUndefined();
  });

  it('validate() guards shape first: depth and __proto__', () => {
    expect(checkJsonShape(JSON.parse('{"a":{"__proto__":1}}'))).toEqual({ field: 'a.__proto__', rule: 'is a reserved key and is not allowed', status: 400 });
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(validate('events', { type: 'event', customer_id: 'u-1', actions: [{ action: 'A', attributes: { x: deep } }] })).toMatchObject({
      rule: 'must not nest deeper than 32 levels',
    });
  });

  it('checkJsonShape judges own keys only, even with something enumerable added to Object.prototype', () => {
    const body = JSON.parse('{"elements":[{"actions":[{"attributes":{"cid":"c1"}}]}],"n":{"m":[1,{"k":2}]}}');
    const proto = Object.prototype as Record<string, unknown>;
    proto.injected = { deeper: {} };
    try {
      expect(checkJsonShape(body)).toBeUndefined();
      expect(checkJsonShape(JSON.parse('{"a":[{"b":{"__proto__":{}}}]}'))).toEqual({
        field: 'a[0].b.__proto__',
        rule: 'is a reserved key and is not allowed',
        status: 400,
      });
    } finally {
      delete proto.injected;
    }
  });
});

describe('error bodies', () => {
  it('builds each operation’s exact shape', async () => {
    expect(errorBody('users', { field: 'customer_id', rule: 'is not found in the payload', status: 400, type: 'MissingAttributeError' }, 'ABCDEFGH')).toEqual({
      status: 'fail',
      error: { attribute: 'customer_id', message: 'customer_id is not found in the payload', type: 'MissingAttributeError', request_id: 'ABCDEFGH' },
    });
    expect(errorBody('events', { status: 429 }, 'X')).toEqual({
      status: 'fail',
      error: { message: 'Rate limits for customers exceeded. Please Try After Some Time', type: 'Rate Limits Exceeded', request_id: 'X' },
    });
    expect(errorBody('experienceEvents', { status: 401 })).toEqual({ title: 'Authentication required', description: 'Invalid API_KEY used in Authentication Header' });
    expect(errorBody('campaignUpdate', { status: 500 })).toEqual({
      error: {
        code: '500 Internal Server Error',
        message: 'Something went wrong. Please contact the support team',
        target: '',
        details: [{ message: 'Something went wrong. Please contact the support team', target: '' }],
      },
    });
    expect(errorBody('fileImportStatus', { status: 404 })).toEqual({ status: 'fail', data: 'Resource not found.' });
    const res = errorResponse('fileImportStatus', { status: 429 }, { retryAfterSeconds: 12.2, requestId: 'R' });
    expect([res.status, res.headers.get('retry-after'), res.headers.get('content-type')]).toEqual([429, '13', 'application/json']);
    expect(await res.json()).toEqual({
      status: 'fail',
      error: { message: 'Rate limits exceeded, please try after some time', type: 'Rate Limits Exceeded', request_id: 'R' },
    });
  });
});

describe('browser safety', () => {
  it('no module under src/upstream imports node: or has top-level side effects', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../src/upstream/', import.meta.url);
    for (const name of readdirSync(dir)) {
      const text = readFileSync(new URL(name, dir), 'utf8');
      expect(text, name).not.toMatch(/from ['"]node:/);
      // Top-level statements are declarations, imports and exports only.
      for (const line of text.split('\n')) {
        if (/^[a-zA-Z]/.test(line)) expect(line, `${name}: ${line}`).toMatch(/^(import|export|const|function|type|interface|let|class)\b/);
      }
    }
  });
});
