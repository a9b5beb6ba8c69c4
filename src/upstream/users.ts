import { INVALID_ATTRIBUTE, MALFORMED_JSON, MALFORMED_JSON_MESSAGE, MISSING_ATTRIBUTE, NOT_FOUND } from './error-types';
import { at, isEmail, isObject, looksLikeIsoDateTime, isIsoDateTime, oneOf, own, problem, type Problem, type ValidateOptions } from './problem';

/** `platforms[].platform` values (case-sensitive as documented). */
export const USER_PLATFORMS = ['ANDROID', 'iOS', 'web'] as const;
/** Attribute names the upstream blocks. */
export const BLOCKED_ATTRIBUTE_NAMES = ['', 'id', '_id'] as const;
/**
 * `svc_`-prefixed names the upstream itself documents as user attributes; every other `svc_`
 * name is refused (the prefix is reserved). Identity-resolution identifiers are allowed too.
 * `svc_mobile` is the identifier the upstream's own documentation names for identity resolution:
 * it is a user attribute whether or not resolution is on, so a workspace that sends it from day one
 * (before resolution is switched on) must not be refused.
 */
export const SYSTEM_USER_ATTRIBUTES = [
  'svc_wa_subscription',
  'svc_em_unsub_categories',
  'svc_sub_w',
  'svc_spam',
  'svc_unsubscribe',
  'svc_hard_bounce',
  'svc_sms_subscription',
  'svc_email_optin_status',
  'svc_gaid',
  'svc_mobile',
] as const;
/**
 * `customer_id` values the upstream refuses (compared case-insensitively), from the data
 * overview's list; ids must also be longer than one character.
 */
export const BLOCKED_CUSTOMER_IDS = [
  'unknown',
  'guest',
  'null',
  '0',
  '1',
  'true',
  'false',
  'user_attribute_unique_id',
  'na',
  'n/a',
  '""',
  'dummy_seller_code',
  'user_id',
  'id',
  'customer_id',
  'uid',
  'userid',
  'none',
  'undefined',
] as const;

const ARRAY_OPERATORS = ['addValueToArrayField', 'removeValueFromArrayField'] as const;

/** `svc_email_optin_status` values. */
export const EMAIL_OPTIN_STATUSES = ['DOUBLE_OPTED_IN', 'OPTED_OUT', 'OPT_IN_PENDING'] as const;

type AttributeRule = [test: (value: unknown) => boolean, rule: string];
const STRING: AttributeRule = [(v) => typeof v === 'string', 'must be a string'];
const BOOLEAN: AttributeRule = [(v) => typeof v === 'boolean', 'must be a boolean'];
/**
 * The standard attributes the schema types, with their rule; every other attribute is free-form.
 * Exported so that the conformance table can list one row per key.
 */
export const STANDARD_USER_ATTRIBUTES: Readonly<Record<string, AttributeRule>> = {
  u_n: STRING,
  u_fn: STRING,
  u_ln: STRING,
  u_gd: STRING,
  uid: STRING,
  u_em: [isEmail, 'must be an e-mail address'],
  u_mb: [(v) => typeof v === 'string' && /^\+?\d{4,}$/.test(v), 'must be a string of digits with the country code'],
  u_bd: [isIsoDateTime, 'must be a valid ISO 8601 date-time'],
  geo: [(v) => typeof v === 'string' && /^-?\d+(\.\d+)? -?\d+(\.\d+)?$/.test(v), 'must be a string "lat lon"'],
  svc_wa_subscription: BOOLEAN,
  push_preference: BOOLEAN,
  svc_sub_w: BOOLEAN,
  svc_spam: BOOLEAN,
  svc_unsubscribe: BOOLEAN,
  svc_hard_bounce: BOOLEAN,
  svc_em_unsub_categories: STRING,
  svc_sms_subscription: STRING,
  svc_email_optin_status: [(v) => (EMAIL_OPTIN_STATUSES as readonly unknown[]).includes(v), oneOf(EMAIL_OPTIN_STATUSES)],
  cr_t: [(v) => Number.isSafeInteger(v), 'must be an integer (epoch)'],
  u_l_a: [(v) => Number.isSafeInteger(v), 'must be an integer (epoch)'],
};

/**
 * Checks a `customer_id` value against the upstream's rules (string, more than one character,
 * not a placeholder such as `unknown` or `null`).
 *
 * @example
 * checkCustomerId('null', 'customer_id'); // { field: 'customer_id', rule: 'must not be a placeholder value such as null', ... }
 */
