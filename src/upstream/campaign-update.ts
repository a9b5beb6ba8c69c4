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
/** V1 spells the metrics with a space, V5 with an underscore: both are accepted. */
export const SHERPA_METRICS = ['OPEN RATE', 'CLICK RATE', 'BOTH', 'OPEN_RATE', 'CLICK_RATE'] as const;

/** Options of `validateCampaignUpdate`. */
export interface CampaignUpdateOptions {
  /** The stored campaign's channel, when known; otherwise taken from `channel` in the body. */
  channel?: CampaignChannel;
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
 * equal to the stored one; Sherpa metrics in both spellings.
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
    const bad = check(value, key, channel);
    if (bad) return bad;
  }
  const deliveryType = own(body, 'campaign_delivery_type');
  if (deliveryType !== undefined && typeof deliveryType !== 'string') return problem('campaign_delivery_type', 'must be a string');
  return undefined;
}

// Every top-level object, with the check of its required children (none known for the last five).
const OBJECT_CHECKS: Array<[string, (value: Record<string, unknown>, path: string, channel?: CampaignChannel) => Problem | undefined]> = [
  ['basic_details', checkBasicDetails],
  ['campaign_content', checkContent],
  ['scheduling_details', checkScheduling],
  ['trigger_condition', checkTrigger],
  ['segmentation_details', checkFilterGroups],
  ['control_group_details', checkControlGroup],
  ['utm_params', checkUtm],
  ['delivery_controls', () => undefined],
  ['conversion_goal_details', () => undefined],
  ['advanced', () => undefined],
  ['connector', () => undefined],
  ['campaign_audience_limit', () => undefined],
];

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
  const bad = requireStrings(value, path, ['name']);
  if (bad) return bad;
  if (channel === 'EMAIL' || (channel === undefined && own(value, 'content_type') !== undefined)) {
    const type = checkEnum(value, path, 'content_type', EMAIL_CONTENT_TYPES, true);
    if (type) return type;
    if (own(value, 'content_type') === 'PROMOTIONAL') {
      const category = requireStrings(value, path, ['subscription_category']);
      if (category) return category;
    }
    return undefined;
  }
  const platforms = own(value, 'platforms');
  if (platforms === undefined) return problem(at(path, 'platforms'), MANDATORY);
  if (!Array.isArray(platforms) || platforms.length === 0) return problem(at(path, 'platforms'), 'must be a non-empty array');
  for (let i = 0; i < platforms.length; i++) {
    if (!(PUSH_PLATFORMS as readonly string[]).includes(platforms[i] as string)) return problem(at(at(path, 'platforms'), i), oneOf(PUSH_PLATFORMS));
  }
  const specific = own(value, 'platform_specific_details');
  if (specific === undefined) return problem(at(path, 'platform_specific_details'), MANDATORY);
  if (!isObject(specific)) return problem(at(path, 'platform_specific_details'), 'must be an object');
  return undefined;
}

function checkContent(value: Record<string, unknown>, path: string, channel?: CampaignChannel): Problem | undefined {
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
    const bad = checkEmail(email, at(contentPath, 'email'));
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
    const bad = requireStrings(details, detailsPath, required) ?? checkEnum(details, detailsPath, 'default_click_action', CLICK_ACTIONS, false);
    if (bad) return bad;
  }
  return undefined;
}

function checkEmail(email: unknown, path: string): Problem | undefined {
  if (!isObject(email)) return problem(path, 'must be an object');
  const bad = requireStrings(email, path, ['subject', 'sender_name', 'from_address', 'reply_to_address']);
  if (bad) return bad;
  for (const key of ['from_address', 'reply_to_address']) {
    if (!isEmail(own(email, key))) return problem(at(path, key), 'must be an e-mail address');
  }
  return checkEnum(email, path, 'email_editor', ['Froala Editor', 'Ace Editor'], false);
}

function checkVariations(value: unknown, path: string): Problem | undefined {
  if (!isObject(value)) return problem(path, 'must be an object');
  const type = checkEnum(value, path, 'distribution_type', ['SHERPA', 'MANUAL'], true);
  if (type) return type;
  const count = own(value, 'no_of_variations');
  if (count === undefined) return problem(at(path, 'no_of_variations'), MANDATORY);
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return problem(at(path, 'no_of_variations'), 'must be an integer of at least 1');
  if (own(value, 'distribution_type') === 'MANUAL') {
    const split = own(value, 'manual_distribution_percentage');
    if (split === undefined) return problem(at(path, 'manual_distribution_percentage'), MANDATORY);
    if (!isObject(split)) return problem(at(path, 'manual_distribution_percentage'), 'must be an object');
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
          ? requireStrings(filter, filterPath, ['action_name'])
          : own(filter, 'id') === undefined
            ? problem(at(filterPath, 'id'), MANDATORY)
            : undefined;
    if (bad) return bad;
  }
  return undefined;
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
  return requireStrings(value, path, ['utm_source', 'utm_medium']);
}
