import { INVALID_ATTRIBUTE, MALFORMED_JSON, MALFORMED_JSON_MESSAGE, MISSING_ATTRIBUTE, NOT_FOUND } from './error-types';
import { MAX_TIMEZONE_OFFSET } from './experience-events';
import { at, isObject, isIsoDateTime, isoToMs, oneOf, own, problem, type Problem, type ValidateOptions } from './problem';
import { checkIdentity } from './users';

/** `actions[].platform` values; matched case-insensitively (the examples write `Android`). */
export const EVENT_PLATFORMS = ['ANDROID', 'iOS', 'web', 'TV', 'unknown'] as const;
/** `svc_os_type` values (TV platforms). */
export const TV_OS_TYPES = ['ROKU', 'WebOS', 'AndroidTV', 'tvOS', 'Tizen', 'FireOS', 'VizioTV', 'Xbox'] as const;
/** Events per minute per workspace before the upstream answers 429. */
export const EVENTS_PER_MINUTE = 30_000;

/**
 * Checks a track-event body. Times (`user_time`, `current_time`) are accepted as ISO 8601,
 * epoch seconds, or epoch milliseconds (13 digits, as the main example sends), as numbers or
 * digit strings; any of them later than now (+ skew) is refused as future-dated.
 *
 * @example
 * validateEvents({ type: 'event', customer_id: 'u-42', actions: [{ action: 'Purchased' }] }); // undefined
 */
export function validateEvents(body: unknown, options: ValidateOptions = {}): Problem | undefined {
  const latestMs = (options.now ?? Date.now()) + (options.futureSkewSeconds ?? 60) * 1000;
  if (!isObject(body)) return problem('body', 'must be a JSON object', 400, MALFORMED_JSON);
  const type = own(body, 'type');
  if (type === undefined) return problem('type', NOT_FOUND, 400, MISSING_ATTRIBUTE);
  if (type !== 'event') return problem('type', 'must be "event" (case-sensitive)', 400, INVALID_ATTRIBUTE);

  const userIdentifiers = own(body, 'user_identifiers');
  if (userIdentifiers !== undefined && !isObject(userIdentifiers)) {
    return problem('user_identifiers', 'must be an object', 400, MALFORMED_JSON);
  }
  const identity = checkIdentity(own(body, 'customer_id'), options.identityResolution?.identifiers, userIdentifiers, (names) =>
    problem('user_identifiers', `must contain one of ${names} when customer_id is absent`, 400, MISSING_ATTRIBUTE),
  );
  if (identity) return identity;
  const deviceId = own(body, 'device_id');
  if (deviceId !== undefined && typeof deviceId !== 'string') return problem('device_id', 'must be a string', 400, MALFORMED_JSON);

  const actions = own(body, 'actions');
  if (actions === undefined) return problem('actions', NOT_FOUND, 400, MISSING_ATTRIBUTE);
  if (!Array.isArray(actions)) return problem('actions', 'must be an array', 400, MALFORMED_JSON);
  if (actions.length === 0) return problem('actions', 'can not be empty Array', 400, MISSING_ATTRIBUTE);
  for (let i = 0; i < actions.length; i++) {
    const bad = checkAction(actions[i], at('actions', i), latestMs);
    if (bad) return bad;
  }
  return undefined;
}

function checkAction(action: unknown, path: string, latestMs: number): Problem | undefined {
  if (!isObject(action)) return problem(path, 'must be an object', 400, MALFORMED_JSON);
  const name = own(action, 'action');
  if (name === undefined) return problem(at(path, 'action'), NOT_FOUND, 400, MISSING_ATTRIBUTE);
  if (typeof name !== 'string') return problem(at(path, 'action'), MALFORMED_JSON_MESSAGE, 400, MALFORMED_JSON);
  if (name.trim() === '') return problem(at(path, 'action'), NOT_FOUND, 400, MISSING_ATTRIBUTE);
  if (name.toLowerCase().startsWith('svc_')) return problem(at(path, 'action'), 'must not start with svc_ (reserved for the system)', 400, INVALID_ATTRIBUTE);

  const attributes = own(action, 'attributes');
  if (attributes !== undefined) {
    if (!isObject(attributes)) return problem(at(path, 'attributes'), 'must be an object', 400, MALFORMED_JSON);
    for (const key of Object.keys(attributes)) {
      // svc_os_type is the one system attribute an upstream example places here.
      if (key.toLowerCase().startsWith('svc_') && key !== 'svc_os_type') {
        return problem(at(at(path, 'attributes'), key), 'must not start with svc_ (reserved for the system)', 400, INVALID_ATTRIBUTE);
      }
      if (key === '') return problem(at(path, 'attributes'), 'names must not be empty', 400, INVALID_ATTRIBUTE);
    }
  }
  const platform = own(action, 'platform');
  if (platform !== undefined) {
    const known = typeof platform === 'string' && EVENT_PLATFORMS.some((p) => p.toLowerCase() === platform.toLowerCase());
    if (!known) return problem(at(path, 'platform'), oneOf(EVENT_PLATFORMS), 400, INVALID_ATTRIBUTE);
  }
  const osType = own(action, 'svc_os_type');
  if (osType !== undefined && (typeof osType !== 'string' || !(TV_OS_TYPES as readonly string[]).includes(osType))) {
    return problem(at(path, 'svc_os_type'), oneOf(TV_OS_TYPES), 400, INVALID_ATTRIBUTE);
  }
  const appVersion = own(action, 'app_version');
  if (appVersion !== undefined && typeof appVersion !== 'string') return problem(at(path, 'app_version'), 'must be a string', 400, MALFORMED_JSON);
  for (const key of ['user_time', 'current_time']) {
    const value = own(action, key);
    if (value === undefined) continue;
    const ms = eventTimeMs(value);
    if (ms === undefined) {
      return problem(at(path, key), 'must be an ISO 8601 date-time or epoch seconds (or milliseconds)', 400, INVALID_ATTRIBUTE);
    }
    if (ms > latestMs) return problem(at(path, key), 'must not be in the future', 400, INVALID_ATTRIBUTE);
  }
  const offset = own(action, 'user_timezone_offset');
  if (offset !== undefined && (typeof offset !== 'number' || !Number.isFinite(offset) || Math.abs(offset) > MAX_TIMEZONE_OFFSET)) {
    return problem(at(path, 'user_timezone_offset'), `must be a number between -${MAX_TIMEZONE_OFFSET} and ${MAX_TIMEZONE_OFFSET} (seconds)`, 400, INVALID_ATTRIBUTE);
  }
  return undefined;
}

/**
 * Reads an event time the way the upstream does: ISO 8601, or epoch seconds; 13-digit values
 * are taken as milliseconds (as the upstream's main example sends them). Undefined if unreadable.
 *
 * @example
 * eventTimeMs('1708939453396'); // 1708939453396
 * eventTimeMs(1708939453);      // 1708939453000
 */
export function eventTimeMs(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return undefined;
    return value >= 1e11 ? value : value * 1000;
  }
  if (typeof value !== 'string') return undefined;
  if (/^\d{1,16}$/.test(value)) return eventTimeMs(Number(value));
  if (/^\d+\.\d+$/.test(value)) return eventTimeMs(Number(value));
  return isIsoDateTime(value) ? isoToMs(value) : undefined;
}
