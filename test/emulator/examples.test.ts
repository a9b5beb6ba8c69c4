// Every request example of the spec and of the facts sheet (the upstream's published examples,
// in our svc_ naming), sent verbatim to the real emulator: each must be accepted.
import { describe, expect, it } from 'vitest';
import { anyId, call, dataOk, useEmulator, XP_ATTRIBUTES } from './helpers.ts';

// The click examples carry the impression's attributes plus b_id.
const clickAttributes = { ...XP_ATTRIBUTES, b_id: 'Add to Cart' };
const xp = (customer: string, action: string, uuid: string, time: number, attributes: object, userAttributes?: object) => ({
  elements: [
    {
      customer_id: customer,
      ...(userAttributes ? { user_attributes: userAttributes } : {}),
      user_timezone_offset: 19800,
      actions: [{ action, svc_event_uuid: uuid, event_time: time, platform: 'web', attributes }],
    },
  ],
});
const SHOWN = 'SVC_PERSONALIZATION_MESSAGE_SHOWN';
const CLICKED = 'SVC_PERSONALIZATION_MESSAGE_CLICKED';
const newUser = { name: 'John Doe', first_name: 'John', last_name: 'Doe' };

const EXPERIENCE_EXAMPLES: Record<string, unknown> = {
  'Impression (Existing User)': xp(
    '<unique user identifier like email or phone number. Eg: john@example.com>',
    SHOWN,
    'aa886712-4537-47c1-b126-2686efda2e26',
    1725258666,
    XP_ATTRIBUTES,
  ),
  'Impression (New User)': xp('john@example.com', SHOWN, 'aa886712-4537-47c1-b126-2686efda2e26', 1725258666, XP_ATTRIBUTES, newUser),
  'Impression (Anonymous User)': xp('<identifier for the user for the session>', SHOWN, 'aa886712-4537-47c1-b126-2686efda2e26', 1725258666, XP_ATTRIBUTES),
  'Click (Existing User)': xp(
    '<unique user identifier like email or phone number. Eg: john@example.com>',
    CLICKED,
    'aa886712-4537-47c1-b126-2686efda2e26',
    1725258666,
    clickAttributes,
  ),
  'Click (New User)': xp('john@example.com', CLICKED, 'bb997812-4537-47c1-b126-2686efda2e27', 1725258670, clickAttributes, newUser),
  'Click (Anonymous User)': xp('<identifier for the user for the session>', CLICKED, 'aa886712-4537-47c1-b126-2686efda2e26', 1725258666, clickAttributes),
};

const USER_EXAMPLES: Record<string, unknown> = {
  'Standard Example': {
    type: 'customer',
    customer_id: 'john@example.com',
    attributes: { name: 'JohnDoe', first_name: 'John', platforms: [{ platform: 'ANDROID', active: 'true' }] },
  },
  'User property as Date/Time': {
    type: 'customer',
    customer_id: 'john@example.com',
    update_existing_only: true,
    attributes: {
      points: 20,
      expiry_date: '2020-05-31T03:47:35Z',
      super_user: true,
      user_persona: 'browsers',
      platforms: [{ platform: 'ANDROID', active: 'true' }],
    },
  },
  'User property as Array': {
    type: 'customer',
    customer_id: '123',
    attributes: {
      removeValueFromArrayField: {},
      addValueToArrayField: { attribute1: ['abc', 'def'], attribute2: ['a'], attribute3: ['123'] },
      platforms: [{ platform: 'iOS', active: 'true' }],
    },
  },
};

const EVENT_EXAMPLES: Record<string, unknown> = {
  'Standard Example': {
    type: 'event',
    customer_id: '123',
    actions: [
      {
        action: 'ProductAdded',
        attributes: { product: 'Accessories', color: 'Black', Brand: 'Adidas' },
        platform: 'Android',
        app_version: '1.2.3',
        user_time: '1708939453396',
        current_time: '1708939453396',
      },
    ],
  },
  'Event property as Date/Time': {
    type: 'event',
    customer_id: 'john@example.com',
    actions: [
      {
        action: 'Flight Booked',
        attributes: { price: 3999, departure_date: '2019-05-21T03:47:35Z', premium_seat: true },
        platform: 'iOS',
        app_version: '1.2.3',
        current_time: 1433837969,
        user_timezone_offset: 19800,
      },
    ],
  },
  'Event property as Array': {
    type: 'event',
    customer_id: 'John',
    actions: [
      {
        action: 'product_selected',
        attributes: { product: 'Shirt', color: 'Green', arraySupport: ['abc', 'xyz'], Brand: 'Adidas' },
        platform: 'TV',
        svc_os_type: 'Xbox',
        app_version: '1.2.3',
        user_time: '1710740192',
        current_time: '1710740192',
      },
    ],
  },
};
// Needs a workspace with identity resolution on svc_mobile (the example's premise).
const EVENT_IDENTIFIERS_EXAMPLE = {
  type: 'event',
  user_identifiers: { svc_mobile: '{{Mobile_Number}}' },
  actions: [
    {
      action: 'product_selected',
      attributes: { product: 'Shirt', color: 'Green', svc_os_type: 'Xbox', arraySupport: ['abc', 'xyz'], Brand: 'Adidas' },
      platform: 'TV',
      app_version: '1.2.3',
      user_time: '1710740192',
      current_time: '1710740192',
    },
  ],
};

