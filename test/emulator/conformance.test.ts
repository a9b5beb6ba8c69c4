// The conformance table (docs/conformance.md), proven row by row against a real emulator over HTTP:
// each row's bad values are refused with 400 and the operation's error body naming the row's field
// and the rule, and its good values are accepted. A row without a case here, or a case without a
// row, fails the first test: the table cannot drift from the code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, useEmulator, xpAction, xpBody, XP_ATTRIBUTES } from './helpers.ts';

type Op = 'experienceEvents' | 'users' | 'events' | 'campaignUpdate' | 'fileImportStatus';

/** A value the upstream refuses: the field and rule its 400 names (or, where the upstream's body names no field, that exact body). */
interface Bad {
  body: unknown;
  field: string;
  rule: string;
  headers?: Record<string, string | undefined>;
  /** The whole answer, where the upstream's error shape has no place for the field. */
  answer?: unknown;
}
interface Case {
  op: Op;
  /** Seeded campaign the bodies are sent to (campaign update). */
  campaign?: string;
  /** The emulator with identity resolution on. */
  identityResolution?: boolean;
  bad: Bad[];
  good: unknown[];
}

interface Row {
  id: string;
  operation: string;
  field: string;
  open: boolean;
}

const TABLE = new URL('../../docs/conformance.md', import.meta.url);
const OPERATION_NAMES: Record<Op, string> = {
  campaignUpdate: 'campaign update',
  users: 'track user',
  events: 'track event',
  experienceEvents: 'experience events',
  fileImportStatus: 'file-import status',
};

/** The table's rows: `| id | operation | field | rule | facts | note |`. */
function readRows(): Row[] {
  const rows: Row[] = [];
  for (const line of readFileSync(TABLE, 'utf8').split('\n')) {
    const cells = /^\| `([a-z0-9-]+)` \|/.test(line) ? line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '').trim()) : undefined;
    if (!cells) continue;
    const unquote = (cell: string) => cell.replace(/^`|`$/g, '');
    rows.push({ id: unquote(cells[0]!), operation: cells[1]!, field: unquote(cells[2]!), open: /^\*\*open\*\*/.test(cells[5] ?? '') });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Bodies

const base = { request_id: 'req-conf', updated_by: 'ops@example.com' };
const cu = (fields: Record<string, unknown>) => ({ ...base, ...fields });
const PUSH = 'camp_push_onetime';
const EMAIL = 'camp_email_onetime';
const android = (details: Record<string, unknown> = {}, variant: Record<string, unknown> = {}) => ({
  template_type: 'BASIC',
  basic_details: {
    notification_channel: 'general',
    title: 'T',
    message: 'M',
    default_click_action: 'DEEPLINKING',
    default_click_action_value: 'https://example.com/',
    ...details,
  },
  ...variant,
});
const ios = (details: Record<string, unknown> = {}, variant: Record<string, unknown> = {}) => ({
  template_type: 'BASIC',
  basic_details: { title: 'T', message: 'M', ...details },
  ...variant,
});
const web = (details: Record<string, unknown> = {}) => ({
  template_type: 'BASIC',
  basic_details: { title: 'T', message: 'M', redirect_url: 'https://example.com/', ...details },
});
const pushContent = (push: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ campaign_content: { content: { push }, ...extra } });
const email = (fields: Record<string, unknown> = {}) => ({
  subject: 'S',
  sender_name: 'N',
  from_address: 'a@example.com',
  reply_to_address: 'b@example.com',
  ...fields,
});
const emailContent = (fields: Record<string, unknown> = {}) => ({ campaign_content: { content: { email: email(fields) } } });
const pushBasic = (fields: Record<string, unknown> = {}, specific: Record<string, unknown> = { ios: { send_to_all_eligible_device: true } }) => ({
  basic_details: { name: 'N', platforms: ['ANDROID', 'IOS'], platform_specific_details: specific, ...fields },
});
const emailBasic = (fields: Record<string, unknown> = {}) => ({ basic_details: { name: 'N', content_type: 'TRANSACTIONAL', ...fields } });
const promotional = { name: 'N', content_type: 'PROMOTIONAL', subscription_category: 'news' };
const variations = (fields: Record<string, unknown>) => pushContent({ android: android() }, { variation_details: fields });
const sherpa = { distribution_type: 'SHERPA', no_of_variations: 2, sherpa_campaign_duration: 60, sherpa_distribution_metric: 'OPEN RATE' };
const manual = { distribution_type: 'MANUAL', no_of_variations: 2, manual_distribution_percentage: { variation_1: '50', variation_2: '50' } };
const segment = (filter: Record<string, unknown>, group: Record<string, unknown> = {}) => ({
  segmentation_details: { included_filters: { filter_operator: 'and', filters: [filter], ...group } },
});
const SEG = 'segmentation_details.included_filters';
const delay = { trigger_delay_type: 'DELAY', trigger_delay_value: 2, trigger_delay_granularity: 'HOURS', trigger_relation: 'AFTER' };

const user = (fields: Record<string, unknown> = {}) => ({ type: 'customer', customer_id: 'u-conformance', ...fields });
const attrs = (attributes: Record<string, unknown>) => user({ attributes });
const event = (action: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) => ({
  type: 'event',
  customer_id: 'u-conformance',
  actions: [{ action: 'Purchased', ...action }],
  ...fields,
});
const nowSeconds = () => Math.floor(Date.now() / 1000);
const xp = (action: Record<string, unknown> = {}, element: Record<string, unknown> = {}) => xpBody([xpAction(action)], element);
const xpAttributes = (change: Record<string, unknown>) => {
  const attributes: Record<string, unknown> = { ...XP_ATTRIBUTES, ...change };
  for (const key of Object.keys(attributes)) if (attributes[key] === undefined) delete attributes[key];
  return xp({ attributes });
};
const ENUM_ANSWER = { success: false, status_code: '400 Bad Request', data: 'Unable to process the request' };
const day = (d: number) => `${String(d).padStart(2, '0')}/03/2026`;

// ---------------------------------------------------------------------------------------------
// One case per row of docs/conformance.md

