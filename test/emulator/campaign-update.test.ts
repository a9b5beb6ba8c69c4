// Conformance: PATCH /core-services/v1/campaigns/{campaign_id} — one accepted and one refused per rule.
import { describe, expect, it } from 'vitest';
import { admin, anyId, basic, call, KEYS, start, useEmulator } from './helpers.ts';

const h = useEmulator({ limits: { campaignUpdatesPerSecond: 1000, campaignUpdatesPerMinute: 1000 } });

const base = { request_id: 'req-1', updated_by: 'ops@example.com' };
const bad = (target: string, message: string, requestId: unknown = 'req-1') => ({
  status: 400,
  body: { error: { code: '400 Bad Request', message, target, details: [{ target, message }], request_id: requestId } },
});
const patch = (id: string, body: unknown) => call(h, 'campaignUpdate', body, { campaignId: id });
const androidContent = (title: string) => ({
  content: {
    push: {
      android: {
        template_type: 'BASIC',
        basic_details: {
          notification_channel: 'general',
          title,
          message: 'Hi',
          default_click_action: 'DEEPLINKING',
          default_click_action_value: 'https://example.com/',
        },
      },
    },
  },
});
const segmentation = { included_filters: { filter_operator: 'and', filters: [{ filter_type: 'actions', action_name: 'Viewed' }] } };

describe('campaign update: body rules', () => {
  it('request_id is mandatory: the exact 400 body of section 7', async () => {
    const res = await patch('camp_abc123xyz', { updated_by: 'ops@example.com' });
    expect(res).toMatchObject(bad('request_id', 'request_id key is mandatory field', anyId));
    expect(res.body).toEqual({
      error: {
        code: '400 Bad Request',
        message: 'request_id key is mandatory field',
        target: 'request_id',
        details: [{ target: 'request_id', message: 'request_id key is mandatory field' }],
        request_id: expect.any(String),
      },
    });
    expect(await patch('camp_abc123xyz', base)).toMatchObject({ status: 204 });
  });

  it('updated_by: mandatory, an e-mail address', async () => {
    expect(await patch('camp_abc123xyz', { request_id: 'req-1' })).toMatchObject(bad('updated_by', 'updated_by key is mandatory field'));
    expect(await patch('camp_abc123xyz', { ...base, updated_by: 'ops' })).toMatchObject(bad('updated_by', 'updated_by must be an e-mail address'));
  });

  it('204 on success with no body; the sent object replaces the stored one whole', async () => {
    const res = await patch('camp_push_onetime', { ...base, campaign_content: androidContent('New title') });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    const stored = await admin(h, 'campaigns/camp_push_onetime');
    // The seeded iOS variant is gone: campaign_content was replaced, not merged.
    expect(stored.body.fields.campaign_content).toEqual(androidContent('New title'));
    expect(stored.body).toMatchObject({ updated_by: 'ops@example.com', last_request_id: 'req-1', update_count: 1 });
    // Fields not sent keep their values.
    expect(stored.body.fields.basic_details.name).toBe('push onetime');
  });

  it('a nested change needs the complete parent object', async () => {
    const partial = { content: { push: { android: { template_type: 'BASIC', basic_details: { title: 'Only the title' } } } } };
    expect(await patch('camp_push_onetime', { ...base, campaign_content: partial })).toMatchObject(
      bad(
        'campaign_content.content.push.android.basic_details.notification_channel',
        'campaign_content.content.push.android.basic_details.notification_channel key is mandatory field',
      ),
    );
    expect(await patch('camp_push_onetime', { ...base, basic_details: { name: 'Renamed' } })).toMatchObject(
      bad('basic_details.platforms', 'basic_details.platforms key is mandatory field'),
    );
  });

  it('push and email bodies differ: email fields are refused in a push campaign and vice versa', async () => {
    const email = { content: { email: { subject: 'S', sender_name: 'N', from_address: 'a@example.com', reply_to_address: 'b@example.com' } } };
    expect(await patch('camp_push_onetime', { ...base, campaign_content: email })).toMatchObject(
      bad('campaign_content.content.email', 'campaign_content.content.email is not allowed in a push campaign'),
    );
    expect(await patch('camp_push_onetime', { ...base, connector: { connector_type: 'SMTP' } })).toMatchObject(
      bad('connector', 'connector is not a field of a push campaign update'),
    );
    expect(await patch('camp_email_onetime', { ...base, campaign_content: email })).toMatchObject({ status: 204 });
    expect(await patch('camp_email_onetime', { ...base, channel: 'PUSH' })).toMatchObject(bad('channel', 'channel must be EMAIL, the channel of this campaign'));
  });

  it('enums are checked (template type, click action, delivery type)', async () => {
    const content = androidContent('T');
    (content.content.push.android.basic_details as Record<string, unknown>).default_click_action = 'OPEN_APP';
    expect(await patch('camp_push_onetime', { ...base, campaign_content: content })).toMatchObject(
      bad(
        'campaign_content.content.push.android.basic_details.default_click_action',
        'campaign_content.content.push.android.basic_details.default_click_action must be one of DEEPLINKING, NAVIGATE_TO_A_SCREEN, RICH_LANDING',
      ),
    );
    expect(await patch('camp_push_onetime', { ...base, scheduling_details: { delivery_type: 'SOON' } })).toMatchObject(
      bad('scheduling_details.delivery_type', 'scheduling_details.delivery_type must be one of ASAP, AT_FIXED_TIME, SEND_IN_BTS, SEND_IN_USER_TIMEZONE'),
    );
    expect(await patch('camp_push_onetime', { ...base, scheduling_details: { delivery_type: 'ASAP', start_time: '2026-07-20T13:55:00' } })).toMatchObject({
      status: 204,
    });
  });
});