const CAMPAIGN_EXAMPLES: Array<[string, string, unknown]> = [
  [
    'Push - Update Content',
    'camp_abc123xyz',
    {
      request_id: 'push_update_12345',
      updated_by: 'john.doe@example.com',
      campaign_content: {
        content: {
          push: {
            android: {
              template_type: 'BASIC',
              basic_details: {
                notification_channel: 'general',
                title: 'Updated Title - Flash Sale!',
                message: 'Updated Message - Only 2 hours left!',
                default_click_action: 'DEEPLINKING',
                default_click_action_value: 'https://example.com/flash-sale',
              },
            },
            ios: {
              template_type: 'BASIC',
              basic_details: {
                title: 'Updated Title - Flash Sale!',
                message: 'Updated Message - Only 2 hours left!',
                default_click_action: 'DEEPLINKING',
                default_click_action_value: 'https://example.com/flash-sale',
              },
            },
          },
        },
      },
    },
  ],
  [
    'Email - Update Content',
    'camp_email_onetime',
    {
      request_id: 'email_update_12345',
      updated_by: 'john.doe@example.com',
      campaign_content: {
        content: {
          email: {
            subject: 'Updated Subject - Last Chance for 50% Off!',
            preview_text: 'Sale ends tonight',
            sender_name: 'Engage Store',
            from_address: 'noreply@example.com',
            reply_to_address: 'support@example.com',
            html_content: '<!DOCTYPE html><html><body><h1>Last Chance!</h1><p>Sale ends tonight!</p></body></html>',
          },
        },
      },
    },
  ],
  [
    'Push - Update Scheduling',
    'camp_push_onetime',
    { request_id: 'push_sched_update', updated_by: 'john.doe@example.com', scheduling_details: { expiry_time: '2026-07-20T13:55:00' } },
  ],
];

const FILE_IMPORT_EXAMPLES: Record<string, unknown> = {
  'all the filters passed': {
    import_name: 'test_import',
    import_type: ['USERS', 'EVENTS', 'AUX_DATA'],
    date: { start_date: '14/11/2024', end_date: '14/11/2024', format: 'DD/MM/YYYY' },
    schedule_type: ['PERIODIC', 'ONETIME'],
    file_source: ['SFTP', 'S3', 'CSV'],
    schedule_status: ['SUCCESSFUL', 'FAILED', 'PARTIAL_SUCCESS', 'SCHEDULED', 'PROCESSING', 'QUEUED', 'ARCHIVED'],
    offset: '1',
  },
  'no filters passed': {},
};

const h = useEmulator({}, { reset: false });
const ir = useEmulator({ identityResolution: { identifiers: ['svc_mobile'] } }, { reset: false });

describe('upstream request examples are accepted verbatim', () => {
  for (const [name, body] of Object.entries(EXPERIENCE_EXAMPLES)) {
    it(`experience events: ${name}`, async () => {
      const res = await call(h, 'experienceEvents', body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', message: 'Your request has been accepted and will be processed soon.', req_id: anyId });
    });
  }
  for (const [name, body] of Object.entries(USER_EXAMPLES)) {
    it(`users: ${name}`, async () => {
      const res = await call(h, 'users', body);
      expect(res).toMatchObject(dataOk);
    });
  }
  for (const [name, body] of Object.entries(EVENT_EXAMPLES)) {
    it(`events: ${name}`, async () => {
      const res = await call(h, 'events', body);
      expect(res).toMatchObject(dataOk);
    });
  }
  it('events: Using User Identifiers (identity resolution on svc_mobile)', async () => {
    const res = await call(ir, 'events', EVENT_IDENTIFIERS_EXAMPLE);
    expect(res).toMatchObject({ status: 200, body: { status: 'success' } });
  });
  for (const [name, id, body] of CAMPAIGN_EXAMPLES) {
    it(`campaign update: ${name}`, async () => {
      const res = await call(h, 'campaignUpdate', body, { campaignId: id });
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
    });
  }
  for (const [name, body] of Object.entries(FILE_IMPORT_EXAMPLES)) {
    it(`file-import status: ${name}`, async () => {
      const res = await call(h, 'fileImportStatus', body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'success', offset: 1, total_count: expect.any(Number), more_files: expect.any(Boolean) });
    });
  }

  it('stores what the examples sent: unique experience events once, duplicates counted', async () => {
    const { emulator } = h;
    const xpState = emulator.getExperienceEvents();
    // Five of the six examples reuse one UUID: stored once, the other four counted.
    expect(xpState.unique).toBe(2);
    expect(xpState.duplicates).toBe(4);
    expect(emulator.getEvents().count).toBe(3);
    expect(emulator.getCampaign('camp_push_onetime')!.fields.scheduling_details).toEqual({ expiry_time: '2026-07-20T13:55:00' });
  });
});
