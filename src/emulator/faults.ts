import { OPERATION_NAMES, type Operation } from '../upstream/operations';
import { seededRandom } from './random';

/**
 * What a faulted request gets: an HTTP status with the operation's error body, `'reset'` (the
 * connection is dropped before anything is stored) or `'reset-after'` (the request is stored,
 * then the connection is dropped: the client never learns that it succeeded).
 */
export type FaultStatus = number | 'reset' | 'reset-after';

/** A fault specification, as `POST /_emulator/faults` takes it. */
export interface FaultSpec {
  /** Share of matching requests that fail, 0..1. @default 1 (0 when only `latencyMs` is given) */
  ratio?: number;
  /** Outcomes to pick from, uniformly. @default [500] */
  statuses?: FaultStatus[];
  /** `Retry-After` seconds sent with 429 and 503. @default none */
  retryAfterSeconds?: number;
  /** Delay added to every matching request (failed or not), in ms. @default 0 */
  latencyMs?: number;
  /** Apply to the next N matching requests only. @default unlimited */
  count?: number;
  /** Apply for this long from now, in ms. @default unlimited */
  durationMs?: number;
  /** Seed of the failure draw. @default the emulator's seed */
  seed?: number;
  /** Operations affected. @default all five */
  operations?: Operation[];
}

/** The active fault, as the admin API reports it. */
export interface FaultState {
  ratio: number;
  statuses: FaultStatus[];
  retryAfterSeconds: number | null;
  latencyMs: number;
  remaining: number | null;
  until: string | null;
  seed: number;
  operations: Operation[];
  /** Requests this spec has seen and failed so far. */
  seen: number;
  failed: number;
}

/** What the fault layer decided for one request. */
export interface FaultDecision {
  latencyMs: number;
  outcome?: FaultStatus;
  retryAfterSeconds?: number;
}

/**
 * Reads a fault spec from untrusted JSON; throws an Error naming the field and the rule.
 */
export function parseFaultSpec(input: unknown): FaultSpec {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new Error('body must be a JSON object');
  const raw = input as Record<string, unknown>;
  const spec: FaultSpec = {};
  const number = (key: keyof FaultSpec, min: number, max = Number.POSITIVE_INFINITY, integer = false): number | undefined => {
    const value = raw[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      throw new Error(`${key} must be ${integer ? 'an integer' : 'a number'} from ${min}${max === Number.POSITIVE_INFINITY ? ' up' : ` to ${max}`}`);
    }
    return value;
  };
  spec.ratio = number('ratio', 0, 1);
  spec.retryAfterSeconds = number('retryAfterSeconds', 0, 86_400);
  spec.latencyMs = number('latencyMs', 0, 60_000);
  spec.count = number('count', 1, Number.POSITIVE_INFINITY, true);
  spec.durationMs = number('durationMs', 1);
  spec.seed = number('seed', 0, 2 ** 32 - 1, true);
  if (raw.statuses !== undefined) {
    if (!Array.isArray(raw.statuses) || raw.statuses.length === 0) throw new Error('statuses must be a non-empty array');
    spec.statuses = (raw.statuses as unknown[]).map((status, i) => {
      if (status === 'reset' || status === 'reset-after') return status;
      if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599) return status;
      throw new Error(`statuses[${i}] must be an HTTP status from 400 to 599, "reset" or "reset-after"`);
    });
  }
  if (raw.operations !== undefined) {
    if (!Array.isArray(raw.operations) || raw.operations.length === 0) throw new Error('operations must be a non-empty array');
    spec.operations = raw.operations.map((op, i) => {
      if (typeof op === 'string' && (OPERATION_NAMES as readonly string[]).includes(op)) return op as Operation;
      throw new Error(`operations[${i}] must be one of ${OPERATION_NAMES.join(', ')}`);
    });
  }
  for (const key of Object.keys(raw)) {
    if (!['ratio', 'statuses', 'retryAfterSeconds', 'latencyMs', 'count', 'durationMs', 'seed', 'operations'].includes(key)) {
      throw new Error(`${key} is not a fault option`);
    }
  }
  return spec;
}

/** The fault layer: at most one active spec; decisions drawn from a seeded PRNG. */
export class Faults {
  private state: (FaultState & { untilMs: number | null }) | undefined;
  private next: () => number = Math.random;

  constructor(
    private readonly clock: () => number,
    private readonly defaultSeed: number,
  ) {}

  set(spec: FaultSpec): FaultState {
    const onlyLatency = spec.latencyMs !== undefined && spec.ratio === undefined && spec.statuses === undefined;
    const seed = spec.seed ?? this.defaultSeed;
    const untilMs = spec.durationMs === undefined ? null : this.clock() + spec.durationMs;
    this.next = seededRandom(seed);
    this.state = {
      ratio: spec.ratio ?? (onlyLatency ? 0 : 1),
      statuses: spec.statuses ?? [500],
      retryAfterSeconds: spec.retryAfterSeconds ?? null,
      latencyMs: spec.latencyMs ?? 0,
      remaining: spec.count ?? null,
      untilMs,
      until: untilMs === null ? null : new Date(untilMs).toISOString(),
      seed,
      operations: spec.operations ?? [...OPERATION_NAMES],
      seen: 0,
      failed: 0,
    };
    return this.current()!;
  }

  clear(): void {
    this.state = undefined;
  }

  current(): FaultState | undefined {
    this.expire();
    if (!this.state) return undefined;
    const { untilMs: _untilMs, ...state } = this.state;
    return { ...state, statuses: [...state.statuses], operations: [...state.operations] };
  }

  /** Decides for one upstream request; consumes one unit of `count`. */
  decide(operation: Operation): FaultDecision {
    this.expire();
    const state = this.state;
    if (!state || !state.operations.includes(operation)) return { latencyMs: 0 };
    state.seen++;
    if (state.remaining !== null) state.remaining--;
    const decision: FaultDecision = { latencyMs: state.latencyMs };
    // Two draws per request, always, so the pattern depends only on the seed and the order.
    const fail = this.next() < state.ratio;
    const choice = state.statuses[Math.floor(this.next() * state.statuses.length)]!;
    if (fail) {
      state.failed++;
      decision.outcome = choice;
      if ((choice === 429 || choice === 503) && state.retryAfterSeconds !== null) decision.retryAfterSeconds = state.retryAfterSeconds;
    }
    if (state.remaining === 0) this.state = undefined;
    return decision;
  }

  private expire(): void {
    if (this.state?.untilMs != null && this.clock() >= this.state.untilMs) this.state = undefined;
  }
}