const CASES: Record<string, Case> = {
  // --- Campaign update: the body ---
  'cu-request-id': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: { updated_by: 'ops@example.com' }, field: 'request_id', rule: 'key is mandatory field' }],
    good: [base],
  },
  'cu-request-id-string': { op: 'campaignUpdate', campaign: PUSH, bad: [{ body: cu({ request_id: 7 }), field: 'request_id', rule: 'must be a string' }], good: [base] },
  'cu-updated-by': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      { body: { request_id: 'r' }, field: 'updated_by', rule: 'key is mandatory field' },
      { body: cu({ updated_by: 'ops' }), field: 'updated_by', rule: 'must be an e-mail address' },
    ],
    good: [base],
  },
  'cu-channel': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      { body: cu({ channel: 'SMS' }), field: 'channel', rule: 'must be one of PUSH, EMAIL' },
      { body: cu({ channel: 'EMAIL' }), field: 'channel', rule: 'must be PUSH, the channel of this campaign' },
    ],
    good: [base, cu({ channel: 'PUSH' })],
  },
  'cu-push-fields': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu({ campaign_audience_limit: { limit: 5 } }), field: 'campaign_audience_limit', rule: 'is not a field of a push campaign update' }],
    good: [cu({ advanced: { apns_priority: '10' } })],
  },
  'cu-email-fields': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [{ body: cu({ advanced: { apns_priority: '10' } }), field: 'advanced', rule: 'is not a field of a email campaign update' }],
    good: [cu({ connector: { connector_type: 'SMTP' } })],
  },
  'cu-push-name': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu({ basic_details: { platforms: ['ANDROID'], platform_specific_details: {} } }), field: 'basic_details.name', rule: 'key is mandatory field' }],
    good: [cu(pushBasic())],
  },
  'cu-push-platforms': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      { body: cu({ basic_details: { name: 'N', platform_specific_details: {} } }), field: 'basic_details.platforms', rule: 'key is mandatory field' },
      { body: cu(pushBasic({ platforms: ['ANDROID', 'BLACKBERRY'] })), field: 'basic_details.platforms[1]', rule: 'must be one of ANDROID, IOS, WEB' },
    ],
    good: [cu(pushBasic({ platforms: ['ANDROID', 'IOS', 'WEB'] }))],
  },
  'cu-push-platform-details': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu({ basic_details: { name: 'N', platforms: ['ANDROID'] } }), field: 'basic_details.platform_specific_details', rule: 'key is mandatory field' }],
    good: [cu(pushBasic({ platforms: ['ANDROID'] }, {}))],
  },
  'cu-push-ios-audience': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(pushBasic({}, { ios: { send_to_all_eligible_device: false } })),
        field: 'basic_details.platform_specific_details.ios',
        rule: 'must set one of send_to_all_eligible_device, exclude_provisional_push_devices, send_to_only_provisional_push_enabled_devices to true',
      },
    ],
    good: [cu(pushBasic({}, { ios: { exclude_provisional_push_devices: true } })), cu(pushBasic({}, { ios: { send_to_only_provisional_push_enabled_devices: true } }))],
  },
  'cu-push-amp-plus': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(pushBasic({}, { android: { push_amp_plus_enabled: 'yes' }, ios: { send_to_all_eligible_device: true } })),
        field: 'basic_details.platform_specific_details.android.push_amp_plus_enabled',
        rule: 'must be a boolean',
      },
    ],
    good: [cu(pushBasic({}, { android: { push_amp_plus_enabled: true }, ios: { send_to_all_eligible_device: true } }))],
  },
  'cu-tags': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu(pushBasic({ tags: 'sale' })), field: 'basic_details.tags', rule: 'must be an array of strings' }],
    good: [cu(pushBasic({ tags: ['sale', 'spring'] }))],
  },
  'cu-business-event': { op: 'campaignUpdate', campaign: 'camp_push_event', bad: [], good: [cu(pushBasic())] },
  'cu-email-content-type': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [
      { body: cu({ basic_details: { name: 'N' } }), field: 'basic_details.content_type', rule: 'key is mandatory field' },
      { body: cu(emailBasic({ content_type: 'MARKETING' })), field: 'basic_details.content_type', rule: 'must be one of PROMOTIONAL, TRANSACTIONAL' },
    ],
    good: [cu(emailBasic())],
  },
  'cu-email-subscription-category': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [{ body: cu(emailBasic({ content_type: 'PROMOTIONAL' })), field: 'basic_details.subscription_category', rule: 'key is mandatory field' }],
    good: [cu({ basic_details: promotional })],
  },
  'cu-email-identifier': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [{ body: cu(emailBasic({ user_attribute_identifier: 1 })), field: 'basic_details.user_attribute_identifier', rule: 'must be a string' }],
    good: [cu(emailBasic()), cu(emailBasic({ user_attribute_identifier: 'SVC_EMAIL_ID' }))],
  },
  'cu-email-double-opt-in': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [{ body: cu(emailBasic({ send_only_double_opt_in_users: 'true' })), field: 'basic_details.send_only_double_opt_in_users', rule: 'must be a boolean' }],
    good: [cu(emailBasic({ send_only_double_opt_in_users: true }))],
  },
  'cu-email-deduplication': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [{ body: cu(emailBasic({ deduplication_attribute: false })), field: 'basic_details.deduplication_attribute', rule: 'must be a string' }],
    good: [cu(emailBasic({ deduplication_attribute: 'u_em' })), cu(emailBasic({ deduplication_attribute: '' }))],
  },
  'cu-content': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu({ campaign_content: { locales: [] } }), field: 'campaign_content.content', rule: 'key is mandatory field' }],
    good: [cu(pushContent({ android: android() }))],
  },
  'cu-content-push': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu({ campaign_content: { content: {} } }), field: 'campaign_content.content.push', rule: 'key is mandatory field' }],
    good: [cu(pushContent({ ios: ios() }))],
  },
  'cu-content-email': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [{ body: cu({ campaign_content: { content: {} } }), field: 'campaign_content.content.email', rule: 'key is mandatory field' }],
    good: [cu(emailContent())],
  },
  'cu-locales': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu(pushContent({ android: android() }, { locales: 'en' })), field: 'campaign_content.locales', rule: 'must be an array' }],
    good: [cu(pushContent({ android: android() }, { locales: [] }))],
  },
  'cu-variation-type': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      { body: cu(variations({ no_of_variations: 2 })), field: 'campaign_content.variation_details.distribution_type', rule: 'key is mandatory field' },
      {
        body: cu(variations({ ...manual, distribution_type: 'RANDOM' })),
        field: 'campaign_content.variation_details.distribution_type',
        rule: 'must be one of SHERPA, MANUAL',
      },
    ],
    good: [cu(variations(manual)), cu(variations(sherpa))],
  },
  'cu-variation-count': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(variations({ ...manual, no_of_variations: 0 })),
        field: 'campaign_content.variation_details.no_of_variations',
        rule: 'must be an integer of at least 1',
      },
      { body: cu(variations({ distribution_type: 'MANUAL' })), field: 'campaign_content.variation_details.no_of_variations', rule: 'key is mandatory field' },
    ],
    good: [cu(variations({ ...manual, no_of_variations: 1, manual_distribution_percentage: { variation_1: '100' } }))],
  },
  'cu-variation-manual': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(variations({ distribution_type: 'MANUAL', no_of_variations: 2 })),
        field: 'campaign_content.variation_details.manual_distribution_percentage',
        rule: 'key is mandatory field',
      },
    ],
    good: [cu(variations(manual))],
  },
  'cu-variation-manual-split': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(variations({ ...manual, manual_distribution_percentage: { variation_1: 50, variation_2: 50 } })),
        field: 'campaign_content.variation_details.manual_distribution_percentage.variation_1',
        rule: 'must be a string percentage',
      },
      {
        body: cu(variations({ ...manual, manual_distribution_percentage: { a: '50' } })),
        field: 'campaign_content.variation_details.manual_distribution_percentage.a',
        rule: 'must be named variation_N',
      },
    ],
    good: [cu(variations(manual))],
  },
  'cu-variation-sherpa-duration': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(variations({ ...sherpa, sherpa_campaign_duration: undefined })),
        field: 'campaign_content.variation_details.sherpa_campaign_duration',
        rule: 'key is mandatory field',
      },
      {
        body: cu(variations({ ...sherpa, sherpa_campaign_duration: 1.5 })),
        field: 'campaign_content.variation_details.sherpa_campaign_duration',
        rule: 'must be an integer',
      },
    ],
    good: [cu(variations(sherpa))],
  },
  'cu-variation-sherpa-metric': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(variations({ ...sherpa, sherpa_distribution_metric: 'OPEN_RATE' })),
        field: 'campaign_content.variation_details.sherpa_distribution_metric',
        rule: 'must be one of OPEN RATE, CLICK RATE, BOTH',
      },
    ],
    good: [
      cu(variations(sherpa)),
      cu(variations({ ...sherpa, sherpa_distribution_metric: 'CLICK RATE' })),
      cu(variations({ ...sherpa, sherpa_distribution_metric: 'BOTH' })),
    ],
  },
  'cu-email-required': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: ['subject', 'sender_name', 'from_address', 'reply_to_address'].map((key) => ({
      body: cu(emailContent({ [key]: '' })),
      field: `campaign_content.content.email.${key}`,
      rule: 'key is mandatory field',
    })),
    good: [cu(emailContent())],
  },
  'cu-email-addresses': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: ['from_address', 'reply_to_address'].map((key) => ({
      body: cu(emailContent({ [key]: 'nobody' })),
      field: `campaign_content.content.email.${key}`,
      rule: 'must be an e-mail address',
    })),
    good: [cu(emailContent())],
  },
  'cu-email-editor': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [{ body: cu(emailContent({ email_editor: 'Word' })), field: 'campaign_content.content.email.email_editor', rule: 'must be one of Froala Editor, Ace Editor' }],
    good: [cu(emailContent({ email_editor: 'Froala Editor' })), cu(emailContent({ email_editor: 'Ace Editor' }))],
  },
  'cu-email-cc-bcc': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [
      { body: cu(emailContent({ cc_ids: 'a@example.com' })), field: 'campaign_content.content.email.cc_ids', rule: 'must be an array of strings' },
      { body: cu(emailContent({ bcc_ids: [1] })), field: 'campaign_content.content.email.bcc_ids[0]', rule: 'must be a string' },
    ],
    good: [cu(emailContent({ cc_ids: ['a@example.com'], bcc_ids: [] }))],
  },
  'cu-email-template-version': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [{ body: cu(emailContent({ custom_template_version: '2' })), field: 'campaign_content.content.email.custom_template_version', rule: 'must be an integer' }],
    good: [cu(emailContent({ custom_template_id: 't-1', custom_template_version: 2 }))],
  },
  'cu-email-attachments': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [
      {
        body: cu(emailContent({ attachments: [{ file_type: 'PDF', url: 'https://example.com/a.pdf' }] })),
        field: 'campaign_content.content.email.attachments[0].file_type',
        rule: 'must be one of URL, PERSONALIZED_ATTACHMENT',
      },
      { body: cu(emailContent({ attachments: {} })), field: 'campaign_content.content.email.attachments', rule: 'must be an array' },
    ],
    good: [
      cu(
        emailContent({
          attachments: [
            { file_type: 'URL', url: 'https://example.com/a.pdf' },
            { file_type: 'PERSONALIZED_ATTACHMENT', url: 'https://example.com/{{id}}' },
          ],
        }),
      ),
    ],
  },
  'cu-gmail-promotional': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [
      {
        body: cu(emailContent({ gmail_annotations: { deal_card: { deal_code: 'SPRING' } } })),
        field: 'campaign_content.content.email.gmail_annotations',
        rule: 'is allowed in PROMOTIONAL campaigns only, not TRANSACTIONAL',
      },
    ],
    good: [cu({ basic_details: promotional, ...emailContent({ gmail_annotations: { deal_card: { deal_code: 'SPRING' } } }) })],
  },
  'cu-gmail-one-kind': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [
      {
        body: cu({ basic_details: promotional, ...emailContent({ gmail_annotations: { deal_card: {}, product_carousel: {} } }) }),
        field: 'campaign_content.content.email.gmail_annotations',
        rule: 'must hold deal_card or product_carousel, not both',
      },
    ],
    good: [cu({ basic_details: promotional, ...emailContent({ gmail_annotations: { product_carousel: {} } }) })],
  },
  'cu-gmail-product-count': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [1, 10].map((count) => ({
      body: cu({ basic_details: promotional, ...emailContent({ gmail_annotations: { product_carousel: { product_set: { product_count: count } } } }) }),
      field: 'campaign_content.content.email.gmail_annotations.product_carousel.product_set.product_count',
      rule: 'must be an integer from 2 to 9',
    })),
    good: [2, 9].map((count) =>
      cu({ basic_details: promotional, ...emailContent({ gmail_annotations: { product_carousel: { product_set: { product_count: count } } } }) }),
    ),
  },
  'cu-gmail-manual-carousel': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [],
    good: [cu({ basic_details: promotional, ...emailContent({ gmail_annotations: { product_carousel: { products: [{ title: 'One' }] } } }) })],
  },
  'cu-android-template': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(pushContent({ android: android({}, { template_type: 'FANCY' }) })),
        field: 'campaign_content.content.push.android.template_type',
        rule: 'must be one of BASIC, STYLIZED_BASIC, SIMPLE_IMAGE_CAROUSEL, IMAGE_BANNER_WITH_TEXT, TIMER, TIMER_WITH_PROGRESS_BAR, Custom',
      },
      {
        body: cu(pushContent({ android: android({}, { template_type: undefined }) })),
        field: 'campaign_content.content.push.android.template_type',
        rule: 'key is mandatory field',
      },
    ],
    good: ['BASIC', 'STYLIZED_BASIC', 'SIMPLE_IMAGE_CAROUSEL', 'IMAGE_BANNER_WITH_TEXT', 'TIMER', 'TIMER_WITH_PROGRESS_BAR'].map((type) =>
      cu(pushContent({ android: android({}, { template_type: type }) })),
    ),
  },
  'cu-android-custom-template': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(pushContent({ android: android({}, { template_type: 'Custom' }) })),
        field: 'campaign_content.content.push.android.custom_template_id',
        rule: 'key is mandatory field',
      },
    ],
    good: [cu(pushContent({ android: android({}, { template_type: 'Custom', custom_template_id: 'tpl-1' }) }))],
  },
  'cu-android-basic-details': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: ['notification_channel', 'title', 'message', 'default_click_action', 'default_click_action_value'].map((key) => ({
      body: cu(pushContent({ android: android({ [key]: undefined }) })),
      field: `campaign_content.content.push.android.basic_details.${key}`,
      rule: 'key is mandatory field',
    })),
    good: [cu(pushContent({ android: android() }))],
  },
  'cu-click-action': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(pushContent({ android: android({ default_click_action: 'OPEN_APP' }) })),
        field: 'campaign_content.content.push.android.basic_details.default_click_action',
        rule: 'must be one of DEEPLINKING, NAVIGATE_TO_A_SCREEN, RICH_LANDING',
      },
    ],
    good: ['DEEPLINKING', 'NAVIGATE_TO_A_SCREEN', 'RICH_LANDING'].map((action) => cu(pushContent({ android: android({ default_click_action: action }) }))),
  },
  'cu-android-buttons': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(
          pushContent({
            android: android(
              {},
              {
                buttons: [
                  { button_name: 'Go', click_action_type: 'DEEPLINKING' },
                  { button_name: 'x', click_action_type: 'DELETE' },
                ],
              },
            ),
          }),
        ),
        field: 'campaign_content.content.push.android.buttons[1].click_action_type',
        rule: 'must be one of DEEPLINKING, NAVIGATE_TO_A_SCREEN, RICH_LANDING, CALL, SHARE, COPY, SET_USER_ATTRIBUTE, TRACK_EVENT, CUSTOM_ACTION, SNOOZE, REMIND_LATER',
      },
    ],
    good: [
      cu(
        pushContent({
          android: android(
            {},
            {
              buttons: ['CALL', 'SHARE', 'COPY', 'SET_USER_ATTRIBUTE', 'TRACK_EVENT', 'CUSTOM_ACTION', 'SNOOZE', 'REMIND_LATER'].map((type) => ({
                click_action_type: type,
              })),
            },
          ),
        }),
      ),
    ],
  },
  'cu-android-slider': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(pushContent({ android: android({}, { template_type: 'SIMPLE_IMAGE_CAROUSEL', slider_transition: 'MANUAL' }) })),
        field: 'campaign_content.content.push.android.slider_transition',
        rule: 'must be one of manual, automatic',
      },
    ],
    good: ['manual', 'automatic'].map((t) => cu(pushContent({ android: android({}, { template_type: 'SIMPLE_IMAGE_CAROUSEL', slider_transition: t }) }))),
  },
  'cu-ios-template': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(pushContent({ ios: ios({}, { template_type: 'TIMER' }) })),
        field: 'campaign_content.content.push.ios.template_type',
        rule: 'must be one of BASIC, STYLIZED_BASIC, SIMPLE_IMAGE_CAROUSEL, Custom',
      },
    ],
    good: ['BASIC', 'STYLIZED_BASIC', 'SIMPLE_IMAGE_CAROUSEL'].map((type) => cu(pushContent({ ios: ios({}, { template_type: type }) }))),
  },
  'cu-ios-basic-details': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: ['title', 'message'].map((key) => ({
      body: cu(pushContent({ ios: ios({ [key]: undefined }) })),
      field: `campaign_content.content.push.ios.basic_details.${key}`,
      rule: 'key is mandatory field',
    })),
    good: [cu(pushContent({ ios: ios() }))],
  },
  'cu-ios-rich-media': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(pushContent({ ios: ios({ rich_media_type: 'IMAGE' }) })),
        field: 'campaign_content.content.push.ios.basic_details.rich_media_type',
        rule: 'must be one of Image, Video, GIF',
      },
    ],
    good: ['Image', 'Video', 'GIF'].map((type) => cu(pushContent({ ios: ios({ rich_media_type: type }) }))),
  },
  'cu-ios-slider': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(pushContent({ ios: ios({}, { template_type: 'SIMPLE_IMAGE_CAROUSEL', slider_transition: 'manual' }) })),
        field: 'campaign_content.content.push.ios.slider_transition',
        rule: 'must be one of MANUAL, AUTOMATIC',
      },
    ],
    good: ['MANUAL', 'AUTOMATIC'].map((t) => cu(pushContent({ ios: ios({}, { template_type: 'SIMPLE_IMAGE_CAROUSEL', slider_transition: t }) }))),
  },
  'cu-web-template': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(pushContent({ web: { ...web(), template_type: 'STYLIZED_BASIC' } })),
        field: 'campaign_content.content.push.web.template_type',
        rule: 'must be one of BASIC',
      },
    ],
    good: [cu(pushContent({ web: web() }))],
  },
  'cu-web-basic-details': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: ['title', 'message', 'redirect_url'].map((key) => ({
      body: cu(pushContent({ web: web({ [key]: undefined }) })),
      field: `campaign_content.content.push.web.basic_details.${key}`,
      rule: 'key is mandatory field',
    })),
    good: [cu(pushContent({ web: web() }))],
  },
  // The push `advanced` group (issue 35).
  'cu-advanced-expire-type': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu({ advanced: { expire_notification_after_type: 'WEEK' } }), field: 'advanced.expire_notification_after_type', rule: "must be one of 'HOUR', 'DAY'" }],
    good: [cu({ advanced: { expire_notification_after_type: 'HOUR' } }), cu({ advanced: { expire_notification_after_type: 'DAY' } })],
  },
  'cu-advanced-inbox-type': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu({ advanced: { remove_from_inbox_after_type: 'HOUR' } }), field: 'advanced.remove_from_inbox_after_type', rule: "must be one of 'DAY'" }],
    good: [cu({ advanced: { remove_from_inbox_after_type: 'DAY' } })],
  },
  'cu-advanced-apns-priority': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      { body: cu({ advanced: { apns_priority: '7' } }), field: 'advanced.apns_priority', rule: "must be one of '1', '5', '10'" },
      { body: cu({ advanced: { apns_priority: 10 } }), field: 'advanced.apns_priority', rule: "must be one of '1', '5', '10'" },
    ],
    good: ['1', '5', '10'].map((p) => cu({ advanced: { apns_priority: p } })),
  },
  'cu-advanced-interruption-level': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu({ advanced: { interruption_level: 'TIME_SENSITIVE' } }),
        field: 'advanced.interruption_level',
        rule: "must be one of 'Passive', 'Active', 'Time sensitive', 'Critical'",
      },
    ],
    good: ['Passive', 'Active', 'Time sensitive', 'Critical'].map((level) => cu({ advanced: { interruption_level: level } })),
  },
  'cu-advanced-relevance-score': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      { body: cu({ advanced: { relevance_score: 0.3 } }), field: 'advanced.relevance_score', rule: 'must be one of 0, 0.5, 1' },
      { body: cu({ advanced: { relevance_score: '0.5' } }), field: 'advanced.relevance_score', rule: 'must be one of 0, 0.5, 1' },
    ],
    good: [0, 0.5, 1].map((score) => cu({ advanced: { relevance_score: score } })),
  },
  'cu-advanced-nesting': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu({ advanced: { ios_priority: { apns_priority: '7' } } }), field: 'advanced.ios_priority.apns_priority', rule: "must be one of '1', '5', '10'" }],
    good: [
      cu({
        advanced: { ios_priority: { apns_priority: '5', interruption_level: 'Active', relevance_score: 0.5 }, expiration: { expire_notification_after_type: 'DAY' } },
      }),
    ],
  },
  'cu-delivery-type': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu({ scheduling_details: { delivery_type: 'SOON' } }),
        field: 'scheduling_details.delivery_type',
        rule: 'must be one of ASAP, AT_FIXED_TIME, SEND_IN_BTS, SEND_IN_USER_TIMEZONE',
      },
    ],
    good: ['ASAP', 'AT_FIXED_TIME', 'SEND_IN_BTS', 'SEND_IN_USER_TIMEZONE'].map((type) => cu({ scheduling_details: { delivery_type: type } })),
  },
  'cu-delivery-type-absent': { op: 'campaignUpdate', campaign: PUSH, bad: [], good: [cu({ scheduling_details: { expiry_time: '2026-12-20T13:55:00' } })] },
  'cu-schedule-times': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu({ scheduling_details: { delivery_type: 'AT_FIXED_TIME', start_time: '20/07/2026 13:55' } }),
        field: 'scheduling_details.start_time',
        rule: 'must be an ISO 8601 date-time in UTC, e.g. 2026-07-20T13:55:00',
      },
      {
        body: cu({ scheduling_details: { delivery_type: 'AT_FIXED_TIME', expiry_time: '2026-07-20T13:55:00+05:30' } }),
        field: 'scheduling_details.expiry_time',
        rule: 'must be an ISO 8601 date-time in UTC, e.g. 2026-07-20T13:55:00',
      },
    ],
    good: [cu({ scheduling_details: { delivery_type: 'AT_FIXED_TIME', start_time: '2026-07-20T13:55:00', expiry_time: '2026-08-20T13:55:00Z' } })],
  },
  'cu-periodic-frequency': {
    op: 'campaignUpdate',
    campaign: 'camp_push_periodic',
    bad: [
      {
        body: cu({ scheduling_details: { delivery_type: 'AT_FIXED_TIME', periodic_details: { sending_frequency: 'HOURLY' } } }),
        field: 'scheduling_details.periodic_details.sending_frequency',
        rule: 'must be one of DAILY, WEEKLY, MONTHLY',
      },
    ],
    good: ['DAILY', 'WEEKLY', 'MONTHLY'].map((f) => cu({ scheduling_details: { delivery_type: 'AT_FIXED_TIME', periodic_details: { sending_frequency: f } } })),
  },
  'cu-periodic-days': {
    op: 'campaignUpdate',
    campaign: 'camp_push_periodic',
    bad: [],
    good: [
      cu({ scheduling_details: { delivery_type: 'AT_FIXED_TIME', periodic_details: { sending_frequency: 'WEEKLY', days_of_week: ['MONDAY'], week_of_month: 'LAST' } } }),
    ],
  },
  'cu-trigger-delay-type': {
    op: 'campaignUpdate',
    campaign: 'camp_email_event',
    bad: [
      { body: cu({ trigger_condition: { trigger_delay_type: 'INTELLIGENT_DELAY' } }), field: 'trigger_condition.trigger_delay_type', rule: 'must be one of DELAY, ASAP' },
    ],
    good: [cu({ trigger_condition: { trigger_delay_type: 'ASAP' } }), cu({ trigger_condition: delay })],
  },
  'cu-trigger-delay-type-push': {
    op: 'campaignUpdate',
    campaign: 'camp_push_event',
    bad: [
      {
        body: cu({ trigger_condition: { trigger_delay_type: 'LATER' } }),
        field: 'trigger_condition.trigger_delay_type',
        rule: 'must be one of DELAY, ASAP, INTELLIGENT_DELAY',
      },
    ],
    good: [cu({ trigger_condition: { trigger_delay_type: 'INTELLIGENT_DELAY' } })],
  },
  'cu-trigger-delay-value': {
    op: 'campaignUpdate',
    campaign: 'camp_push_event',
    bad: [
      { body: cu({ trigger_condition: { ...delay, trigger_delay_value: undefined } }), field: 'trigger_condition.trigger_delay_value', rule: 'key is mandatory field' },
      { body: cu({ trigger_condition: { ...delay, trigger_delay_value: '2' } }), field: 'trigger_condition.trigger_delay_value', rule: 'must be an integer' },
    ],
    good: [cu({ trigger_condition: delay })],
  },
  'cu-trigger-delay-granularity': {
    op: 'campaignUpdate',
    campaign: 'camp_push_event',
    bad: [
      {
        body: cu({ trigger_condition: { ...delay, trigger_delay_granularity: 'WEEKS' } }),
        field: 'trigger_condition.trigger_delay_granularity',
        rule: 'must be one of MINUTES, HOURS, DAYS',
      },
    ],
    good: ['MINUTES', 'HOURS', 'DAYS'].map((g) => cu({ trigger_condition: { ...delay, trigger_delay_granularity: g } })),
  },
  'cu-trigger-relation': {
    op: 'campaignUpdate',
    campaign: 'camp_push_event',
    bad: [{ body: cu({ trigger_condition: { ...delay, trigger_relation: undefined } }), field: 'trigger_condition.trigger_relation', rule: 'key is mandatory field' }],
    good: ['BEFORE', 'AFTER'].map((r) => cu({ trigger_condition: { ...delay, trigger_relation: r } })),
  },
  'cu-filter-operator': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(segment({ filter_type: 'actions', action_name: 'Viewed' }, { filter_operator: 'xor' })),
        field: `${SEG}.filter_operator`,
        rule: 'must be one of and, or',
      },
    ],
    good: ['and', 'or'].map((o) => cu(segment({ filter_type: 'actions', action_name: 'Viewed' }, { filter_operator: o }))),
  },
  'cu-filters': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu({ segmentation_details: { included_filters: { filter_operator: 'and' } } }), field: `${SEG}.filters`, rule: 'key is mandatory field' }],
    good: [cu(segment({ filter_type: 'actions', action_name: 'Viewed' }))],
  },
  'cu-filter-type': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu(segment({ filter_type: 'devices' })), field: `${SEG}.filters[0].filter_type`, rule: 'must be one of user_attributes, actions, custom_segments' }],
    good: [cu(segment({ filter_type: 'custom_segments', id: 'seg-1' }))],
  },
  'cu-filter-user-attributes': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(segment({ filter_type: 'user_attributes', data_type: 'int', name: 'city', operator: 'is' })),
        field: `${SEG}.filters[0].data_type`,
        rule: 'must be one of string, double, datetime, bool',
      },
      { body: cu(segment({ filter_type: 'user_attributes', data_type: 'string', operator: 'is' })), field: `${SEG}.filters[0].name`, rule: 'key is mandatory field' },
      { body: cu(segment({ filter_type: 'user_attributes', data_type: 'string', name: 'city' })), field: `${SEG}.filters[0].operator`, rule: 'key is mandatory field' },
    ],
    good: ['string', 'double', 'datetime', 'bool'].map((t) => cu(segment({ filter_type: 'user_attributes', data_type: t, name: 'city', operator: 'is' }))),
  },
  'cu-filter-project-name': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [],
    good: [cu(segment({ filter_type: 'user_attributes', data_type: 'string', name: 'city', operator: 'is' }))],
  },
  'cu-filter-actions': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu(segment({ filter_type: 'actions' })), field: `${SEG}.filters[0].action_name`, rule: 'key is mandatory field' }],
    good: [cu(segment({ filter_type: 'actions', action_name: 'Viewed' }))],
  },
  'cu-filter-execution': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu(segment({ filter_type: 'actions', action_name: 'Viewed', execution: { type: 'never', count: 1 } })),
        field: `${SEG}.filters[0].execution.type`,
        rule: 'must be one of atleast, atmost, exactly',
      },
    ],
    good: ['atleast', 'atmost', 'exactly'].map((type) => cu(segment({ filter_type: 'actions', action_name: 'Viewed', execution: { type, count: 1 } }))),
  },
  'cu-filter-custom-segments': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu(segment({ filter_type: 'custom_segments' })), field: `${SEG}.filters[0].id`, rule: 'key is mandatory field' }],
    good: [cu(segment({ filter_type: 'custom_segments', id: 42 }))],
  },
  'cu-control-group-percentage': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [101, -1, 12.5].map((p) => ({
      body: cu({ control_group_details: { is_campaign_control_group_enabled: true, campaign_control_group_percentage: p } }),
      field: 'control_group_details.campaign_control_group_percentage',
      rule: 'must be an integer from 0 to 100',
    })),
    good: [0, 100].map((p) => cu({ control_group_details: { is_campaign_control_group_enabled: true, campaign_control_group_percentage: p } })),
  },
  'cu-control-group-enabled': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu({ control_group_details: { is_campaign_control_group_enabled: true } }),
        field: 'control_group_details.campaign_control_group_percentage',
        rule: 'key is mandatory field',
      },
    ],
    good: [cu({ control_group_details: { is_campaign_control_group_enabled: false } })],
  },
  'cu-utm-required': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      { body: cu({ utm_params: { utm_medium: 'push' } }), field: 'utm_params.utm_source', rule: 'key is mandatory field' },
      { body: cu({ utm_params: { utm_source: 'engage' } }), field: 'utm_params.utm_medium', rule: 'key is mandatory field' },
    ],
    good: [cu({ utm_params: { utm_source: 'engage', utm_medium: 'push' } })],
  },
  'cu-utm-custom': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [
      {
        body: cu({ utm_params: { utm_source: 's', utm_medium: 'm', c1: '1', c2: '2', c3: '3', c4: '4', c5: '5', c6: '6' } }),
        field: 'utm_params',
        rule: 'must carry at most 5 custom parameters',
      },
    ],
    good: [cu({ utm_params: { utm_source: 's', utm_medium: 'm', utm_campaign: 'c', utm_term: 't', utm_content: 'x', c1: '1', c2: '2', c3: '3', c4: '4', c5: '5' } })],
  },
  'cu-audience-limit': {
    op: 'campaignUpdate',
    campaign: EMAIL,
    bad: [
      { body: cu({ campaign_audience_limit: { limit: '100' } }), field: 'campaign_audience_limit.limit', rule: 'must be an integer' },
      { body: cu({ campaign_audience_limit: { limit: 100, metrics: 1 } }), field: 'campaign_audience_limit.metrics', rule: 'must be a string' },
      { body: cu({ campaign_audience_limit: { limit: 100, frequency: true } }), field: 'campaign_audience_limit.frequency', rule: 'must be a string' },
    ],
    // V1 is loose: V5's metric SENT and frequency TOTAL|INSTANCE are not required here.
    good: [cu({ campaign_audience_limit: { limit: 100, metrics: 'OPENED', frequency: 'DAILY' } })],
  },
  'cu-throttle': {
    op: 'campaignUpdate',
    campaign: PUSH,
    bad: [{ body: cu({ delivery_controls: { campaign_throttle_rpm: '1000' } }), field: 'delivery_controls.campaign_throttle_rpm', rule: 'must be an integer' }],
    good: [cu({ delivery_controls: { campaign_throttle_rpm: 1000 } }), cu({ delivery_controls: { campaign_throttle_rpm: 1000, queue_duration: 72 } })],
  },
  // --- Campaign update: the stored campaign ---
  'cu-state-dashboard': {
    op: 'campaignUpdate',
    campaign: 'camp_push_dashboard',
    bad: [{ body: base, field: 'campaign_id', rule: 'was created in the dashboard; only campaigns created through the API can be updated' }],
    good: [],
  },
  'cu-state-stopped': {
    op: 'campaignUpdate',
    campaign: 'camp_push_stopped',
    bad: [{ body: base, field: 'campaign_id', rule: 'is STOPPED and cannot be updated' }],
    good: [],
  },
  'cu-state-scheduling-type': {
    op: 'campaignUpdate',
    campaign: 'camp_push_periodic',
    bad: [
      { body: cu({ campaign_delivery_type: 'ONE_TIME' }), field: 'campaign_delivery_type', rule: 'cannot be edited: the scheduling type of this campaign is PERIODIC' },
    ],
    good: [cu({ campaign_delivery_type: 'PERIODIC' })],
  },
  'cu-state-sent-locks': {
    op: 'campaignUpdate',
    campaign: 'camp_push_periodic_sent',
    bad: [
      ...['trigger_condition', 'segmentation_details', 'conversion_goal_details'].map((key) => ({
        body: cu({
          [key]:
            key === 'trigger_condition'
              ? { trigger_delay_type: 'ASAP' }
              : key === 'segmentation_details'
                ? segment({ filter_type: 'actions', action_name: 'Viewed' }).segmentation_details
                : {},
        }),
        field: key,
        rule: 'cannot be edited after an instance of this campaign was sent',
      })),
      {
        body: cu({ scheduling_details: { start_time: '2026-09-01T10:00:00' } }),
        field: 'scheduling_details.start_time',
        rule: 'cannot be edited after an instance of this campaign was sent',
      },
    ],
    good: [cu(pushContent({ android: android() })), cu({ scheduling_details: { expiry_time: '2026-12-01T10:00:00' } })],
  },
  'cu-state-one-time-active': {
    op: 'campaignUpdate',
    campaign: 'camp_push_onetime_sent',
    bad: [],
    good: [cu(segment({ filter_type: 'actions', action_name: 'Viewed' }))],
  },
  'cu-campaign-id': {
    op: 'campaignUpdate',
    campaign: 'camp_does_not_exist',
    bad: [
      {
        body: base,
        field: 'campaign_id',
        rule: 'No campaign exists with this campaign_id',
        answer: { error: { code: '404 Not Found', target: 'campaign_id', message: 'No campaign exists with this campaign_id' } },
      },
    ],
    good: [],
  },

  // --- Track user ---
  'us-type': {
    op: 'users',
    bad: [
      { body: { customer_id: 'u-conformance' }, field: 'type', rule: 'is not found in the payload' },
      { body: user({ type: 'Customer' }), field: 'type', rule: 'must be "customer" (case-sensitive)' },
    ],
    good: [user()],
  },
  'us-customer-id': {
    op: 'users',
    bad: [
      { body: { type: 'customer' }, field: 'customer_id', rule: 'is not found in the payload' },
      { body: user({ customer_id: '' }), field: 'customer_id', rule: 'can not be empty Unicode String' },
    ],
    good: [user()],
  },
  'us-customer-id-length': {
    op: 'users',
    bad: [{ body: user({ customer_id: 'a' }), field: 'customer_id', rule: 'must be longer than one character' }],
    good: [user({ customer_id: 'ab' })],
  },
  'us-customer-id-blocklist': {
    op: 'users',
    bad: ['unknown', 'guest', 'null', 'true', 'n/a', 'none', 'user_id'].map((id) => ({
      body: user({ customer_id: id }),
      field: 'customer_id',
      rule: `must not be a placeholder value such as ${id}`,
    })),
    good: [user({ customer_id: 'guest-42' })],
  },
  'us-identity-resolution': {
    op: 'users',
    identityResolution: true,
    bad: [{ body: { type: 'customer', attributes: { first_name: 'Ada' } }, field: 'attributes', rule: 'must contain customer_id or one of the identifiers svc_mobile' }],
    good: [{ type: 'customer', attributes: { svc_mobile: '+919876500000' } }, user()],
  },
  'us-update-existing-only': {
    op: 'users',
    bad: [{ body: user({ update_existing_only: 'true' }), field: 'update_existing_only', rule: 'must be a boolean' }],
    good: [user({ update_existing_only: true }), user({ update_existing_only: false })],
  },
  'us-attributes': { op: 'users', bad: [{ body: user({ attributes: ['a'] }), field: 'attributes', rule: 'must be an object' }], good: [attrs({ plan: 'pro' })] },
  'us-platforms': {
    op: 'users',
    bad: [
      { body: user({ platforms: [{ platform: 'android', active: 'true' }] }), field: 'platforms[0].platform', rule: 'must be one of ANDROID, iOS, web' },
      { body: attrs({ platforms: [{ platform: 'web', active: 'yes' }] }), field: 'attributes.platforms[0].active', rule: 'must be "true" or "false"' },
      { body: user({ platforms: [{ platform: 'web', active: true }] }), field: 'platforms[0].active', rule: 'must be "true" or "false"' },
      { body: attrs({ platforms: [{ platform: 'iOS', active: false }] }), field: 'attributes.platforms[0].active', rule: 'must be "true" or "false"' },
    ],
    good: [
      user({ platforms: [{ platform: 'ANDROID', active: 'true' }] }),
      attrs({
        platforms: [
          { platform: 'iOS', active: 'false' },
          { platform: 'web', active: 'true' },
        ],
      }),
    ],
  },
  'us-platforms-placement': {
    op: 'users',
    bad: [],
    good: [user({ platforms: [{ platform: 'web', active: 'true' }] }), attrs({ platforms: [{ platform: 'web', active: 'false' }] })],
  },
  'us-attribute-blocked-names': {
    op: 'users',
    bad: [
      { body: attrs({ id: 'x' }), field: 'attributes.id', rule: 'must not use the blocked name "id"' },
      { body: attrs({ _id: 'x' }), field: 'attributes._id', rule: 'must not use the blocked name "_id"' },
    ],
    good: [attrs({ ids: 'x' })],
  },
  'us-attribute-svc-prefix': {
    op: 'users',
    bad: [{ body: attrs({ svc_score: 1 }), field: 'attributes.svc_score', rule: 'must not start with svc_ (reserved for the system)' }],
    good: [attrs({ svc_spam: false, score: 1 })],
  },
  'us-attribute-values': {
    op: 'users',
    bad: [
      { body: attrs({ address: { city: 'Pune' } }), field: 'attributes.address', rule: 'must be a string, number, boolean, ISO 8601 date or array' },
      { body: attrs({ signed_up: '2024-02-30T10:00:00Z' }), field: 'attributes.signed_up', rule: 'must be a valid ISO 8601 date-time' },
    ],
    good: [attrs({ name: 'Ada', points: 20, vip: true, signed_up: '2024-02-26T10:00:00Z', tags: ['a', 'b', 3] })],
  },
  'us-array-fields': {
    op: 'users',
    bad: [
      {
        body: attrs({ addValueToArrayField: { tags: ['a'] }, removeValueFromArrayField: { tags: ['b'] } }),
        field: 'addValueToArrayField',
        rule: "Cannot add and remove 'tags' at the same time",
      },
      { body: attrs({ addValueToArrayField: { tags: 'a' } }), field: 'attributes.addValueToArrayField.tags', rule: 'must be an array' },
    ],
    good: [attrs({ addValueToArrayField: { tags: ['a'] }, removeValueFromArrayField: { colours: ['red'] } })],
  },
  'us-standard-email': {
    op: 'users',
    bad: [{ body: attrs({ u_em: 'ada' }), field: 'attributes.u_em', rule: 'must be an e-mail address' }],
    good: [attrs({ u_em: 'ada@example.com' })],
  },
  'us-standard-mobile': {
    op: 'users',
    bad: [
      { body: attrs({ u_mb: '98765-43210' }), field: 'attributes.u_mb', rule: 'must be a string of digits with the country code' },
      { body: attrs({ u_mb: 919876543210 }), field: 'attributes.u_mb', rule: 'must be a string of digits with the country code' },
    ],
    good: [attrs({ u_mb: '919876543210' }), attrs({ u_mb: '+919876543210' })],
  },
  'us-standard-birthday': {
    op: 'users',
    bad: [{ body: attrs({ u_bd: '31/05/1990' }), field: 'attributes.u_bd', rule: 'must be a valid ISO 8601 date-time' }],
    good: [attrs({ u_bd: '1990-05-31T03:47:35Z' })],
  },
  'us-standard-geo': {
    op: 'users',
    bad: [{ body: attrs({ geo: '18.52,73.85' }), field: 'attributes.geo', rule: 'must be a string "lat lon"' }],
    good: [attrs({ geo: '18.5204 73.8567' })],
  },
  'us-standard-booleans': {
    op: 'users',
    bad: ['svc_wa_subscription', 'push_preference', 'svc_sub_w', 'svc_spam', 'svc_unsubscribe', 'svc_hard_bounce'].map((name) => ({
      body: attrs({ [name]: 'true' }),
      field: `attributes.${name}`,
      rule: 'must be a boolean',
    })),
    good: [attrs({ svc_wa_subscription: true, push_preference: false, svc_sub_w: true, svc_spam: false, svc_unsubscribe: false, svc_hard_bounce: false })],
  },
  'us-standard-optin-status': {
    op: 'users',
    bad: [
      {
        body: attrs({ svc_email_optin_status: 'OPTED_IN' }),
        field: 'attributes.svc_email_optin_status',
        rule: 'must be one of DOUBLE_OPTED_IN, OPTED_OUT, OPT_IN_PENDING',
      },
    ],
    good: ['DOUBLE_OPTED_IN', 'OPTED_OUT', 'OPT_IN_PENDING'].map((s) => attrs({ svc_email_optin_status: s })),
  },
  'us-standard-strings': {
    op: 'users',
    bad: ['u_n', 'u_fn', 'u_ln', 'u_gd', 'uid', 'svc_em_unsub_categories', 'svc_sms_subscription'].map((name) => ({
      body: attrs({ [name]: 1 }),
      field: `attributes.${name}`,
      rule: 'must be a string',
    })),
    good: [attrs({ u_n: 'Ada L', u_fn: 'Ada', u_ln: 'L', u_gd: 'F', uid: 'x1', svc_em_unsub_categories: 'news', svc_sms_subscription: 'OPTED_IN' })],
  },
  'us-standard-epochs': {
    op: 'users',
    bad: ['cr_t', 'u_l_a'].map((name) => ({ body: attrs({ [name]: '1708939453396' }), field: `attributes.${name}`, rule: 'must be an integer (epoch)' })),
    good: [attrs({ cr_t: 1708939453396, u_l_a: 1708939453 })],
  },
  'us-update-existing-only-unknown': { op: 'users', bad: [], good: [user({ customer_id: 'u-never-seen', update_existing_only: true })] },
  'us-fair-use-values': { op: 'users', bad: [], good: [attrs({ bio: 'x'.repeat(600), ['n'.repeat(250)]: 'long name' })] },

  // --- Track event ---
  'ev-type': {
    op: 'events',
    bad: [
      { body: { customer_id: 'u-conformance', actions: [{ action: 'A' }] }, field: 'type', rule: 'is not found in the payload' },
      { body: event({}, { type: 'Event' }), field: 'type', rule: 'must be "event" (case-sensitive)' },
    ],
    good: [event()],
  },
  'ev-customer-id': {
    op: 'events',
    bad: [
      { body: { type: 'event', actions: [{ action: 'A' }] }, field: 'customer_id', rule: 'is not found in the payload' },
      { body: event({}, { customer_id: 'null' }), field: 'customer_id', rule: 'must not be a placeholder value such as null' },
    ],
    good: [event()],
  },
  'ev-identity-resolution': {
    op: 'events',
    identityResolution: true,
    bad: [{ body: { type: 'event', actions: [{ action: 'A' }] }, field: 'user_identifiers', rule: 'must contain one of svc_mobile when customer_id is absent' }],
    good: [{ type: 'event', user_identifiers: { svc_mobile: '+919876500000' }, actions: [{ action: 'A' }] }],
  },
  'ev-device-id': { op: 'events', bad: [{ body: event({}, { device_id: 5 }), field: 'device_id', rule: 'must be a string' }], good: [event({}, { device_id: 'dev-1' })] },
  'ev-actions': {
    op: 'events',
    bad: [
      { body: { type: 'event', customer_id: 'u-conformance' }, field: 'actions', rule: 'is not found in the payload' },
      { body: event({}, { actions: [] }), field: 'actions', rule: 'can not be empty Array' },
      { body: event({}, { actions: {} }), field: 'actions', rule: 'must be an array' },
    ],
    good: [event({}, { actions: [{ action: 'A' }, { action: 'B' }] })],
  },
  'ev-action': {
    op: 'events',
    bad: [
      { body: event({ action: undefined }), field: 'actions[0].action', rule: 'is not found in the payload' },
      { body: event({ action: 5 }), field: 'actions[0].action', rule: 'Could not decode the request body. The JSON was incorrect or not encoded as UTF-8.' },
      { body: event({ action: 'svc_purchase' }), field: 'actions[0].action', rule: 'must not start with svc_ (reserved for the system)' },
    ],
    good: [event({ action: 'Added to Cart' })],
  },
  'ev-attributes': {
    op: 'events',
    bad: [
      { body: event({ attributes: 'x' }), field: 'actions[0].attributes', rule: 'must be an object' },
      { body: event({ attributes: { svc_price: 1 } }), field: 'actions[0].attributes.svc_price', rule: 'must not start with svc_ (reserved for the system)' },
    ],
    good: [event({ attributes: { price: 10, items: ['a', 'b'], at: '2024-02-26T10:00:00Z' } })],
  },
  'ev-platform': {
    op: 'events',
    bad: [{ body: event({ platform: 'windows' }), field: 'actions[0].platform', rule: 'must be one of ANDROID, iOS, web, TV, unknown' }],
    good: ['ANDROID', 'Android', 'iOS', 'web', 'TV', 'unknown'].map((platform) => event({ platform })),
  },
  'ev-os-type': {
    op: 'events',
    bad: [
      {
        body: event({ platform: 'TV', svc_os_type: 'Roku' }),
        field: 'actions[0].svc_os_type',
        rule: 'must be one of ROKU, WebOS, AndroidTV, tvOS, Tizen, FireOS, VizioTV, Xbox',
      },
    ],
    good: [event({ platform: 'TV', svc_os_type: 'ROKU' }), event({ platform: 'TV', attributes: { svc_os_type: 'tvOS' } })],
  },
  'ev-app-version': {
    op: 'events',
    bad: [{ body: event({ app_version: 3 }), field: 'actions[0].app_version', rule: 'must be a string' }],
    good: [event({ app_version: '3.1.0' })],
  },
  'ev-times': {
    op: 'events',
    bad: [
      { body: event({ current_time: 'yesterday' }), field: 'actions[0].current_time', rule: 'must be an ISO 8601 date-time or epoch seconds (or milliseconds)' },
      { body: event({ user_time: {} }), field: 'actions[0].user_time', rule: 'must be an ISO 8601 date-time or epoch seconds (or milliseconds)' },
    ],
    good: [
      event({ current_time: nowSeconds() - 60, user_time: String(nowSeconds() - 60) }),
      event({ current_time: '2024-02-26T09:24:13Z' }),
      event({ current_time: String(Date.now() - 60_000) }),
    ],
  },
  'ev-future': {
    op: 'events',
    bad: [{ body: event({ current_time: nowSeconds() + 3600 }), field: 'actions[0].current_time', rule: 'must not be in the future' }],
    good: [event({ current_time: nowSeconds() - 5 })],
  },
  'ev-timezone-offset': {
    op: 'events',
    bad: [{ body: event({ user_timezone_offset: 54001 }), field: 'actions[0].user_timezone_offset', rule: 'must be a number between -54000 and 54000 (seconds)' }],
    good: [event({ user_timezone_offset: 19800 }), event({ user_timezone_offset: -54000 })],
  },

  // --- Experience events ---
  'xp-elements': {
    op: 'experienceEvents',
    bad: [
      { body: {}, field: 'elements', rule: 'is required' },
      { body: { elements: {} }, field: 'elements', rule: 'must be an array' },
      { body: { elements: [] }, field: 'elements', rule: 'must contain at least one element' },
    ],
    good: [xp()],
  },
  'xp-elements-max': {
    op: 'experienceEvents',
    bad: [{ body: { elements: Array.from({ length: 101 }, () => xp().elements[0]) }, field: 'elements', rule: 'must contain at most 100 elements' }],
    good: [{ elements: Array.from({ length: 100 }, () => xp().elements[0]) }],
  },
  'xp-customer-id': {
    op: 'experienceEvents',
    bad: [
      { body: xp({}, { customer_id: undefined }), field: 'elements[0].customer_id', rule: 'is required' },
      { body: xp({}, { customer_id: ' ' }), field: 'elements[0].customer_id', rule: 'must be a non-empty string' },
    ],
    good: [xp({}, { customer_id: 'john@example.com' })],
  },
  'xp-user-attributes': {
    op: 'experienceEvents',
    bad: [{ body: xp({}, { user_attributes: 'vip' }), field: 'elements[0].user_attributes', rule: 'must be an object' }],
    good: [xp({}, { user_attributes: { plan: 'pro' } })],
  },
  'xp-timezone-offset': {
    op: 'experienceEvents',
    bad: [
      { body: xp({}, { user_timezone_offset: 19800.5 }), field: 'elements[0].user_timezone_offset', rule: 'must be an integer (seconds east of UTC)' },
      { body: xp({}, { user_timezone_offset: -54001 }), field: 'elements[0].user_timezone_offset', rule: 'must be between -54000 and 54000' },
    ],
    good: [xp({}, { user_timezone_offset: 54000 }), xp({}, { user_timezone_offset: -54000 })],
  },
  'xp-actions': {
    op: 'experienceEvents',
    bad: [
      { body: { elements: [{ customer_id: 'john@example.com' }] }, field: 'elements[0].actions', rule: 'is required' },
      { body: xpBody([]), field: 'elements[0].actions', rule: 'must contain at least one action' },
    ],
    good: [xp()],
  },
  'xp-action': {
    op: 'experienceEvents',
    bad: [
      {
        body: xp({ action: 'svc_personalization_message_shown' }),
        field: `elements[0].actions[0].action`,
        rule: 'must be one of SVC_PERSONALIZATION_MESSAGE_SHOWN, SVC_PERSONALIZATION_MESSAGE_CLICKED',
      },
      { body: xp({ action: undefined }), field: `elements[0].actions[0].action`, rule: 'is required' },
    ],
    good: [xp({ action: 'SVC_PERSONALIZATION_MESSAGE_SHOWN' }), xp({ action: 'SVC_PERSONALIZATION_MESSAGE_CLICKED' })],
  },
  'xp-event-uuid': {
    op: 'experienceEvents',
    bad: [
      { body: xp({ svc_event_uuid: '0f8fad5b-d9cb-169f-a165-70867728950e' }), field: 'elements[0].actions[0].svc_event_uuid', rule: 'must be a UUID v4' },
      { body: xp({ svc_event_uuid: undefined }), field: 'elements[0].actions[0].svc_event_uuid', rule: 'is required' },
    ],
    good: [xp()],
  },
  'xp-event-time': {
    op: 'experienceEvents',
    bad: [
      { body: xp({ event_time: Date.now() }), field: 'elements[0].actions[0].event_time', rule: 'must not be in the future (epoch seconds, not milliseconds)' },
      { body: xp({ event_time: String(nowSeconds()) }), field: 'elements[0].actions[0].event_time', rule: 'must be a non-negative integer (epoch seconds)' },
    ],
    good: [xp({ event_time: nowSeconds() - 30 })],
  },
  'xp-platform': {
    op: 'experienceEvents',
    bad: [{ body: xp({ platform: 7 }), field: 'elements[0].actions[0].platform', rule: 'must be a string' }],
    good: [xp({ platform: 'WEB' }), xp({ platform: 'smart-fridge' }), xp({ platform: undefined })],
  },
  'xp-attributes': {
    op: 'experienceEvents',
    bad: [
      { body: xp({ attributes: undefined }), field: 'elements[0].actions[0].attributes', rule: 'is required' },
      ...['cid', 'experience', 'svc_locale_id', 'svc_variation_id', 'audience_name', 'audience_id'].map((key) => ({
        body: xpAttributes({ [key]: undefined }),
        field: `elements[0].actions[0].attributes.${key}`,
        rule: 'is required',
      })),
      { body: xpAttributes({ svc_variation_id: 2 }), field: 'elements[0].actions[0].attributes.svc_variation_id', rule: 'must be a string' },
    ],
    good: [xp(), xpAttributes({ extra: 'kept' })],
  },
  'xp-attribute-type': {
    op: 'experienceEvents',
    bad: [{ body: xpAttributes({ type: 1 }), field: 'elements[0].actions[0].attributes.type', rule: 'must be a string' }],
    good: [xpAttributes({ type: 'Web Personalization' }), xpAttributes({ type: 'Server Side' }), xpAttributes({ type: undefined })],
  },
  'xp-b-id': {
    op: 'experienceEvents',
    bad: [{ body: xp({ action: 'SVC_PERSONALIZATION_MESSAGE_CLICKED', b_id: 3 }), field: 'elements[0].actions[0].b_id', rule: 'must be a string' }],
    good: [
      xp({ action: 'SVC_PERSONALIZATION_MESSAGE_CLICKED', b_id: 'Add to Cart' }),
      xp({ action: 'SVC_PERSONALIZATION_MESSAGE_CLICKED', attributes: { ...XP_ATTRIBUTES, b_id: 'Add to Cart' } }),
    ],
  },
  'xp-app-key': {
    op: 'experienceEvents',
    bad: [
      {
        body: xp(),
        field: 'SVC-APPKEY',
        rule: 'SVC-APPKEY header is missing',
        headers: { 'svc-appkey': undefined },
        answer: { title: 'Invalid Field Value', description: 'SVC-APPKEY header is missing' },
      },
    ],
    good: [xp()],
  },

  // --- File-import status ---
  'fi-empty-body': { op: 'fileImportStatus', bad: [{ body: [], field: 'body', rule: 'must be a JSON object' }], good: [{}] },
  'fi-import-name': {
    op: 'fileImportStatus',
    bad: [{ body: { import_name: 5 }, field: 'import_name', rule: 'must be a string' }],
    good: [{ import_name: 'nightly users' }],
  },
  'fi-import-type': {
    op: 'fileImportStatus',
    bad: [{ body: { import_type: 'users' }, field: 'import_type', rule: 'must be one of USERS, EVENTS, AUX_DATA (case-sensitive)', answer: ENUM_ANSWER }],
    good: [{ import_type: 'USERS' }, { import_type: ['EVENTS', 'AUX_DATA'] }],
  },
  'fi-schedule-type': {
    op: 'fileImportStatus',
    bad: [{ body: { schedule_type: ['Periodic'] }, field: 'schedule_type[0]', rule: 'must be one of PERIODIC, ONETIME (case-sensitive)', answer: ENUM_ANSWER }],
    good: [{ schedule_type: 'PERIODIC' }, { schedule_type: ['ONETIME'] }],
  },
  'fi-file-source': {
    op: 'fileImportStatus',
    bad: [{ body: { file_source: 'GCS' }, field: 'file_source', rule: 'must be one of SFTP, S3, CSV (case-sensitive)', answer: ENUM_ANSWER }],
    good: [{ file_source: ['SFTP', 'S3', 'CSV'] }],
  },
  'fi-schedule-status': {
    op: 'fileImportStatus',
    bad: [
      {
        body: { schedule_status: 'failed' },
        field: 'schedule_status',
        rule: 'must be one of SUCCESSFUL, FAILED, PARTIAL_SUCCESS, SCHEDULED, PROCESSING, QUEUED, ARCHIVED (case-sensitive)',
        answer: ENUM_ANSWER,
      },
    ],
    good: [{ schedule_status: ['SUCCESSFUL', 'FAILED', 'PARTIAL_SUCCESS', 'SCHEDULED', 'PROCESSING', 'QUEUED', 'ARCHIVED'] }],
  },
  'fi-filters-one-or-list': {
    op: 'fileImportStatus',
    bad: [],
    good: [
      { import_type: 'USERS', schedule_type: 'ONETIME' },
      { import_type: ['USERS'], schedule_type: ['ONETIME'] },
    ],
  },
  'fi-date-format': {
    op: 'fileImportStatus',
    bad: [
      {
        body: { date: { start_date: '2026-03-01', end_date: '2026-03-02', format: 'YYYY.MM.DD' } },
        field: 'date.format',
        rule: 'must be one of YYYY-MM-DD, YYYY/MM/DD, DD/MM/YYYY, DD-MM-YYYY, DD-MM-YYYY hh:mm:ss, DD/MM/YYYY hh:mm:ss, YYYY-MM-DD hh:mm:ss, YYYY/MM/DD hh:mm:ss',
      },
    ],
    good: [
      { date: { start_date: '2026-03-01', end_date: '2026-03-02', format: 'YYYY-MM-DD' } },
      { date: { start_date: '2026/03/01', end_date: '2026/03/02', format: 'YYYY/MM/DD' } },
      { date: { start_date: day(1), end_date: day(2), format: 'DD/MM/YYYY' } },
      { date: { start_date: '01-03-2026', end_date: '02-03-2026', format: 'DD-MM-YYYY' } },
      { date: { start_date: '01-03-2026 10:00:00', end_date: '02-03-2026 10:00:00', format: 'DD-MM-YYYY hh:mm:ss' } },
      { date: { start_date: '01/03/2026 10:00:00', end_date: '02/03/2026 10:00:00', format: 'DD/MM/YYYY hh:mm:ss' } },
      { date: { start_date: '2026-03-01 10:00:00', end_date: '2026-03-02 10:00:00', format: 'YYYY-MM-DD hh:mm:ss' } },
      { date: { start_date: '2026/03/01 10:00:00', end_date: '2026/03/02 10:00:00', format: 'YYYY/MM/DD hh:mm:ss' } },
    ],
  },
  'fi-date-format-key': { op: 'fileImportStatus', bad: [], good: [{ date: { start_date: day(1), end_date: day(2), datetime_format: 'DD/MM/YYYY' } }] },
  'fi-date-values': {
    op: 'fileImportStatus',
    bad: [
      { body: { date: { start_date: '2026-03-01', end_date: day(2), format: 'DD/MM/YYYY' } }, field: 'date.start_date', rule: 'must be a date in the layout DD/MM/YYYY' },
      { body: { date: { start_date: day(1), end_date: '31/02/2026', format: 'DD/MM/YYYY' } }, field: 'date.end_date', rule: 'must be a date in the layout DD/MM/YYYY' },
    ],
    good: [{ date: { start_date: day(1), end_date: day(1), format: 'DD/MM/YYYY' } }],
  },
  'fi-date-range': {
    op: 'fileImportStatus',
    bad: [{ body: { date: { start_date: day(1), end_date: '01/04/2026', format: 'DD/MM/YYYY' } }, field: 'date', rule: 'must span at most 30 days' }],
    good: [{ date: { start_date: day(1), end_date: day(31), format: 'DD/MM/YYYY' } }],
  },
  'fi-offset': {
    op: 'fileImportStatus',
    bad: [
      { body: { offset: 0 }, field: 'offset', rule: 'must be an integer of at least 1' },
      { body: { offset: 'two' }, field: 'offset', rule: 'must be an integer of at least 1' },
    ],
    good: [{ offset: 2 }, { offset: '1' }],
  },
  'fi-import-id-limit': { op: 'fileImportStatus', bad: [], good: [{ import_id: 'imp-1', limit: 10 }] },
};

