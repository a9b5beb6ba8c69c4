/** The first rule a request broke, in terms both a developer and the upstream's error body can use. */
export interface Problem {
  /** Path of the offending value, e.g. `elements[0].actions[2].svc_event_uuid` (`body` for the whole body). */
  field: string;
  /** The rule, short and human, e.g. `must be a UUID v4`. */
  rule: string;
  /** The HTTP status the upstream answers with. */
  status: number;
  /** The upstream's error type string, where that operation's error shape has one. */
  type?: string;
}

/** What the identity-resolution setting of a workspace declares. */
export interface IdentityResolution {
  /** Attribute names that identify a user, e.g. `['svc_mobile']`. */
  identifiers: string[];
}

/** Options shared by the validators; each reads only what it needs. */
export interface ValidateOptions {
  /** Current time in ms, for "not in the future" checks. @default Date.now() */
  now?: number;
  /**
   * How far ahead of `now` an event time may be before it counts as future-dated: clocks of
   * browsers drift, and the upstream gives no number.
   * @default 60
   */
  futureSkewSeconds?: number;
  /** Set when the workspace has identity resolution enabled. @default undefined (off) */
  identityResolution?: IdentityResolution;
}

/** @internal Builds a Problem. */
export const problem = (field: string, rule: string, status = 400, type?: string): Problem =>
  type === undefined ? { field, rule, status } : { field, rule, status, type };

/** @internal A plain JSON object (not an array, not null). */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** @internal Own-property lookup that ignores anything inherited (`__proto__`, `constructor`). */
export const own = (value: Record<string, unknown>, key: string): unknown => (Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined);

/** @internal Appends a key or an index to a field path. */
export const at = (path: string, key: string | number): string => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/** @internal Quoted enumeration for rules: `must be one of A, B`. */
export const oneOf = (values: readonly string[]): string => `must be one of ${values.join(', ')}`;

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** @internal True for a UUID version 4 (RFC 9562 variant), any case. */
export const isUuidV4 = (value: unknown): value is string => typeof value === 'string' && UUID_V4.test(value);

// A pragmatic address check: one @, something on both sides, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** @internal */
export const isEmail = (value: unknown): value is string => typeof value === 'string' && EMAIL.test(value);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** @internal Looks like an ISO 8601 date-time (`2024-05-01T10:00:00Z`). */
export const looksLikeIsoDateTime = (value: string): boolean => ISO_DATE_TIME.test(value);
/** @internal An ISO 8601 date-time that names a real instant. */
export const isIsoDateTime = (value: unknown): value is string => typeof value === 'string' && looksLikeIsoDateTime(value) && isRealDate(value);

/**
 * @internal Epoch ms of an ISO 8601 date-time; one without a zone is read as UTC (the upstream
 * documents its zone-less times as UTC). NaN when unreadable.
 */
export function isoToMs(value: string): number {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value);
  return Date.parse(zoned ? value : `${value}Z`);
}

function isRealDate(value: string): boolean {
  const ms = isoToMs(value);
  if (Number.isNaN(ms)) return false;
  // Date.parse rolls 2024-02-30 over to March; compare the calendar fields back.
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
}

/**
 * Structural guard run on every parsed body before any validator: refuses `__proto__` keys (so
 * nothing downstream can be tricked into prototype pollution) and nesting deeper than `maxDepth`
 * (so recursive code never meets a stack-exhausting body). Iterative on purpose.
 *
 * @param maxDepth @default 32
 * @example
 * const p = checkJsonShape(JSON.parse(text));
 * if (p) return errorResponse('users', p);
 */
export function checkJsonShape(value: unknown, maxDepth = 32): Problem | undefined {
  return isNode(value) && !shapeIsSafe(value, maxDepth) ? firstShapeProblem(value, maxDepth) : undefined;
}

/**
 * The walk every body takes: no path, no frame and no key list per node (a third of the framed
 * walk's time). for-in would also visit a key some code enumerable-added to Object.prototype:
 * then it answers false and the framed walk, over own keys only, decides.
 */
function shapeIsSafe(value: object, maxDepth: number): boolean {
  const nodes: object[] = [value];
  const depths: number[] = [0];
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth >= maxDepth) return false;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (isNode(child)) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node) {
        if (key === '__proto__') return false;
        const child = (node as Record<string, unknown>)[key];
        if (isNode(child)) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return true;
}

/** The first problem of a body, with its path. */
function firstShapeProblem(value: object, maxDepth: number): Problem | undefined {
  const stack: ShapeFrame[] = [{ node: value, depth: 0, parent: undefined, key: undefined }];
  while (stack.length) {
    const frame = stack.pop()!;
    const { node, depth } = frame;
    if (depth >= maxDepth) return problem(framePath(frame), `must not nest deeper than ${maxDepth} levels`);
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const child: unknown = node[i];
        if (isNode(child)) stack.push({ node: child, depth: depth + 1, parent: frame, key: i });
      }
    } else {
      for (const key of Object.keys(node)) {
        if (key === '__proto__') return problem(framePath({ node, depth, parent: frame, key }), 'is a reserved key and is not allowed');
        const child = (node as Record<string, unknown>)[key];
        if (isNode(child)) stack.push({ node: child, depth: depth + 1, parent: frame, key });
      }
    }
  }
  return undefined;
}

interface ShapeFrame {
  node: object;
  depth: number;
  parent: ShapeFrame | undefined;
  /** Where it sits in its parent: an index or a key; none for the body itself. */
  key: string | number | undefined;
}

/** `body`, `elements[0].actions`, … as the validators name paths. */
function framePath(frame: ShapeFrame): string {
  const keys: Array<string | number> = [];
  for (let f: ShapeFrame | undefined = frame; f && f.key !== undefined; f = f.parent) keys.push(f.key);
  let path = 'body';
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    path = typeof key === 'number' ? `${path}[${key}]` : path === 'body' ? key : at(path, key);
  }
  return path;
}

const isNode = (value: unknown): value is object => typeof value === 'object' && value !== null;
