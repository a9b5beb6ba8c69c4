import { at, isEmail, isObject, oneOf, own, problem, type Problem } from './problem';

/** Channels a campaign update can target. */
export type CampaignChannel = 'PUSH' | 'EMAIL';

const COMMON_FIELDS = [
  'request_id',
  'updated_by',
  'channel',
  'campaign_delivery_type',
  'basic_details',
  'trigger_condition',
  'campaign_content',
  'segmentation_details',
  'scheduling_details',
  'delivery_controls',
  'conversion_goal_details',
  'control_group_details',
  'utm_params',
] as const;
/** Top-level fields a push update may carry. */
export const PUSH_UPDATE_FIELDS: readonly string[] = [...COMMON_FIELDS, 'advanced'];
/** Top-level fields an email update may carry. */
export const EMAIL_UPDATE_FIELDS: readonly string[] = [...COMMON_FIELDS, 'connector', 'campaign_audience_limit'];
// Before the channel is known, a field of either channel is accepted.
const ANY_UPDATE_FIELDS: readonly string[] = [...new Set([...PUSH_UPDATE_FIELDS, ...EMAIL_UPDATE_FIELDS])];

/** `template_type` values of an Android push. */
export const ANDROID_TEMPLATE_TYPES = [
  'BASIC',
  'STYLIZED_BASIC',
  'SIMPLE_IMAGE_CAROUSEL',
  'IMAGE_BANNER_WITH_TEXT',
  'TIMER',
  'TIMER_WITH_PROGRESS_BAR',
  'Custom',
] as const;
/** `template_type` values of an iOS push. */
export const IOS_TEMPLATE_TYPES = ['BASIC', 'STYLIZED_BASIC', 'SIMPLE_IMAGE_CAROUSEL', 'Custom'] as const;
/** `default_click_action` values of a push. */
export const CLICK_ACTIONS = ['DEEPLINKING', 'NAVIGATE_TO_A_SCREEN', 'RICH_LANDING'] as const;
/** `basic_details.platforms` values of a push campaign. */
export const PUSH_PLATFORMS = ['ANDROID', 'IOS', 'WEB'] as const;
/** `basic_details.content_type` values of an email campaign (PROMOTIONAL needs a subscription category). */
export const EMAIL_CONTENT_TYPES = ['PROMOTIONAL', 'TRANSACTIONAL'] as const;
/** `scheduling_details.delivery_type` values. */
export const DELIVERY_TYPES = ['ASAP', 'AT_FIXED_TIME', 'SEND_IN_BTS', 'SEND_IN_USER_TIMEZONE'] as const;
/** Sherpa metrics in the V1 spelling (with a space): V5's `OPEN_RATE` belongs to another endpoint. */
export const SHERPA_METRICS = ['OPEN RATE', 'CLICK RATE', 'BOTH'] as const;
/** `click_action_type` values of an Android push button: the click actions and eight more. */
export const BUTTON_CLICK_ACTIONS = [...CLICK_ACTIONS, 'CALL', 'SHARE', 'COPY', 'SET_USER_ATTRIBUTE', 'TRACK_EVENT', 'CUSTOM_ACTION', 'SNOOZE', 'REMIND_LATER'] as const;
/** iOS `basic_details.rich_media_type` values. */
export const RICH_MEDIA_TYPES = ['Image', 'Video', 'GIF'] as const;
/** iOS flags of `platform_specific_details.ios`, one of which must be true. */
export const IOS_AUDIENCE_FLAGS = ['send_to_all_eligible_device', 'exclude_provisional_push_devices', 'send_to_only_provisional_push_enabled_devices'] as const;
/** Email `attachments[].file_type` values. */
export const ATTACHMENT_FILE_TYPES = ['URL', 'PERSONALIZED_ATTACHMENT'] as const;
/** `execution.type` values of an `actions` filter. */
export const EXECUTION_TYPES = ['atleast', 'atmost', 'exactly'] as const;
/**
 * The push `advanced` group, each field with its V1 values. `apns_priority` is a string;
 * `interruption_level` is spelled as V1 spells it (V5's `TIME_SENSITIVE` belongs to another endpoint).
 */