// ---------------------------------------------------------------------------------------------

const h = useEmulator({ limits: false });
const ir = useEmulator({ limits: false, identityResolution: { identifiers: ['svc_mobile'] } });
const rows = readRows();

/** The answer names the field and the rule, in the operation's own error body. */
function expectRefusal(op: Op, res: { status: number; body: any }, bad: Bad) {
  if (bad.answer !== undefined && op !== 'campaignUpdate' && op !== 'experienceEvents') {
    expect(res.status).toBe(400);
    expect(res.body).toEqual(bad.answer);
    return;
  }
  const message = /^[A-Z]/.test(bad.rule) ? bad.rule : `${bad.field} ${bad.rule}`;
  switch (op) {
    case 'campaignUpdate':
      if (bad.answer !== undefined) {
        expect(res.body).toMatchObject(bad.answer as object);
        return;
      }
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: '400 Bad Request', message, target: bad.field, details: [{ target: bad.field, message }] });
      return;
    case 'users':
    case 'events':
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 'fail', error: { attribute: bad.field, message } });
      return;
    case 'experienceEvents':
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject((bad.answer as object | undefined) ?? { title: 'Invalid Field Value', description: message });
      return;
    case 'fileImportStatus':
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('FAILURE');
      expect(res.body.message).toContain(message);
  }
}

