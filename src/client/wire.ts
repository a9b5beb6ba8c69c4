import { ValidationError } from '../errors';

const MAX_DEPTH = 32;

/**
 * Copies a caller's body into plain JSON data: `Date` values become strings (`formatDate`,
 * ISO 8601 by default), `undefined` members are dropped. Refuses what JSON can't carry or what
 * could hurt the code downstream (functions, bigints, invalid dates, `__proto__` keys, cycles and
 * nesting past 32 levels) with a `ValidationError` naming the field.
 *
 * @example
 * toWire({ attributes: { u_bd: new Date(0) } }); // { attributes: { u_bd: '1970-01-01T00:00:00.000Z' } }
 */
export function toWire(value: unknown, path = 'body', formatDate: (date: Date) => string = (d) => d.toISOString(), depth = 0): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ValidationError(path, 'must be a finite number');
    return value;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new ValidationError(path, 'must be a valid Date');
    return formatDate(value);
  }
  if (typeof value !== 'object') throw new ValidationError(path, 'must be JSON data (string, number, boolean, Date, array or object)');
  if (depth >= MAX_DEPTH) throw new ValidationError(path, `must not nest deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item, i) => toWire(item, `${path}[${i}]`, formatDate, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = path === 'body' ? key : `${path}.${key}`;
    if (key === '__proto__') throw new ValidationError(field, 'is a reserved key and is not allowed');
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = toWire(item, field, formatDate, depth + 1);
  }
  return out;
}