export function checkCustomerId(value: unknown, field: string): Problem | undefined {
  if (typeof value !== 'string') return problem(field, MALFORMED_JSON_MESSAGE, 400, MALFORMED_JSON);
  if (value.trim() === '') return problem(field, 'can not be empty Unicode String', 400, MISSING_ATTRIBUTE);
  if (value.length < 2) return problem(field, 'must be longer than one character', 400, INVALID_ATTRIBUTE);
  if ((BLOCKED_CUSTOMER_IDS as readonly string[]).includes(value.trim().toLowerCase())) {
    return problem(field, `must not be a placeholder value such as ${value.trim()}`, 400, INVALID_ATTRIBUTE);
  }
  return undefined;
}

/**
 * @internal The identity rule users and events share: `customer_id` is required and checked,
 * except that with identity resolution on it may be absent, and then one of the identifiers
 * must hold a non-empty string or a number in `holder` (`attributes` or `user_identifiers`).
 * `missing` builds the operation's own problem from the comma-separated identifier names.
 */
export function checkIdentity(
  customerId: unknown,
  identifiers: readonly string[] | undefined,
  holder: Record<string, unknown> | undefined,
  missing: (names: string) => Problem,
): Problem | undefined {
  if (customerId !== undefined || !identifiers) {
    if (customerId === undefined) return problem('customer_id', NOT_FOUND, 400, MISSING_ATTRIBUTE);
    return checkCustomerId(customerId, 'customer_id');
  }
  const present = identifiers.some((name) => {
    const value = holder ? own(holder, name) : undefined;
    return typeof value === 'string' ? value.trim() !== '' : typeof value === 'number';
  });
  return present ? undefined : missing(identifiers.join(', '));
}

/**
 * Checks a track-user body. `platforms` is accepted both at top level (the schema) and inside
 * `attributes` (every example), as the facts settle it (§2.2); `active` only as the string
 * `"true"|"false"` (§2.2, §6.3): a boolean is refused, naming the field.
 *
 * @example
 * validateUser({ type: 'customer', customer_id: 'u-42', attributes: { name: 'Ada' } }); // undefined
 */
export function validateUser(body: unknown, options: ValidateOptions = {}): Problem | undefined {
  if (!isObject(body)) return problem('body', 'must be a JSON object', 400, MALFORMED_JSON);
  const type = own(body, 'type');
  if (type === undefined) return problem('type', NOT_FOUND, 400, MISSING_ATTRIBUTE);
  if (type !== 'customer') return problem('type', 'must be "customer" (case-sensitive)', 400, INVALID_ATTRIBUTE);

  const identifiers = options.identityResolution?.identifiers;
  const attributes = own(body, 'attributes');
  if (attributes !== undefined && !isObject(attributes)) return problem('attributes', 'must be an object', 400, MALFORMED_JSON);
  const identity = checkIdentity(own(body, 'customer_id'), identifiers, attributes, (names) =>
    problem('attributes', `must contain customer_id or one of the identifiers ${names}`, 400, MISSING_ATTRIBUTE),
  );
  if (identity) return identity;

  const updateOnly = own(body, 'update_existing_only');
  if (updateOnly !== undefined && typeof updateOnly !== 'boolean') {
    return problem('update_existing_only', 'must be a boolean', 400, MALFORMED_JSON);
  }
  const platforms = own(body, 'platforms');
  if (platforms !== undefined) {
    const bad = checkPlatforms(platforms, 'platforms');
    if (bad) return bad;
  }
  if (attributes) {
    const bad = checkAttributes(attributes, identifiers ?? []);
    if (bad) return bad;
  }
  return undefined;
}