export const PUSH_ADVANCED_VALUES = {
  expire_notification_after_type: ['HOUR', 'DAY'],
  remove_from_inbox_after_type: ['DAY'],
  apns_priority: ['1', '5', '10'],
  interruption_level: ['Passive', 'Active', 'Time sensitive', 'Critical'],
  relevance_score: [0, 0.5, 1],
} as const;
/** UTM keys that are not custom parameters; every other key of `utm_params` is one. */
export const STANDARD_UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
/** At most this many custom UTM parameters. */
export const MAX_CUSTOM_UTM_PARAMS = 5;

/** Options of `validateCampaignUpdate`. */
export interface CampaignUpdateOptions {
  /** The stored campaign's channel, when known; otherwise taken from `channel` in the body. */
  channel?: CampaignChannel;
  /**
   * The stored email campaign's `content_type`, when known (`gmail_annotations` is PROMOTIONAL
   * only); a `basic_details.content_type` in the body wins.
   */
  contentType?: string;
}

const MANDATORY = 'key is mandatory field';

/**
 * Checks a campaign-update (V1) body. A sent object replaces the stored one whole, so every
 * object sent must be complete: the required children of each object are checked here. Error
 * messages read `<field> <rule>`, which for a missing `request_id` gives the upstream's exact
 * "request_id key is mandatory field".
 *
 * Accepted on purpose: `channel` absent (all upstream examples omit it); `scheduling_details`
 * without `delivery_type` (an upstream example sends only `expiry_time`); `campaign_delivery_type`
 * equal to the stored one. Where V1 and V5 spell a value differently, V1's spelling is the rule
 * (this is the V1 endpoint). docs/conformance.md lists every rule with the test that proves it.
 *
 * @example
 * validateCampaignUpdate({ updated_by: 'a@b.co' }); // { field: 'request_id', rule: 'key is mandatory field', status: 400 }
 */
export function validateCampaignUpdate(body: unknown, options: CampaignUpdateOptions = {}): Problem | undefined {
  if (!isObject(body)) return problem('body', 'must be a JSON object');
  const requestId = own(body, 'request_id');
  if (requestId === undefined || requestId === null || requestId === '') return problem('request_id', MANDATORY);
  if (typeof requestId !== 'string') return problem('request_id', 'must be a string');
  const updatedBy = own(body, 'updated_by');
  if (updatedBy === undefined || updatedBy === null || updatedBy === '') return problem('updated_by', MANDATORY);
  if (!isEmail(updatedBy)) return problem('updated_by', 'must be an e-mail address');

  const sent = own(body, 'channel');
  if (sent !== undefined && sent !== 'PUSH' && sent !== 'EMAIL') return problem('channel', oneOf(['PUSH', 'EMAIL']));
  if (sent !== undefined && options.channel !== undefined && sent !== options.channel) {
    return problem('channel', `must be ${options.channel}, the channel of this campaign`);
  }
  const channel = options.channel ?? sent ?? inferChannel(body);
  const allowed = channel === 'PUSH' ? PUSH_UPDATE_FIELDS : channel === 'EMAIL' ? EMAIL_UPDATE_FIELDS : ANY_UPDATE_FIELDS;
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      return problem(key, channel ? `is not a field of a ${channel.toLowerCase()} campaign update` : 'is not a field of a campaign update');
    }
  }
  for (const [key, check] of OBJECT_CHECKS) {
    const value = own(body, key);
    if (value === undefined) continue;
    if (!isObject(value)) return problem(key, 'must be an object');
    const bad = check(value, key, channel, contentTypeOf(body, options));
    if (bad) return bad;
  }
  const deliveryType = own(body, 'campaign_delivery_type');
  if (deliveryType !== undefined && typeof deliveryType !== 'string') return problem('campaign_delivery_type', 'must be a string');
  return undefined;
}

type ObjectCheck = (value: Record<string, unknown>, path: string, channel?: CampaignChannel, contentType?: string) => Problem | undefined;
// Every top-level object, with the check of its children.
const OBJECT_CHECKS: Array<[string, ObjectCheck]> = [
  ['basic_details', checkBasicDetails],
  ['campaign_content', checkContent],
  ['scheduling_details', checkScheduling],
  ['trigger_condition', checkTrigger],
  ['segmentation_details', checkFilterGroups],
  ['control_group_details', checkControlGroup],
  ['utm_params', checkUtm],
  ['delivery_controls', (value, path) => checkInteger(value, path, 'campaign_throttle_rpm')],
  ['conversion_goal_details', () => undefined],
  ['advanced', checkAdvanced],
  ['connector', () => undefined],
  ['campaign_audience_limit', checkAudienceLimit],
];

