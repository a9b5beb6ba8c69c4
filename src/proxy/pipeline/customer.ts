import type { Operation } from '../types';

export type CustomerBinding = { ok: true; changed: boolean } | { ok: false; field: string };

/**
 * Puts the session's customer ID into the body where it is missing, and refuses a body that
 * names anyone else, so a browser can only report for its own user. Bodies of the wrong shape
 * are left alone: validation answers those in the upstream's words.
 */
export function bindCustomer(operation: Operation, body: unknown, customerId: string): CustomerBinding {
  if (!isObject(body)) return { ok: true, changed: false };
  if (operation === 'users' || operation === 'events') return bindOne(body, customerId, 'customer_id');
  if (operation !== 'experienceEvents' || !Array.isArray(body.elements)) return { ok: true, changed: false };
  let changed = false;
  for (let i = 0; i < body.elements.length; i++) {
    const element: unknown = body.elements[i];
    if (!isObject(element)) continue;
    const result = bindOne(element, customerId, `elements[${i}].customer_id`);
    if (!result.ok) return result;
    changed ||= result.changed;
  }
  return { ok: true, changed };
}

function bindOne(target: Record<string, unknown>, customerId: string, field: string): CustomerBinding {
  const current = target.customer_id;
  if (current === undefined || current === null || current === '') {
    target.customer_id = customerId;
    return { ok: true, changed: true };
  }
  return current === customerId ? { ok: true, changed: false } : { ok: false, field };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