describe('conformance table (docs/conformance.md)', () => {
  it('every row has a case and every case a row; ids are unique', () => {
    const ids = rows.map((row) => row.id);
    expect(ids.length).toBeGreaterThan(100);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      ids.filter((id) => !(id in CASES)),
      'rows without a test',
    ).toEqual([]);
    expect(
      Object.keys(CASES).filter((id) => !ids.includes(id)),
      'tests without a row',
    ).toEqual([]);
  });

  it('each row names its case’s operation, and a row without a refusal is marked open or V1', () => {
    const text = readFileSync(TABLE, 'utf8');
    for (const row of rows) {
      const c = CASES[row.id];
      if (!c) continue;
      expect(row.operation, row.id).toBe(OPERATION_NAMES[c.op]);
      if (c.bad.length === 0) expect(row.open, `${row.id} has no refusal: mark it **open**`).toBe(true);
      expect(c.bad.length + c.good.length, row.id).toBeGreaterThan(0);
    }
    expect(text).toContain(`${rows.length} rules`);
    expect(text).toContain(`${rows.filter((row) => row.open).length} left open`);
  });

  for (const row of rows) {
    const c = CASES[row.id];
    it(row.id, async () => {
      expect(c, `no case for ${row.id}`).toBeDefined();
      const { op, campaign, bad, good } = c!;
      const target = c!.identityResolution ? ir : h;
      for (const b of bad) {
        const normalised = b.field.replace(/\[\d+\]/g, '[]');
        const named = row.field.endsWith('*') ? normalised.startsWith(row.field.slice(0, -1)) : normalised === row.field;
        expect(named, `${row.id}: ${b.field} is not the row's field ${row.field}`).toBe(true);
        const res = await call(target, op, b.body, { campaignId: campaign, headers: b.headers });
        expectRefusal(op, res, b);
      }
      for (const body of good) {
        const res = await call(target, op, body, { campaignId: campaign });
        expect([200, 204], `${row.id}: ${JSON.stringify(res.body)}`).toContain(res.status);
      }
    });
  }
});