describe('campaign update: rules of the stored campaign', () => {
  it('campaigns created in the dashboard are refused', async () => {
    for (const id of ['camp_push_dashboard', 'camp_email_dashboard']) {
      expect(await patch(id, base)).toMatchObject(bad('campaign_id', 'campaign_id was created in the dashboard; only campaigns created through the API can be updated'));
    }
  });

  it('the scheduling type is never editable', async () => {
    expect(await patch('camp_push_periodic', { ...base, campaign_delivery_type: 'ONE_TIME' })).toMatchObject(
      bad('campaign_delivery_type', 'campaign_delivery_type cannot be edited: the scheduling type of this campaign is PERIODIC'),
    );
    expect(await patch('camp_push_periodic', { ...base, campaign_delivery_type: 'PERIODIC' })).toMatchObject({ status: 204 });
  });

  it('one-time campaigns: everything but the scheduling type, even after sending', async () => {
    expect(await patch('camp_push_onetime_sent', { ...base, segmentation_details: segmentation })).toMatchObject({ status: 204 });
  });

  it('periodic and event-triggered: editable until an instance is sent, then targeting and start date are locked', async () => {
    expect(await patch('camp_push_periodic', { ...base, segmentation_details: segmentation })).toMatchObject({ status: 204 });
    expect(await patch('camp_email_event', { ...base, trigger_condition: { trigger_delay_type: 'ASAP' } })).toMatchObject({ status: 204 });
    for (const [id, key, value] of [
      ['camp_push_periodic_sent', 'segmentation_details', segmentation],
      ['camp_email_event_sent', 'trigger_condition', { trigger_delay_type: 'ASAP' }],
      ['camp_push_event_sent', 'conversion_goal_details', { goals: [] }],
    ] as const) {
      expect(await patch(id, { ...base, [key]: value })).toMatchObject(bad(key, `${key} cannot be edited after an instance of this campaign was sent`));
    }
    expect(await patch('camp_push_periodic_sent', { ...base, scheduling_details: { start_time: '2026-09-01T10:00:00' } })).toMatchObject(
      bad('scheduling_details.start_time', 'scheduling_details.start_time cannot be edited after an instance of this campaign was sent'),
    );
    expect(
      await patch('camp_push_periodic_sent', { ...base, scheduling_details: { start_time: '2026-01-01T10:00:00', expiry_time: '2026-12-01T10:00:00' } }),
    ).toMatchObject({
      status: 204,
    });
    expect(await patch('camp_push_periodic_sent', { ...base, campaign_content: androidContent('Still editable') })).toMatchObject({ status: 204 });
  });

  it('stopped and archived campaigns take no update', async () => {
    expect(await patch('camp_push_stopped', base)).toMatchObject(bad('campaign_id', 'campaign_id is STOPPED and cannot be updated'));
    expect(await patch('camp_email_archived', base)).toMatchObject(bad('campaign_id', 'campaign_id is ARCHIVED and cannot be updated'));
  });

  it('unknown and path-walking campaign ids are 404', async () => {
    const expected = {
      status: 404,
      body: {
        error: {
          code: '404 Not Found',
          message: 'No campaign exists with this campaign_id',
          target: 'campaign_id',
          details: [{ target: 'campaign_id', message: 'No campaign exists with this campaign_id' }],
          request_id: 'req-1',
        },
      },
    };
    expect(await patch('camp_nope', base)).toMatchObject(expected);
    expect(await patch('..%2F..%2Fv1%2Fevent', base)).toMatchObject(expected);
  });

  it('auth: the campaign key and SVC-APPKEY; the upstream 401 body', async () => {
    const res = await call(h, 'campaignUpdate', base, { headers: { authorization: basic(KEYS.data) } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: {
        code: '401 Authentication error',
        message: 'Authentication required',
        details: [
          {
            code: 'InvalidValue',
            target: 'APP_SECRET_KEY',
            message: [{ code: 'InvalidValue', target: 'APP_SECRET_KEY', message: 'Invalid APP_SECRET_KEY is provided.' }],
          },
        ],
        request_id: '',
      },
    });
    expect((await call(h, 'campaignUpdate', base, { headers: { 'svc-appkey': undefined } })).status).toBe(401);
  });

  it('the admin list shows every seeded combination', async () => {
    const { body } = await admin(h, 'campaigns');
    const list = body.campaigns as Array<Record<string, unknown>>;
    expect(list.length).toBeGreaterThanOrEqual(16);
    for (const channel of ['PUSH', 'EMAIL']) {
      for (const type of ['ONE_TIME', 'PERIODIC', 'EVENT_TRIGGERED']) {
        for (const sent of [true, false]) {
          expect(list.some((c) => c.channel === channel && c.scheduling_type === type && c.instance_sent === sent && c.origin === 'API')).toBe(true);
        }
      }
      expect(list.some((c) => c.channel === channel && c.origin === 'DASHBOARD')).toBe(true);
    }
    expect(list[0]).toEqual({
      id: 'camp_abc123xyz',
      name: 'abc123xyz',
      channel: 'PUSH',
      scheduling_type: 'ONE_TIME',
      origin: 'API',
      instance_sent: false,
      status: 'SCHEDULED',
    });
  });
});

describe('campaign update: rate limits (10/s, 100/min, 6000/h per client)', () => {
  it('refuses the 11th request in a second with the V1 429 body', async () => {
    let t = Date.parse('2026-03-01T00:00:00Z');
    const limited = await start({ now: () => t });
    try {
      for (let i = 0; i < 10; i++) expect((await call(limited, 'campaignUpdate', base)).status).toBe(204);
      const refused = await call(limited, 'campaignUpdate', base);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: {
          code: '429 conflict',
          message: 'rate_limit',
          target: '',
          details: [{ target: 'rate_limit', message: 'Rate limiting breached' }],
          request_id: expect.any(String),
        },
      });
      expect(refused.headers.get('retry-after')).toBe('1');
      t += 1000;
      expect((await call(limited, 'campaignUpdate', base)).status).toBe(204);
    } finally {
      await limited.close();
    }
  });
});
