import type { Operation, OperationRateLimits, ProxyStore, RateLimit } from '../types';

/**
 * A client address's default budget of statements counted per hour: loss reports, and late
 * deliveries, each. A tracker states a new report only after a loss and once the one before was
 * acknowledged, so a visitor who keeps losing events states a few an hour; the alerts want to
 * know how many visitors lose events, not how often one does. The alert's floor (at least 10 an
 * hour, ops/engage-alerts.yml) is above what one address can have counted in any hour (3 per
 * fixed window, 6 across two).
 */
export const REPORTS_PER_HOUR = 3;

/**
 * Upstream quotas (facts sheet §9): users 10,000/min, events 30,000 events/min, campaign update
 * 10/s + 100/min + 6000/h, file-import status 50/min. Experience events have no documented
 * quota, so there is no workspace budget for them (a cap the upstream does not have would only
 * hold real events back in the browsers); the per-client one keeps one page, or one abusive
 * client, from flooding the proxy. Their `reports` budget (issue 47) is what one client address's
 * browsers may state into the loss and lateness metrics: 3 loss reports and 3 late deliveries an
 * hour (see REPORTS_PER_HOUR).
 */
export const DEFAULT_RATE_LIMITS: Readonly<Record<Operation, OperationRateLimits>> = {
  experienceEvents: { client: [{ limit: 1_200, windowMs: 60_000 }], reports: [{ limit: REPORTS_PER_HOUR, windowMs: 3_600_000 }] },
  users: { workspace: [{ limit: 10_000, windowMs: 60_000 }], client: [{ limit: 120, windowMs: 60_000 }] },
  events: { workspace: [{ limit: 30_000, windowMs: 60_000 }], client: [{ limit: 1_200, windowMs: 60_000 }] },
  campaignUpdate: {
    workspace: [
      { limit: 10, windowMs: 1_000 },
      { limit: 100, windowMs: 60_000 },
      { limit: 6_000, windowMs: 3_600_000 },
    ],
  },
  fileImportStatus: { workspace: [{ limit: 50, windowMs: 60_000 }] },
};

export interface LimitCheck {
  /** Whose budget: one client's, the whole workspace's, or one client's statements (loss reports, late deliveries). */
  scope: 'client' | 'workspace' | 'reports';
  /** Counter name without the window, e.g. `rl:events:ws:ENGAGEDEMO01`. */
  name: string;
  amount: number;
  rule: RateLimit;
}

/**
 * Takes `amount` from every budget at once and returns the new totals. All increments start in
 * the same tick (one round trip to a pipelining store); fixed windows (one counter per window,
 * named by its index) keep each to one atomic increment.
 */
export function charge(store: ProxyStore, checks: readonly LimitCheck[], now: number): Promise<number[]> {
  return Promise.all(
    checks.map((check) => {
      const { key, ttl } = counter(check, now);
      return check.amount > 0 ? store.increment(key, check.amount, ttl) : Promise.resolve(0);
    }),
  );
}

/**
 * The first budget the charged `totals` exceed, less `credit(check)` units that turned out not
 * to be owed (events answered from memory), with the seconds until its window ends.
 */
export function overLimit(
  checks: readonly LimitCheck[],
  totals: readonly number[],
  now: number,
  credit: (check: LimitCheck) => number = () => 0,
): { check: LimitCheck; retryAfter: number } | undefined {
  const i = checks.findIndex((check, j) => check.amount > 0 && totals[j]! - credit(check) > check.rule.limit);
  if (i < 0) return undefined;
  return { check: checks[i]!, retryAfter: Math.max(1, Math.ceil(counter(checks[i]!, now).ttl / 1000)) };
}

/** Gives back what `charge` took for `checks` (a refused request spends nobody's quota). */
export async function release(store: ProxyStore, checks: readonly LimitCheck[], now: number): Promise<void> {
  await Promise.all(
    checks
      .filter((check) => check.amount > 0)
      .map((check) => {
        const { key, ttl } = counter(check, now);
        return store.increment(key, -check.amount, ttl);
      }),
  );
}

function counter({ name, rule }: LimitCheck, now: number): { key: string; ttl: number } {
  const window = Math.floor(now / rule.windowMs);
  return { key: `${name}:${rule.windowMs}:${window}`, ttl: (window + 1) * rule.windowMs - now };
}