function checkAttributes(attributes: Record<string, unknown>, identifiers: readonly string[]): Problem | undefined {
  for (const name of Object.keys(attributes)) {
    const field = at('attributes', name);
    const value = attributes[name];
    if ((BLOCKED_ATTRIBUTE_NAMES as readonly string[]).includes(name)) {
      return problem(name === '' ? 'attributes' : field, `must not use the blocked name "${name}"`, 400, INVALID_ATTRIBUTE);
    }
    if (name.toLowerCase().startsWith('svc_') && !(SYSTEM_USER_ATTRIBUTES as readonly string[]).includes(name) && !identifiers.includes(name)) {
      return problem(field, 'must not start with svc_ (reserved for the system)', 400, INVALID_ATTRIBUTE);
    }
    if (name === 'platforms') {
      const bad = checkPlatforms(value, field);
      if (bad) return bad;
      continue;
    }
    if ((ARRAY_OPERATORS as readonly string[]).includes(name)) {
      const bad = checkArrayOperator(value, field, identifiers);
      if (bad) return bad;
      continue;
    }
    const standard = Object.prototype.hasOwnProperty.call(STANDARD_USER_ATTRIBUTES, name) ? STANDARD_USER_ATTRIBUTES[name] : undefined;
    if (standard && !standard[0](value)) return problem(field, standard[1], 400, INVALID_ATTRIBUTE);
    const bad = checkValue(value, field);
    if (bad) return bad;
  }
  const add = own(attributes, 'addValueToArrayField');
  const remove = own(attributes, 'removeValueFromArrayField');
  if (isObject(add) && isObject(remove)) {
    const both = Object.keys(add).find((name) => Object.prototype.hasOwnProperty.call(remove, name));
    if (both !== undefined) {
      return {
        field: 'addValueToArrayField',
        rule: `Cannot add and remove '${both}' at the same time`,
        status: 400,
        type: 'ArrayFieldError',
      };
    }
  }
  return undefined;
}

function checkArrayOperator(value: unknown, field: string, identifiers: readonly string[]): Problem | undefined {
  if (!isObject(value)) return problem(field, 'must be an object mapping attribute names to arrays', 400, INVALID_ATTRIBUTE);
  for (const name of Object.keys(value)) {
    if ((BLOCKED_ATTRIBUTE_NAMES as readonly string[]).includes(name)) {
      return problem(at(field, name), `must not use the blocked name "${name}"`, 400, INVALID_ATTRIBUTE);
    }
    if (name.toLowerCase().startsWith('svc_') && !identifiers.includes(name)) {
      return problem(at(field, name), 'must not start with svc_ (reserved for the system)', 400, INVALID_ATTRIBUTE);
    }
    const items = value[name];
    if (!Array.isArray(items)) return problem(at(field, name), 'must be an array', 400, INVALID_ATTRIBUTE);
    const bad = checkValue(items, at(field, name));
    if (bad) return bad;
  }
  return undefined;
}

/** Attribute values: string, finite number, boolean, ISO 8601 date-time string, or an array of those. */
function checkValue(value: unknown, field: string): Problem | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (Array.isArray(item) || !isScalar(item)) {
        return problem(at(field, i), 'must be a string, number, boolean or ISO 8601 date', 400, INVALID_ATTRIBUTE);
      }
      const bad = checkDate(item, at(field, i));
      if (bad) return bad;
    }
    return undefined;
  }
  if (!isScalar(value)) {
    return problem(field, 'must be a string, number, boolean, ISO 8601 date or array', 400, INVALID_ATTRIBUTE);
  }
  return checkDate(value, field);
}

const isScalar = (value: unknown): boolean => typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

function checkDate(value: unknown, field: string): Problem | undefined {
  // A string shaped like a date-time is stored as a date upstream, so it must name a real instant.
  if (typeof value === 'string' && looksLikeIsoDateTime(value) && !isIsoDateTime(value)) {
    return problem(field, 'must be a valid ISO 8601 date-time', 400, INVALID_ATTRIBUTE);
  }
  return undefined;
}

function checkPlatforms(value: unknown, field: string): Problem | undefined {
  if (!Array.isArray(value)) return problem(field, 'must be an array of { platform, active }', 400, INVALID_ATTRIBUTE);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const path = at(field, i);
    if (!isObject(item)) return problem(path, 'must be an object { platform, active }', 400, INVALID_ATTRIBUTE);
    const platform = own(item, 'platform');
    if (platform === undefined) return problem(at(path, 'platform'), NOT_FOUND, 400, MISSING_ATTRIBUTE);
    if (typeof platform !== 'string' || !(USER_PLATFORMS as readonly string[]).includes(platform)) {
      return problem(at(path, 'platform'), oneOf(USER_PLATFORMS), 400, INVALID_ATTRIBUTE);
    }
    const active = own(item, 'active');
    if (active !== undefined && active !== 'true' && active !== 'false') {
      return problem(at(path, 'active'), 'must be "true" or "false"', 400, INVALID_ATTRIBUTE);
    }
  }
  return undefined;
}

/**
 * Whether an attribute value is stored as a date (an ISO 8601 date-time string).
 *
 * @example
 * isDateValue('2024-05-01T10:00:00Z'); // true
 */
export const isDateValue = (value: unknown): boolean => isIsoDateTime(value);