function contentTypeOf(body: Record<string, unknown>, options: CampaignUpdateOptions): string | undefined {
  const details = own(body, 'basic_details');
  const sent = isObject(details) ? own(details, 'content_type') : undefined;
  return typeof sent === 'string' ? sent : options.contentType;
}

function checkInteger(value: Record<string, unknown>, path: string, key: string, min?: number, max?: number): Problem | undefined {
  const child = own(value, key);
  if (child === undefined) return undefined;
  const range = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : '';
  if (typeof child !== 'number' || !Number.isInteger(child) || (min !== undefined && child < min) || (max !== undefined && child > max)) {
    return problem(at(path, key), `must be an integer${range}`);
  }
  return undefined;
}

function checkType(value: Record<string, unknown>, path: string, key: string, type: 'string' | 'boolean'): Problem | undefined {
  const child = own(value, key);
  return child === undefined || typeof child === type ? undefined : problem(at(path, key), `must be a ${type}`);
}

function checkStringArray(value: Record<string, unknown>, path: string, key: string): Problem | undefined {
  const child = own(value, key);
  if (child === undefined) return undefined;
  if (!Array.isArray(child)) return problem(at(path, key), 'must be an array of strings');
  const i = child.findIndex((item) => typeof item !== 'string');
  return i < 0 ? undefined : problem(at(at(path, key), i), 'must be a string');
}

/**
 * The push `advanced` group. The facts name its fields but not how they nest inside `advanced`,
 * so each is checked wherever it sits in the group (`advanced.apns_priority` or deeper).
 */
function checkAdvanced(value: Record<string, unknown>, path: string): Problem | undefined {
  for (const key of Object.keys(value)) {
    const child = value[key];
    const childPath = at(path, key);
    if (Object.prototype.hasOwnProperty.call(PUSH_ADVANCED_VALUES, key)) {
      const values: readonly unknown[] = PUSH_ADVANCED_VALUES[key as keyof typeof PUSH_ADVANCED_VALUES];
      if (!values.includes(child)) {
        const shown = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
        return problem(childPath, `must be one of ${shown.join(', ')}`);
      }
    } else if (isObject(child)) {
      const bad = checkAdvanced(child, childPath);
      if (bad) return bad;
    }
  }
  return undefined;
}

/** V1's audience limit is a loose object; V5's strict one (metric SENT, TOTAL|INSTANCE) is another endpoint's. */
function checkAudienceLimit(value: Record<string, unknown>, path: string): Problem | undefined {
  return checkInteger(value, path, 'limit') ?? checkType(value, path, 'metrics', 'string') ?? checkType(value, path, 'frequency', 'string');
}

function inferChannel(body: Record<string, unknown>): CampaignChannel | undefined {
  const content = own(body, 'campaign_content');
  const inner = isObject(content) ? own(content, 'content') : undefined;
  if (isObject(inner) && own(inner, 'push') !== undefined && own(inner, 'email') === undefined) return 'PUSH';
  if (isObject(inner) && own(inner, 'email') !== undefined && own(inner, 'push') === undefined) return 'EMAIL';
  if (own(body, 'connector') !== undefined || own(body, 'campaign_audience_limit') !== undefined) return 'EMAIL';
  if (own(body, 'advanced') !== undefined) return 'PUSH';
  return undefined;
}

function requireStrings(value: Record<string, unknown>, path: string, keys: readonly string[]): Problem | undefined {
  for (const key of keys) {
    const child = own(value, key);
    if (child === undefined || child === null || child === '') return problem(at(path, key), MANDATORY);
    if (typeof child !== 'string') return problem(at(path, key), 'must be a string');
  }
  return undefined;
}

