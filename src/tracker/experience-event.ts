import { ValidationError } from '../errors';
import { uuidV4 } from '../uuid';
import type { AttributeValue, ExperienceContext, ExtraAttributes, StoredEvent } from './types';

export const SHOWN = 'SVC_PERSONALIZATION_MESSAGE_SHOWN';
export const CLICKED = 'SVC_PERSONALIZATION_MESSAGE_CLICKED';

// Upstream fair-use limits: longer values are truncated there, more attributes dropped. We refuse
// instead, so what is reported is what was meant.
const MAX_VALUE_LENGTH = 512;
const MAX_NAME_LENGTH = 200;
const MAX_ATTRIBUTES = 100;

/** Seconds east of UTC at `ms` (getTimezoneOffset is minutes west, and varies with DST). */
export const timezoneOffsetAt = (ms: number): number => 0 - new Date(ms).getTimezoneOffset() * 60;

// Offsets change only on minute boundaries (DST, zone changes), and asking the Date costs ~1 µs:
// remember the last minute's answer.
let offsetMinute = NaN;
let offset = 0;
const offsetAt = (ms: number): number => {
  const minute = Math.floor(ms / 60_000);
  if (minute !== offsetMinute) {
    offsetMinute = minute;
    offset = timezoneOffsetAt(ms);
  }
  return offset;
};

const notObject = (value: unknown) => typeof value !== 'object' || value === null;

/** Every refusal: the field, and the rule it broke, in a few words. */
function fail(field: string, rule: string): never {
  throw new ValidationError(field, rule);
}

/**
 * An event's attributes: the context's fields and the extra ones, validated. Apart from
 * buildEvent so that the inspector checks a context without drawing a UUID: its bundle carried
 * uuid.ts for that alone (−257 B gzip of dist/engage.inspect.js).
 */
export function attributesOf(context: ExperienceContext, extra: ExtraAttributes | null | undefined): Record<string, AttributeValue> {
  if (notObject(context)) fail('context', 'must be an object');
  // One literal of named reads, not a loop over the field names: keyed reads and writes are
  // megamorphic until the JIT has warmed up, and this is most of what a first `shown()` costs
  // (a cold loop of 10,000 in Chromium 156: 1.9 µs per context against 5.1).
  const attributes: Record<string, AttributeValue> = {
    cid: text(CONTEXT, 'cid', context.cid, true),
    experience: text(CONTEXT, 'experience', context.experience, true),
    svc_locale_id: text(CONTEXT, 'svc_locale_id', context.svc_locale_id, true),
    svc_variation_id: text(CONTEXT, 'svc_variation_id', context.svc_variation_id, true),
    audience_name: text(CONTEXT, 'audience_name', context.audience_name, true),
    audience_id: text(CONTEXT, 'audience_id', context.audience_id, true),
  };
  if (context.type !== undefined) attributes.type = text(CONTEXT, 'type', context.type);

  // null as much as undefined: JavaScript callers pass either for "none".
  if (extra != null) {
    if (notObject(extra) || Array.isArray(extra)) fail('attributes', 'must be an object');
    const names = Object.keys(extra);
    if (names.length > MAX_ATTRIBUTES) fail('attributes', `must have at most ${MAX_ATTRIBUTES} entries`);
    for (const name of names) {
      const value = extra[name]!;
      if (!name || name.length > MAX_NAME_LENGTH) fail(ATTRIBUTES + name, `name must be 1 to ${MAX_NAME_LENGTH} characters`);
      // Worded as the upstream words it.
      if (name.startsWith('svc_')) fail(ATTRIBUTES + name, 'must not start with svc_ (reserved for the system)');
      // `in` also holds for __proto__ (inherited), which must not be assigned.
      if (name in attributes || name === 'type') fail(ATTRIBUTES + name, 'must not replace a context field');
      attributes[name] =
        typeof value === 'string'
          ? text(ATTRIBUTES, name, value)
          : // Number.isFinite is false for anything but a finite number.
            typeof value === 'boolean' || Number.isFinite(value)
            ? value
            : fail(ATTRIBUTES + name, 'must be a string, finite number or boolean');
    }
  }
  return attributes;
}

/**
 * Validates the caller's input and builds the event to queue. Throws `ValidationError` naming the
 * field and the rule; the tracker turns that into `onError`, never into a throw into the page.
 */
export function buildEvent(
  action: string,
  context: ExperienceContext,
  extra: ExtraAttributes | null | undefined,
  customerId: string | undefined,
  now: number,
): StoredEvent {
  return {
    uuid: uuidV4(),
    action,
    time: Math.floor(now / 1000),
    offset: offsetAt(now),
    customerId,
    // Validated after the UUID is drawn (a refused event wastes one): as a separate statement before
    // the literal, terser keeps the call apart, +6 B gzip of every tracker bundle.
    attributes: attributesOf(context, extra),
    recordedAt: now,
  };
}

const CONTEXT = 'context.';
const ATTRIBUTES = 'attributes.';

/** `value` if it is a string (non-empty when `required`) within the length limit; the field's name is only built to refuse it. */
function text(prefix: string, name: string, value: unknown, required?: boolean): string {
  if (typeof value !== 'string' || (required && !value)) fail(prefix + name, required ? 'must be a non-empty string' : 'must be a string');
  if (value.length > MAX_VALUE_LENGTH) fail(prefix + name, `must be at most ${MAX_VALUE_LENGTH} characters`);
  return value;
}
