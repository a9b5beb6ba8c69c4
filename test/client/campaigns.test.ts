import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client';
import type { PushCampaignContent } from '../../src/client/types';
import { isHttpError, isValidationError } from '../../src/errors';
import { ADMIN_TOKEN, rejection, startStack, type Stack } from './support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const admin = () => createClient({ endpoint: stack.endpoint, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, retryBaseDelayMs: 1 });
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const pushContent = (title: string): PushCampaignContent => ({
  content: {
    push: {
      android: {
        template_type: 'BASIC',
        basic_details: {
          notification_channel: 'general',
          title,
          message: 'Fresh message',
          default_click_action: 'DEEPLINKING',
          default_click_action_value: 'https://example.com/sale',
        },
      },
      ios: { template_type: 'BASIC', basic_details: { title, message: 'Fresh message' } },
    },
  },
});

describe('campaigns.update against the real proxy and emulator', () => {
  it('push: the whole campaign_content replaces the stored one; request_id is filled with a fresh UUID v4', async () => {
    await expect(
      admin().campaigns.update('camp_push_onetime', { channel: 'PUSH', updated_by: 'ops@example.com', campaign_content: pushContent('Sale!') }),
    ).resolves.toBeUndefined();
    const stored = stack.emulator.getCampaign('camp_push_onetime')!;
    expect(stored.update_count).toBe(1);
    expect(stored.updated_by).toBe('ops@example.com');
    expect(stored.last_request_id).toMatch(UUID_V4);
    expect(stored.fields.campaign_content).toEqual(pushContent('Sale!'));
  });

  it('email: a given request_id is kept; Date times are sent as UTC without offset', async () => {
    await admin().campaigns.update('camp_email_onetime', {
      channel: 'EMAIL',
      request_id: 'req-42',
      updated_by: 'ops@example.com',
      scheduling_details: { delivery_type: 'AT_FIXED_TIME', start_time: new Date(Date.UTC(2026, 6, 20, 13, 55)) },
    });
    const stored = stack.emulator.getCampaign('camp_email_onetime')!;
    expect(stored.last_request_id).toBe('req-42');
    expect(stored.fields.scheduling_details).toEqual({ delivery_type: 'AT_FIXED_TIME', start_time: '2026-07-20T13:55:00' });
  });

  it.each([['../camp_push_onetime'], ['camp%2F..'], ['camp/../../v1/customer'], ['camp\r\nX-Injected: 1'], ['']])(
    'refuses the campaign id %j before sending',
    async (id) => {
      const before = stack.requests('campaignUpdate').length;
      const error = await rejection(admin().campaigns.update(id, { channel: 'PUSH', updated_by: 'ops@example.com' }));
      expect(isValidationError(error) && error.field).toBe('campaignId');
      expect(stack.requests('campaignUpdate').length).toBe(before);
    },
  );

  it.each([
    [{ channel: 'PUSH', updated_by: 'not-an-email' }, 'updated_by'],
    [{ channel: 'PUSH', updated_by: 'ops@example.com', connector: {} }, 'connector'],
    [{ channel: 'EMAIL', updated_by: 'ops@example.com', campaign_content: pushContent('x') }, 'campaign_content.content.push'],
    [
      { channel: 'PUSH', updated_by: 'ops@example.com', campaign_content: { content: { push: { android: { template_type: 'BASIC', basic_details: { title: 't' } } } } } },
      'campaign_content.content.push.android.basic_details.notification_channel',
    ],
    [{ channel: 'PUSH', updated_by: 'ops@example.com', utm_params: { utm_source: 'x' } }, 'utm_params.utm_medium'],
    // The push `advanced` group (issue 35): the client runs the emulator's rules, so these never leave.
    [{ channel: 'PUSH', updated_by: 'ops@example.com', advanced: { apns_priority: '7' } }, 'advanced.apns_priority'],
    [{ channel: 'PUSH', updated_by: 'ops@example.com', advanced: { relevance_score: 0.3 } }, 'advanced.relevance_score'],
    [{ channel: 'PUSH', updated_by: 'ops@example.com', advanced: { expire_notification_after_type: 'WEEK' } }, 'advanced.expire_notification_after_type'],
  ])('refuses an incomplete or mixed body before sending (%#: %s)', async (body, field) => {
    const before = stack.requests('campaignUpdate').length;
    const error = await rejection(admin().campaigns.update('camp_push_onetime', body as never));
    expect(isValidationError(error)).toBe(true);
    expect(error.field).toBe(field);
    expect(stack.requests('campaignUpdate').length).toBe(before);
  });

  it('a dashboard campaign: the upstream 400 comes back parsed from the V1 envelope (code, message, target, details, request_id)', async () => {
    const error = await rejection(
      admin().campaigns.update('camp_push_dashboard', { channel: 'PUSH', request_id: 'req-dash', updated_by: 'ops@example.com', campaign_content: pushContent('x') }),
    );
    expect(isHttpError(error)).toBe(true);
    expect(error.status).toBe(400);
    expect(error.upstream.code).toBe('400 Bad Request');
    expect(error.upstream.message).toMatch(/\w/);
    expect(Array.isArray(error.upstream.details)).toBe(true);
    // The V1 body echoes the caller's request_id.
    expect(error.upstream.requestId).toBe('req-dash');
    expect(error.body).toHaveProperty('error.code', '400 Bad Request');
  });

  it('an unknown campaign is a 404 HttpError', async () => {
    const error = await rejection(admin().campaigns.update('camp_does_not_exist', { channel: 'PUSH', updated_by: 'ops@example.com' }));
    expect(isHttpError(error) && error.status).toBe(404);
    expect(error.upstream.code).toBe('404 Not Found');
  });

  it('without the admin token the proxy refuses (403, V1 shape) and nothing reaches the upstream', async () => {
    const before = stack.requests('campaignUpdate').length;
    const client = createClient({ endpoint: stack.endpoint });
    const error = await rejection(client.campaigns.update('camp_push_onetime', { channel: 'PUSH', updated_by: 'ops@example.com' }));
    expect(isHttpError(error) && error.status).toBe(403);
    expect(error.upstream.code).toBe('403 Forbidden');
    expect(stack.requests('campaignUpdate').length).toBe(before);
  });

  it('headers may be a function, called per request', async () => {
    let calls = 0;
    const client = createClient({
      endpoint: stack.endpoint,
      headers: async () => {
        calls++;
        return { Authorization: `Bearer ${ADMIN_TOKEN}` };
      },
    });
    await client.campaigns.update('camp_push_periodic', { channel: 'PUSH', updated_by: 'ops@example.com', campaign_content: pushContent('Hi') });
    expect(calls).toBe(1);
  });

  it('a rotated campaign key upstream: 401 with the V1 body (details[].message is an array), not repeated', async () => {
    const s = await startStack();
    try {
      s.emulator.rotateKey('campaign');
      const client = createClient({ endpoint: s.endpoint, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, retryBaseDelayMs: 1 });
      const error = await rejection(client.campaigns.update('camp_push_onetime', { channel: 'PUSH', updated_by: 'ops@example.com' }));
      expect(error.status).toBe(401);
      expect(error.upstream).toMatchObject({ code: '401 Authentication error', message: 'Authentication required' });
      expect(error.upstream.details[0]).toMatchObject({ code: 'InvalidValue', target: 'APP_SECRET_KEY' });
      expect(Array.isArray(error.upstream.details[0].message)).toBe(true);
      expect(s.requests('campaignUpdate').length).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('429 is retried (refused before processing) and the update applies once; 500 is not repeated', async () => {
    const s = await startStack();
    try {
      const client = createClient({ endpoint: s.endpoint, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, retryBaseDelayMs: 1 });
      s.emulator.setFaults({ statuses: [429], retryAfterSeconds: 0, count: 1, operations: ['campaignUpdate'] });
      await client.campaigns.update('camp_push_onetime', { channel: 'PUSH', updated_by: 'ops@example.com', campaign_content: pushContent('A') });
      expect(s.requests('campaignUpdate').map((r) => r.status)).toEqual([429, 204]);
      expect(s.emulator.getCampaign('camp_push_onetime')!.update_count).toBe(1);

      s.emulator.setFaults({ statuses: [500], count: 1, operations: ['campaignUpdate'] });
      const error = await rejection(client.campaigns.update('camp_push_onetime', { channel: 'PUSH', updated_by: 'ops@example.com', campaign_content: pushContent('B') }));
      expect(error.status).toBe(500);
      expect(error.upstream.code).toBe('500 Internal Server Error');
      expect(s.requests('campaignUpdate').length).toBe(3);
    } finally {
      await s.close();
    }
  });
});
