// Compile-time proof that wrong bodies do not type-check. Every `@ts-expect-error` below must be
// an error: if the types loosen, tsc reports an unused directive and this file fails.
import { describe, expectTypeOf, it } from 'vitest';
import { createClient, createFileImports } from '../../src/index';
import type { AcceptedResponse, CampaignUpdate, Client, EmailCampaignUpdate, FileImportPage, ImportProgress, PushCampaignUpdate } from '../../src/index';

const client = createClient({ endpoint: '/engage' });
const resolved = createClient({ endpoint: '/engage', identityResolution: { identifiers: ['svc_mobile'] } });

const androidContent = {
  template_type: 'BASIC',
  basic_details: {
    notification_channel: 'general',
    title: 'Sale',
    message: 'Now',
    default_click_action: 'DEEPLINKING',
    default_click_action_value: 'https://example.com',
  },
} as const;

describe('createClient types', () => {
  it('returns the four operation groups; identityResolution selects the variant', () => {
    expectTypeOf(client).toEqualTypeOf<Client<false>>();
    expectTypeOf(resolved).toEqualTypeOf<Client<true>>();
    expectTypeOf(client.users.upsert).returns.toEqualTypeOf<Promise<AcceptedResponse>>();
    expectTypeOf(client.campaigns.update).returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf(client.fileImports.status).returns.toEqualTypeOf<Promise<FileImportPage>>();
    expectTypeOf(createFileImports({ endpoint: '/engage' }).watch('x')).toEqualTypeOf<AsyncGenerator<ImportProgress, void, undefined>>();
  });

  it('users: customer_id required unless identity resolution; enums checked', () => {
    void client.users.upsert({ customer_id: 'u-1', attributes: { u_bd: new Date(), tags: ['a', 'b'], svc_email_optin_status: 'OPTED_OUT' } });
    // @ts-expect-error a missing customer_id does not compile (no identity resolution declared)
    void client.users.upsert({ attributes: { u_fn: 'Ada' } });
    void resolved.users.upsert({ attributes: { svc_mobile: '+15550100' } });
    // @ts-expect-error unknown platform enum value ('Android' is not 'ANDROID')
    void client.users.upsert({ customer_id: 'u-1', platforms: [{ platform: 'Android', active: 'true' }] });
    void client.users.upsert({ customer_id: 'u-1', platforms: [{ platform: 'web', active: 'false' }] });
    // @ts-expect-error `active` is the string "true" or "false" (the upstream's rule), never a boolean
    void client.users.upsert({ customer_id: 'u-1', platforms: [{ platform: 'web', active: true }] });
    // @ts-expect-error unknown opt-in status enum value
    void client.users.upsert({ customer_id: 'u-1', attributes: { svc_email_optin_status: 'SUBSCRIBED' } });
    // @ts-expect-error attributes are JSON scalars, Dates or arrays of those, not nested objects
    void client.users.upsert({ customer_id: 'u-1', attributes: { address: { city: 'Pune' } } });
  });

  it('events: one action or many; enums checked', () => {
    void client.events.track('u-1', { action: 'Viewed', platform: 'web', current_time: new Date() });
    void client.events.track({ customer_id: 'u-1', device_id: 'd-1' }, [{ action: 'A' }, { action: 'B', user_time: 1_700_000_000 }]);
    // @ts-expect-error unknown event platform enum value
    void client.events.track('u-1', { action: 'Viewed', platform: 'desktop' });
    // @ts-expect-error svc_os_type enum
    void client.events.track('u-1', { action: 'Viewed', platform: 'TV', svc_os_type: 'Roku' });
    // @ts-expect-error an action needs its name
    void client.events.track('u-1', { attributes: { a: 1 } });
  });

  it('campaigns: push and email bodies are a discriminated union on channel', () => {
    const push: PushCampaignUpdate = {
      channel: 'PUSH',
      updated_by: 'ops@example.com',
      campaign_content: { content: { push: { android: androidContent } } },
    };
    void client.campaigns.update('camp_1', push);
    void client.campaigns.update('camp_1', { channel: 'EMAIL', updated_by: 'ops@example.com', connector: {} });

    void client.campaigns.update('camp_1', {
      channel: 'PUSH',
      updated_by: 'ops@example.com',
      // @ts-expect-error an email field (connector) in a push body
      connector: { type: 'smtp' },
    });
    void client.campaigns.update('camp_1', {
      channel: 'PUSH',
      updated_by: 'ops@example.com',
      campaign_content: {
        content: {
          push: { android: androidContent },
          // @ts-expect-error email content in a push body
          email: { subject: 's', sender_name: 'n', from_address: 'a@b.co', reply_to_address: 'a@b.co' },
        },
      },
    });
    void client.campaigns.update('camp_1', {
      channel: 'PUSH',
      updated_by: 'ops@example.com',
      // @ts-expect-error an email basic_details field (content_type) in a push body
      basic_details: { name: 'n', platforms: ['ANDROID'], platform_specific_details: {}, content_type: 'PROMOTIONAL' },
    });
    void client.campaigns.update('camp_1', {
      channel: 'PUSH',
      updated_by: 'ops@example.com',
      // @ts-expect-error unknown push platform enum value ('ANDROID' | 'IOS' | 'WEB')
      basic_details: { name: 'n', platforms: ['WINDOWS'], platform_specific_details: {} },
    });
    void client.campaigns.update('camp_1', {
      channel: 'PUSH',
      updated_by: 'ops@example.com',
      // @ts-expect-error unknown Android template type
      campaign_content: { content: { push: { android: { ...androidContent, template_type: 'FANCY' } } } },
    });
    // @ts-expect-error updated_by is required
    void client.campaigns.update('camp_1', { channel: 'EMAIL' });
    const email: EmailCampaignUpdate = { channel: 'EMAIL', updated_by: 'ops@example.com' };
    expectTypeOf(email).toMatchTypeOf<CampaignUpdate>();
  });

  it('file imports: enums and the eight date layouts', () => {
    void client.fileImports.status({
      import_type: ['USERS', 'EVENTS'],
      schedule_status: 'PROCESSING',
      date: { start_date: new Date(), end_date: '14/11/2024', format: 'DD/MM/YYYY' },
    });
    // @ts-expect-error unknown import type enum value (case-sensitive)
    void client.fileImports.status({ import_type: 'users' });
    // @ts-expect-error unknown status enum value
    void client.fileImports.status({ schedule_status: ['DONE'] });
    // @ts-expect-error not one of the eight date layouts
    void client.fileImports.status({ date: { start_date: 'a', end_date: 'b', format: 'MM/DD/YYYY' } });
    // @ts-expect-error offset is a number
    void client.fileImports.status({ offset: '2' });
  });
});