function checkEnum(value: Record<string, unknown>, path: string, key: string, values: readonly string[], required: boolean): Problem | undefined {
  const child = own(value, key);
  if (child === undefined) return required ? problem(at(path, key), MANDATORY) : undefined;
  return typeof child === 'string' && values.includes(child) ? undefined : problem(at(path, key), oneOf(values));
}

function checkBasicDetails(value: Record<string, unknown>, path: string, channel?: CampaignChannel): Problem | undefined {
  const bad = requireStrings(value, path, ['name']) ?? checkStringArray(value, path, 'tags');
  if (bad) return bad;
  if (channel === 'EMAIL' || (channel === undefined && own(value, 'content_type') !== undefined)) {
    const type = checkEnum(value, path, 'content_type', EMAIL_CONTENT_TYPES, true);
    if (type) return type;
    if (own(value, 'content_type') === 'PROMOTIONAL') {
      const category = requireStrings(value, path, ['subscription_category']);
      if (category) return category;
    }
    // user_attribute_identifier is "required" with a default (SVC_EMAIL_ID): absent means the default.
    return (
      checkType(value, path, 'user_attribute_identifier', 'string') ??
      checkType(value, path, 'send_only_double_opt_in_users', 'boolean') ??
      checkType(value, path, 'deduplication_attribute', 'string')
    );
  }
  const platforms = own(value, 'platforms');
  if (platforms === undefined) return problem(at(path, 'platforms'), MANDATORY);
  if (!Array.isArray(platforms) || platforms.length === 0) return problem(at(path, 'platforms'), 'must be a non-empty array');
  for (let i = 0; i < platforms.length; i++) {
    if (!(PUSH_PLATFORMS as readonly string[]).includes(platforms[i] as string)) return problem(at(at(path, 'platforms'), i), oneOf(PUSH_PLATFORMS));
  }
  const specificPath = at(path, 'platform_specific_details');
  const specific = own(value, 'platform_specific_details');
  if (specific === undefined) return problem(specificPath, MANDATORY);
  if (!isObject(specific)) return problem(specificPath, 'must be an object');
  const android = own(specific, 'android');
  if (android !== undefined) {
    if (!isObject(android)) return problem(at(specificPath, 'android'), 'must be an object');
    const amp = checkType(android, at(specificPath, 'android'), 'push_amp_plus_enabled', 'boolean');
    if (amp) return amp;
  }
  if (platforms.includes('IOS')) {
    const ios = own(specific, 'ios');
    const iosPath = at(specificPath, 'ios');
    if (ios !== undefined && !isObject(ios)) return problem(iosPath, 'must be an object');
    if (!isObject(ios) || !IOS_AUDIENCE_FLAGS.some((flag) => own(ios, flag) === true)) {
      return problem(iosPath, `must set one of ${IOS_AUDIENCE_FLAGS.join(', ')} to true`);
    }
  }
  return undefined;
}

function checkContent(value: Record<string, unknown>, path: string, channel?: CampaignChannel, contentType?: string): Problem | undefined {
  const content = own(value, 'content');
  const contentPath = at(path, 'content');
  if (content === undefined) return problem(contentPath, MANDATORY);
  if (!isObject(content)) return problem(contentPath, 'must be an object');
  const push = own(content, 'push');
  const email = own(content, 'email');
  if (channel === 'PUSH' && email !== undefined) return problem(at(contentPath, 'email'), 'is not allowed in a push campaign');
  if (channel === 'EMAIL' && push !== undefined) return problem(at(contentPath, 'push'), 'is not allowed in an email campaign');
  if (push === undefined && email === undefined) return problem(at(contentPath, channel === 'EMAIL' ? 'email' : 'push'), MANDATORY);
  if (push !== undefined) {
    const bad = checkPush(push, at(contentPath, 'push'));
    if (bad) return bad;
  }
  if (email !== undefined) {
    const bad = checkEmail(email, at(contentPath, 'email'), contentType);
    if (bad) return bad;
  }
  const locales = own(value, 'locales');
  if (locales !== undefined && !Array.isArray(locales)) return problem(at(path, 'locales'), 'must be an array');
  const variations = own(value, 'variation_details');
  if (variations !== undefined) return checkVariations(variations, at(path, 'variation_details'));
  return undefined;
}

