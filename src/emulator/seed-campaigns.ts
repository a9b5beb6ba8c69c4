import type { CampaignChannel } from '../upstream/campaign-update';

export type SchedulingType = 'ONE_TIME' | 'PERIODIC' | 'EVENT_TRIGGERED';
export type CampaignOrigin = 'API' | 'DASHBOARD';
export type CampaignStatus = 'SCHEDULED' | 'ACTIVE' | 'STOPPED' | 'ARCHIVED';

/** A stored campaign: its identity and state, and the component objects an update replaces. */
export interface Campaign {
  id: string;
  channel: CampaignChannel;
  scheduling_type: SchedulingType;
  origin: CampaignOrigin;
  instance_sent: boolean;
  status: CampaignStatus;
  /** Component objects (`basic_details`, `campaign_content`, ...), as last sent whole. */
  fields: Record<string, unknown>;
  updated_by: string | null;
  last_request_id: string | null;
  update_count: number;
  updated_at: string | null;
}

const push = (title: string) => ({
  content: {
    push: {
      android: {
        template_type: 'BASIC',
        basic_details: {
          notification_channel: 'general',
          title,
          message: 'Seeded message',
          default_click_action: 'DEEPLINKING',
          default_click_action_value: 'https://example.com/',
        },
      },
      ios: { template_type: 'BASIC', basic_details: { title, message: 'Seeded message' } },
    },
  },
});
const email = (subject: string) => ({
  content: {
    email: { subject, sender_name: 'Engage Store', from_address: 'noreply@example.com', reply_to_address: 'support@example.com' },
  },
});

type Row = [id: string, channel: CampaignChannel, type: SchedulingType, origin: CampaignOrigin, sent: boolean, status: CampaignStatus];
// Every combination the editing rules distinguish: channel × scheduling type × origin × sent,
// plus the stopped/archived states. `camp_abc123xyz` is the upstream documentation's example id.
const ROWS: Row[] = [
  ['camp_abc123xyz', 'PUSH', 'ONE_TIME', 'API', false, 'SCHEDULED'],
  ['camp_push_onetime', 'PUSH', 'ONE_TIME', 'API', false, 'SCHEDULED'],
  ['camp_push_onetime_sent', 'PUSH', 'ONE_TIME', 'API', true, 'ACTIVE'],
  ['camp_push_periodic', 'PUSH', 'PERIODIC', 'API', false, 'SCHEDULED'],
  ['camp_push_periodic_sent', 'PUSH', 'PERIODIC', 'API', true, 'ACTIVE'],
  ['camp_push_event', 'PUSH', 'EVENT_TRIGGERED', 'API', false, 'SCHEDULED'],
  ['camp_push_event_sent', 'PUSH', 'EVENT_TRIGGERED', 'API', true, 'ACTIVE'],
  ['camp_email_onetime', 'EMAIL', 'ONE_TIME', 'API', false, 'SCHEDULED'],
  ['camp_email_onetime_sent', 'EMAIL', 'ONE_TIME', 'API', true, 'ACTIVE'],
  ['camp_email_periodic', 'EMAIL', 'PERIODIC', 'API', false, 'SCHEDULED'],
  ['camp_email_periodic_sent', 'EMAIL', 'PERIODIC', 'API', true, 'ACTIVE'],
  ['camp_email_event', 'EMAIL', 'EVENT_TRIGGERED', 'API', false, 'SCHEDULED'],
  ['camp_email_event_sent', 'EMAIL', 'EVENT_TRIGGERED', 'API', true, 'ACTIVE'],
  ['camp_push_dashboard', 'PUSH', 'ONE_TIME', 'DASHBOARD', false, 'SCHEDULED'],
  ['camp_push_dashboard_periodic', 'PUSH', 'PERIODIC', 'DASHBOARD', true, 'ACTIVE'],
  ['camp_email_dashboard', 'EMAIL', 'EVENT_TRIGGERED', 'DASHBOARD', false, 'SCHEDULED'],
  ['camp_push_stopped', 'PUSH', 'PERIODIC', 'API', true, 'STOPPED'],
  ['camp_email_archived', 'EMAIL', 'ONE_TIME', 'API', true, 'ARCHIVED'],
];

/**
 * The seeded campaigns, fresh copies each call (a reset restores them).
 *
 * @example
 * seedCampaigns().find((c) => c.id === 'camp_push_dashboard')?.origin; // 'DASHBOARD'
 */
export function seedCampaigns(): Campaign[] {
  return ROWS.map(([id, channel, type, origin, sent, status]) => {
    const name = id.replace(/^camp_/, '').replace(/_/g, ' ');
    const fields: Record<string, unknown> =
      channel === 'PUSH'
        ? {
            basic_details: {
              name,
              platforms: ['ANDROID', 'IOS'],
              platform_specific_details: { android: { push_amp_plus_enabled: false }, ios: { send_to_all_eligible_device: true } },
            },
            campaign_content: push(`Seeded ${name}`),
          }
        : {
            basic_details: { name, content_type: 'TRANSACTIONAL', user_attribute_identifier: 'SVC_EMAIL_ID' },
            campaign_content: email(`Seeded ${name}`),
          };
    fields.scheduling_details = { delivery_type: type === 'EVENT_TRIGGERED' ? 'ASAP' : 'AT_FIXED_TIME', start_time: '2026-01-01T10:00:00' };
    if (type === 'EVENT_TRIGGERED') {
      fields.trigger_condition = {
        included_filters: {
          filter_operator: 'and',
          filters: [{ filter_type: 'actions', action_name: 'Added to cart', execution: { type: 'atleast', count: 1 }, executed: true }],
        },
        trigger_delay_type: 'ASAP',
      };
    }
    if (type === 'PERIODIC') (fields.scheduling_details as Record<string, unknown>).periodic_details = { sending_frequency: 'DAILY' };
    return {
      id,
      channel,
      scheduling_type: type,
      origin,
      instance_sent: sent,
      status,
      fields,
      updated_by: null,
      last_request_id: null,
      update_count: 0,
      updated_at: null,
    };
  });
}
