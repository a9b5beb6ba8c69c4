import { at, isObject, isUuidV4, oneOf, own, problem, type Problem, type ValidateOptions } from './problem';

/** The two experience actions; case-sensitive. */
export const EXPERIENCE_ACTIONS = ['SVC_PERSONALIZATION_MESSAGE_SHOWN', 'SVC_PERSONALIZATION_MESSAGE_CLICKED'] as const;
/** Platforms the upstream recognises (case-insensitive); anything else is recorded as `Unknown`. */
export const EXPERIENCE_PLATFORMS = ['web', 'android', 'ios', 'tv'] as const;
/** Keys `attributes` must carry, all strings (the experience context of the fetch). */
export const EXPERIENCE_ATTRIBUTES = ['cid', 'experience', 'svc_locale_id', 'svc_variation_id', 'audience_name', 'audience_id'] as const;
/** At most this many elements (users) per request. */
export const MAX_EXPERIENCE_ELEMENTS = 100;
/** `user_timezone_offset` is seconds east of UTC within ±15 h. */
export const MAX_TIMEZONE_OFFSET = 54_000;

const TITLE = 'Invalid Field Value';
/** Keys `attributes` may carry, as strings. */
const OPTIONAL_ATTRIBUTES = ['type', 'b_id'] as const;

/**
 * Checks an experience-events body (`{ elements: [...] }`) against the upstream's rules and
 * returns the first problem, or undefined when the body is acceptable.
 *
 * Accepted on purpose (the public material contradicts itself): an unrecognised `platform`
 * string (recorded as Unknown), `b_id` at action level or inside `attributes`, any string as
 * `attributes.type`, extra keys in `attributes`.
 *
 * @example
 * validateExperienceEvents(body, { now: Date.now() }); // undefined, or { field: 'elements[0].actions[0].event_time', rule: 'must not be in the future', status: 400 }
 */
export function validateExperienceEvents(body: unknown, options: ValidateOptions = {}): Problem | undefined {
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  const skew = options.futureSkewSeconds ?? 60;
  if (!isObject(body)) return problem('body', 'must be a JSON object', 400, TITLE);
  const elements = own(body, 'elements');
  if (elements === undefined) return problem('elements', 'is required', 400, TITLE);
  if (!Array.isArray(elements)) return problem('elements', 'must be an array', 400, TITLE);
  if (elements.length === 0) return problem('elements', 'must contain at least one element', 400, TITLE);
  if (elements.length > MAX_EXPERIENCE_ELEMENTS) {
    return problem('elements', `must contain at most ${MAX_EXPERIENCE_ELEMENTS} elements`, 400, TITLE);
  }
  for (let e = 0; e < elements.length; e++) {
    const found = checkElement(elements[e], at('elements', e), nowSeconds + skew);
    if (found) return found;
  }
  return undefined;
}

function checkElement(element: unknown, path: string, latest: number): Problem | undefined {
  if (!isObject(element)) return problem(path, 'must be an object', 400, TITLE);
  const customerId = own(element, 'customer_id');
  if (customerId === undefined) return problem(at(path, 'customer_id'), 'is required', 400, TITLE);
  if (typeof customerId !== 'string' || customerId.trim() === '') {
    return problem(at(path, 'customer_id'), 'must be a non-empty string', 400, TITLE);
  }
  const userAttributes = own(element, 'user_attributes');
  if (userAttributes !== undefined && !isObject(userAttributes)) {
    return problem(at(path, 'user_attributes'), 'must be an object', 400, TITLE);
  }
  const offset = own(element, 'user_timezone_offset');
  if (offset !== undefined) {
    if (typeof offset !== 'number' || !Number.isInteger(offset)) {
      return problem(at(path, 'user_timezone_offset'), 'must be an integer (seconds east of UTC)', 400, TITLE);
    }
    if (offset < -MAX_TIMEZONE_OFFSET || offset > MAX_TIMEZONE_OFFSET) {
      return problem(at(path, 'user_timezone_offset'), `must be between -${MAX_TIMEZONE_OFFSET} and ${MAX_TIMEZONE_OFFSET}`, 400, TITLE);
    }
  }
  const actions = own(element, 'actions');
  if (actions === undefined) return problem(at(path, 'actions'), 'is required', 400, TITLE);
  if (!Array.isArray(actions)) return problem(at(path, 'actions'), 'must be an array', 400, TITLE);
  if (actions.length === 0) return problem(at(path, 'actions'), 'must contain at least one action', 400, TITLE);
  for (let a = 0; a < actions.length; a++) {
    const found = checkAction(actions[a], at(at(path, 'actions'), a), latest);
    if (found) return found;
  }
  return undefined;
}

function checkAction(action: unknown, path: string, latest: number): Problem | undefined {
  if (!isObject(action)) return problem(path, 'must be an object', 400, TITLE);
  const name = own(action, 'action');
  if (name === undefined) return problem(at(path, 'action'), 'is required', 400, TITLE);
  if (typeof name !== 'string' || !(EXPERIENCE_ACTIONS as readonly string[]).includes(name)) {
    return problem(at(path, 'action'), oneOf(EXPERIENCE_ACTIONS), 400, TITLE);
  }
  const uuid = own(action, 'svc_event_uuid');
  if (uuid === undefined) return problem(at(path, 'svc_event_uuid'), 'is required', 400, TITLE);
  if (!isUuidV4(uuid)) return problem(at(path, 'svc_event_uuid'), 'must be a UUID v4', 400, TITLE);
  const time = own(action, 'event_time');
  if (time === undefined) return problem(at(path, 'event_time'), 'is required', 400, TITLE);
  if (typeof time !== 'number' || !Number.isInteger(time) || time < 0) {
    return problem(at(path, 'event_time'), 'must be a non-negative integer (epoch seconds)', 400, TITLE);
  }
  if (time > latest) return problem(at(path, 'event_time'), 'must not be in the future (epoch seconds, not milliseconds)', 400, TITLE);
  const platform = own(action, 'platform');
  if (platform !== undefined && typeof platform !== 'string') return problem(at(path, 'platform'), 'must be a string', 400, TITLE);
  const bId = own(action, 'b_id');
  if (bId !== undefined && typeof bId !== 'string') return problem(at(path, 'b_id'), 'must be a string', 400, TITLE);
  const attributes = own(action, 'attributes');
  if (attributes === undefined) return problem(at(path, 'attributes'), 'is required', 400, TITLE);
  if (!isObject(attributes)) return problem(at(path, 'attributes'), 'must be an object', 400, TITLE);
  for (const key of EXPERIENCE_ATTRIBUTES) {
    const value = own(attributes, key);
    if (value === undefined) return problem(at(at(path, 'attributes'), key), 'is required', 400, TITLE);
    if (typeof value !== 'string') return problem(at(at(path, 'attributes'), key), 'must be a string', 400, TITLE);
  }
  for (const key of OPTIONAL_ATTRIBUTES) {
    const value = own(attributes, key);
    if (value !== undefined && typeof value !== 'string') return problem(at(at(path, 'attributes'), key), 'must be a string', 400, TITLE);
  }
  return undefined;
}

/**
 * The platform the upstream records for a sent value: one of `web|android|ios|tv`
 * (case-insensitive match), else `Unknown`.
 *
 * @example
 * recordedPlatform('iOS'); // 'ios'
 */
export function recordedPlatform(value: unknown): string {
  if (typeof value !== 'string') return 'Unknown';
  const lower = value.toLowerCase();
  return (EXPERIENCE_PLATFORMS as readonly string[]).includes(lower) ? lower : 'Unknown';
}