function checkPush(push: unknown, path: string): Problem | undefined {
  if (!isObject(push)) return problem(path, 'must be an object');
  for (const key of Object.keys(push)) {
    if (key !== 'android' && key !== 'ios' && key !== 'web') return problem(at(path, key), oneOf(['android', 'ios', 'web']));
  }
  const platforms: Array<[string, readonly string[], readonly string[]]> = [
    ['android', ANDROID_TEMPLATE_TYPES, ['notification_channel', 'title', 'message', 'default_click_action', 'default_click_action_value']],
    ['ios', IOS_TEMPLATE_TYPES, ['title', 'message']],
    ['web', ['BASIC'], ['title', 'message', 'redirect_url']],
  ];
  for (const [name, templates, required] of platforms) {
    const variant = own(push, name);
    if (variant === undefined) continue;
    const variantPath = at(path, name);
    if (!isObject(variant)) return problem(variantPath, 'must be an object');
    const template = checkEnum(variant, variantPath, 'template_type', templates, true);
    if (template) return template;
    if (own(variant, 'template_type') === 'Custom') {
      const custom = own(variant, 'custom_template_id');
      if (custom === undefined || custom === '') return problem(at(variantPath, 'custom_template_id'), MANDATORY);
    }
    const details = own(variant, 'basic_details');
    const detailsPath = at(variantPath, 'basic_details');
    if (details === undefined) return problem(detailsPath, MANDATORY);
    if (!isObject(details)) return problem(detailsPath, 'must be an object');
    const bad =
      requireStrings(details, detailsPath, required) ??
      checkEnum(details, detailsPath, 'default_click_action', CLICK_ACTIONS, false) ??
      (name === 'ios' ? checkEnum(details, detailsPath, 'rich_media_type', RICH_MEDIA_TYPES, false) : undefined) ??
      // V1's Android schema spells the carousel transition lowercase, its iOS schema uppercase.
      (name === 'android' ? checkEnum(variant, variantPath, 'slider_transition', ['manual', 'automatic'], false) : undefined) ??
      (name === 'ios' ? checkEnum(variant, variantPath, 'slider_transition', ['MANUAL', 'AUTOMATIC'], false) : undefined) ??
      (name === 'android' ? checkButtons(variant, variantPath) : undefined);
    if (bad) return bad;
  }
  return undefined;
}

function checkButtons(variant: Record<string, unknown>, path: string): Problem | undefined {
  const buttons = own(variant, 'buttons');
  if (buttons === undefined) return undefined;
  if (!Array.isArray(buttons)) return problem(at(path, 'buttons'), 'must be an array');
  for (let i = 0; i < buttons.length; i++) {
    const button: unknown = buttons[i];
    const buttonPath = at(at(path, 'buttons'), i);
    if (!isObject(button)) return problem(buttonPath, 'must be an object');
    const bad = checkEnum(button, buttonPath, 'click_action_type', BUTTON_CLICK_ACTIONS, false);
    if (bad) return bad;
  }
  return undefined;
}

function checkEmail(email: unknown, path: string, contentType?: string): Problem | undefined {
  if (!isObject(email)) return problem(path, 'must be an object');
  const bad = requireStrings(email, path, ['subject', 'sender_name', 'from_address', 'reply_to_address']);
  if (bad) return bad;
  for (const key of ['from_address', 'reply_to_address']) {
    if (!isEmail(own(email, key))) return problem(at(path, key), 'must be an e-mail address');
  }
  const more =
    checkEnum(email, path, 'email_editor', ['Froala Editor', 'Ace Editor'], false) ??
    checkStringArray(email, path, 'cc_ids') ??
    checkStringArray(email, path, 'bcc_ids') ??
    checkInteger(email, path, 'custom_template_version') ??
    checkAttachments(email, path);
  if (more) return more;
  const annotations = own(email, 'gmail_annotations');
  return annotations === undefined ? undefined : checkGmailAnnotations(annotations, at(path, 'gmail_annotations'), contentType);
}

