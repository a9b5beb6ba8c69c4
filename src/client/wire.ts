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

/**
 * A random UUID v4. `crypto.randomUUID` exists only in secure contexts, so the bytes come from
 * `crypto.getRandomValues`, which every browser and Node 20 has everywhere.
 *
 * @example
 * uuidV4(); // '3b241101-e2bb-4255-8caf-4136c566a962'
 */
export function uuidV4(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
