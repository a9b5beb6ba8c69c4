import { afterEach, describe, expect, it } from 'vitest';
import { isValidationError } from '../../src/errors';
import { buildEvent, CLICKED, SHOWN, timezoneOffsetAt } from '../../src/tracker/experience-event';
import type { ExperienceContext } from '../../src/tracker/types';
import { context } from './fixtures';

const originalTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalTz;
});

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('buildEvent', () => {
  it('stamps a v4 UUID, epoch seconds, the offset and the context as attributes', () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0, 999);
    const event = buildEvent(CLICKED, context, { b_id: 'Add to cart', price: 12.5, sale: true }, 'u-1', now);
    expect(event.uuid).toMatch(UUID_V4);
    expect(event).toMatchObject({
      action: 'SVC_PERSONALIZATION_MESSAGE_CLICKED',
      time: 1_795_348_800,
      customerId: 'u-1',
      recordedAt: now,
    });
    expect(event.attributes).toEqual({ ...context, b_id: 'Add to cart', price: 12.5, sale: true });
    expect(Number.isInteger(event.offset)).toBe(true);
  });

  it('makes a fresh UUID for every event', () => {
    const ids = new Set(Array.from({ length: 5_000 }, () => buildEvent(SHOWN, context, undefined, undefined, 0).uuid));
    expect(ids.size).toBe(5_000);
  });

  // Seconds east of UTC at the event's own instant, including half-hour and 45-minute zones and
  // both sides of a DST change (getTimezoneOffset is minutes west).
  it.each([
    ['UTC', '2026-07-01T12:00:00Z', 0],
    ['Asia/Kolkata', '2026-07-01T12:00:00Z', 19_800],
    ['Asia/Kathmandu', '2026-07-01T12:00:00Z', 20_700],
    ['Pacific/Chatham', '2026-07-01T12:00:00Z', 45_900],
    ['Pacific/Chatham', '2026-01-01T12:00:00Z', 49_500],
    ['America/St_Johns', '2026-01-15T12:00:00Z', -12_600],
    ['America/St_Johns', '2026-07-15T12:00:00Z', -9_000],
    ['America/New_York', '2026-03-08T06:59:59Z', -18_000],
    ['America/New_York', '2026-03-08T07:00:00Z', -14_400],
    ['Europe/London', '2026-10-25T00:59:59Z', 3_600],
    ['Europe/London', '2026-10-25T01:00:00Z', 0],
    ['Australia/Lord_Howe', '2026-04-04T14:59:59Z', 39_600],
    ['Australia/Lord_Howe', '2026-04-04T15:00:00Z', 37_800],
  ])('offset in %s at %s is %i', (zone, iso, expected) => {
    process.env.TZ = zone;
    const at = Date.parse(iso);
    expect(timezoneOffsetAt(at)).toBe(expected);
    // buildEvent caches the offset per minute; a zone switch within one minute (only a test does
    // that) shows from the next minute, so step out of the cached minute first.
    buildEvent(SHOWN, context, undefined, undefined, at - 60_000);
    expect(buildEvent(SHOWN, context, undefined, undefined, at).offset).toBe(expected);
  });

  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;

  it.each([
    [null, undefined, 'context', 'must be an object'],
    [{ ...context, cid: undefined }, undefined, 'context.cid', 'must be a non-empty string'],
    [{ ...context, audience_id: '' }, undefined, 'context.audience_id', 'must be a non-empty string'],
    [{ ...context, svc_variation_id: 2 }, undefined, 'context.svc_variation_id', 'must be a non-empty string'],
    [{ ...context, type: 5 }, undefined, 'context.type', 'must be a string'],
    [{ ...context, experience: 'x'.repeat(513) }, undefined, 'context.experience', 'must be at most 512 characters'],
    [context, 'b_id', 'attributes', 'must be an object'],
    [context, { svc_source: 'x' }, 'attributes.svc_source', 'must not start with svc_ (reserved for the system)'],
    [context, { cid: 'other' }, 'attributes.cid', 'must not replace a context field'],
    [context, { type: 'other' }, 'attributes.type', 'must not replace a context field'],
    [context, { nested: { a: 1 } }, 'attributes.nested', 'must be a string, finite number or boolean'],
    [context, { loop: cyclic }, 'attributes.loop', 'must be a string, finite number or boolean'],
    [context, { when: new Date(0) }, 'attributes.when', 'must be a string, finite number or boolean'],
    [context, { n: Number.NaN }, 'attributes.n', 'must be a string, finite number or boolean'],
    [context, { big: 'x'.repeat(513) }, 'attributes.big', 'must be at most 512 characters'],
    [context, { ['k'.repeat(201)]: 1 }, `attributes.${'k'.repeat(201)}`, 'name must be 1 to 200 characters'],
    [context, { '': 1 }, 'attributes.', 'name must be 1 to 200 characters'],
    [context, JSON.parse('{"__proto__": "x"}'), 'attributes.__proto__', 'must not replace a context field'],
    [context, Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`a${i}`, i])), 'attributes', 'must have at most 100 entries'],
  ])('refuses %#: %s / %s → %s %s', (ctx, extra, field, rule) => {
    let thrown: unknown;
    try {
      buildEvent(SHOWN, ctx as ExperienceContext, extra as never, undefined, 0);
    } catch (error) {
      thrown = error;
    }
    expect(isValidationError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ field, rule, code: 'ERR_VALIDATION', message: `${field}: ${rule}` });
  });
});