function checkAttachments(email: Record<string, unknown>, path: string): Problem | undefined {
  const attachments = own(email, 'attachments');
  if (attachments === undefined) return undefined;
  if (!Array.isArray(attachments)) return problem(at(path, 'attachments'), 'must be an array');
  for (let i = 0; i < attachments.length; i++) {
    const item: unknown = attachments[i];
    const itemPath = at(at(path, 'attachments'), i);
    if (!isObject(item)) return problem(itemPath, 'must be an object');
    const bad = checkEnum(item, itemPath, 'file_type', ATTACHMENT_FILE_TYPES, false) ?? checkType(item, itemPath, 'url', 'string');
    if (bad) return bad;
  }
  return undefined;
}

/**
 * Gmail annotations: PROMOTIONAL campaigns only; a deal card or a product carousel, not both;
 * a product set shows 2 to 9 products. The facts give no name for a manual carousel's product
 * list, so its "at least 2" is not checked.
 */
function checkGmailAnnotations(value: unknown, path: string, contentType?: string): Problem | undefined {
  if (contentType === 'TRANSACTIONAL') return problem(path, 'is allowed in PROMOTIONAL campaigns only, not TRANSACTIONAL');
  if (!isObject(value)) return problem(path, 'must be an object');
  if (own(value, 'deal_card') !== undefined && own(value, 'product_carousel') !== undefined) {
    return problem(path, 'must hold deal_card or product_carousel, not both');
  }
  return findProductCount(value, path);
}

function findProductCount(value: Record<string, unknown>, path: string): Problem | undefined {
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (key === 'product_count') {
      const bad = checkInteger(value, path, key, 2, 9);
      if (bad) return bad;
    } else if (isObject(child)) {
      const bad = findProductCount(child, at(path, key));
      if (bad) return bad;
    }
  }
  return undefined;
}

function checkVariations(value: unknown, path: string): Problem | undefined {
  if (!isObject(value)) return problem(path, 'must be an object');
  const type = checkEnum(value, path, 'distribution_type', ['SHERPA', 'MANUAL'], true);
  if (type) return type;
  const count = own(value, 'no_of_variations');
  if (count === undefined) return problem(at(path, 'no_of_variations'), MANDATORY);
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return problem(at(path, 'no_of_variations'), 'must be an integer of at least 1');
  if (own(value, 'distribution_type') === 'MANUAL') {
    const splitPath = at(path, 'manual_distribution_percentage');
    const split = own(value, 'manual_distribution_percentage');
    if (split === undefined) return problem(splitPath, MANDATORY);
    if (!isObject(split)) return problem(splitPath, 'must be an object');
    // V1 maps variation_N to a string percentage (V5's integers belong to another endpoint).
    for (const key of Object.keys(split)) {
      if (!/^variation_[1-9]\d*$/.test(key)) return problem(at(splitPath, key), 'must be named variation_N');
      if (typeof split[key] !== 'string') return problem(at(splitPath, key), 'must be a string percentage');
    }
  } else {
    const duration = own(value, 'sherpa_campaign_duration');
    if (duration === undefined) return problem(at(path, 'sherpa_campaign_duration'), MANDATORY);
    if (typeof duration !== 'number' || !Number.isInteger(duration)) return problem(at(path, 'sherpa_campaign_duration'), 'must be an integer');
    return checkEnum(value, path, 'sherpa_distribution_metric', SHERPA_METRICS, true);
  }
  return undefined;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?$/;

function checkScheduling(value: Record<string, unknown>, path: string): Problem | undefined {
  const type = checkEnum(value, path, 'delivery_type', DELIVERY_TYPES, false);
  if (type) return type;
  for (const key of ['start_time', 'expiry_time']) {
    const time = own(value, key);
    if (time !== undefined && (typeof time !== 'string' || !ISO_UTC.test(time) || Number.isNaN(Date.parse(time)))) {
      return problem(at(path, key), 'must be an ISO 8601 date-time in UTC, e.g. 2026-07-20T13:55:00');
    }
  }
  const periodic = own(value, 'periodic_details');
  if (periodic !== undefined) {
    if (!isObject(periodic)) return problem(at(path, 'periodic_details'), 'must be an object');
    return checkEnum(periodic, at(path, 'periodic_details'), 'sending_frequency', ['DAILY', 'WEEKLY', 'MONTHLY'], false);
  }
  return undefined;
}

function checkTrigger(value: Record<string, unknown>, path: string, channel?: CampaignChannel): Problem | undefined {
  const delays = channel === 'EMAIL' ? ['DELAY', 'ASAP'] : ['DELAY', 'ASAP', 'INTELLIGENT_DELAY'];
  const bad = checkEnum(value, path, 'trigger_delay_type', delays, false);
  if (bad) return bad;
  if (own(value, 'trigger_delay_type') === 'DELAY') {
    const amount = own(value, 'trigger_delay_value');
    if (amount === undefined) return problem(at(path, 'trigger_delay_value'), MANDATORY);
    if (typeof amount !== 'number' || !Number.isInteger(amount)) return problem(at(path, 'trigger_delay_value'), 'must be an integer');
    const unit = checkEnum(value, path, 'trigger_delay_granularity', ['MINUTES', 'HOURS', 'DAYS'], true);
    if (unit) return unit;
    const relation = checkEnum(value, path, 'trigger_relation', ['BEFORE', 'AFTER'], true);
    if (relation) return relation;
  }
  return checkFilterGroups(value, path);
}

/** Segmentation and trigger conditions both carry `included_filters`/`excluded_filters`. */
function checkFilterGroups(value: Record<string, unknown>, path: string): Problem | undefined {
  for (const key of ['included_filters', 'excluded_filters']) {
    const group = own(value, key);
    if (group !== undefined) {
      const bad = checkFilterGroup(group, at(path, key));
      if (bad) return bad;
    }
  }
  return undefined;
}

function checkFilterGroup(group: unknown, path: string): Problem | undefined {
  if (!isObject(group)) return problem(path, 'must be an object');
  const operator = checkEnum(group, path, 'filter_operator', ['and', 'or'], true);
  if (operator) return operator;
  const filters = own(group, 'filters');
  if (filters === undefined) return problem(at(path, 'filters'), MANDATORY);
  if (!Array.isArray(filters)) return problem(at(path, 'filters'), 'must be an array');
  for (let i = 0; i < filters.length; i++) {
    const filter: unknown = filters[i];
    const filterPath = at(at(path, 'filters'), i);
    if (!isObject(filter)) return problem(filterPath, 'must be an object');
    const type = checkEnum(filter, filterPath, 'filter_type', ['user_attributes', 'actions', 'custom_segments'], true);
    if (type) return type;
    const kind = own(filter, 'filter_type');
    const bad =
      kind === 'user_attributes'
        ? (checkEnum(filter, filterPath, 'data_type', ['string', 'double', 'datetime', 'bool'], true) ?? requireStrings(filter, filterPath, ['name', 'operator']))
        : kind === 'actions'
          ? (requireStrings(filter, filterPath, ['action_name']) ?? checkExecution(filter, filterPath))
          : own(filter, 'id') === undefined
            ? problem(at(filterPath, 'id'), MANDATORY)
            : undefined;
    if (bad) return bad;
  }
  return undefined;
}

function checkExecution(filter: Record<string, unknown>, path: string): Problem | undefined {
  const execution = own(filter, 'execution');
  if (execution === undefined) return undefined;
  if (!isObject(execution)) return problem(at(path, 'execution'), 'must be an object');
  return checkEnum(execution, at(path, 'execution'), 'type', EXECUTION_TYPES, false);
}

function checkControlGroup(value: Record<string, unknown>, path: string): Problem | undefined {
  const percentage = own(value, 'campaign_control_group_percentage');
  if (percentage === undefined) {
    return own(value, 'is_campaign_control_group_enabled') === true ? problem(at(path, 'campaign_control_group_percentage'), MANDATORY) : undefined;
  }
  if (typeof percentage !== 'number' || !Number.isInteger(percentage) || percentage < 0 || percentage > 100) {
    return problem(at(path, 'campaign_control_group_percentage'), 'must be an integer from 0 to 100');
  }
  return undefined;
}

function checkUtm(value: Record<string, unknown>, path: string): Problem | undefined {
  const bad = requireStrings(value, path, ['utm_source', 'utm_medium']);
  if (bad) return bad;
  const custom = Object.keys(value).filter((key) => !(STANDARD_UTM_KEYS as readonly string[]).includes(key));
  return custom.length > MAX_CUSTOM_UTM_PARAMS ? problem(path, `must carry at most ${MAX_CUSTOM_UTM_PARAMS} custom parameters`) : undefined;
}
