import type { Operation, OperationRateLimits, ProxyStore, RateLimit } from './types';

/**
 * Upstream quotas (facts sheet §9): users 10,000/min, events 30,000 events/min, campaign update
 * 10/s + 100/min + 6000/h, file-import status 50/min. Experience events have no documented
 * quota; ours keeps one page (or one abusive client) from spending the workspace's share.
 */
export const DEFAULT_RATE_LIMITS: Readonly<Record<Operation, OperationRateLimits>> = {
  experienceEvents: {
    workspace: [{ limit: 30_000, windowMs: 60_000 }],
    client: [{ limit: 1_200, windowMs: 60_000 }],
  },
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
  /** Counter name without the window, e.g. `rl:events:ws:ENGAGEDEMO01`. */
  name: string;
  amount: number;
  rule: RateLimit;
}

/**
 * Takes `amount` from every budget, or from none: when one refuses, the ones already counted
 * are given back, so a refused request spends nobody's quota. Fixed windows (one counter per
 * window, named by its index) keep this to one atomic increment per budget in a shared store.
 * Returns the seconds until the refusing window ends, or 0 when all budgets allowed it.
 */
export async function consume(store: ProxyStore, checks: readonly LimitCheck[], now: number): Promise<number> {
  const taken: LimitCheck[] = [];
  for (const check of checks) {
    if (check.amount <= 0) continue;
    const { key, ttl } = counter(check, now);
    const total = await store.increment(key, check.amount, ttl);
    taken.push(check);
    if (total > check.rule.limit) {
      await release(store, taken, now);
      return Math.max(1, Math.ceil(ttl / 1000));
    }
  }
  return 0;
}

/** Gives back what `consume` took for `checks` (when a later budget refused the request). */
export async function release(store: ProxyStore, checks: readonly LimitCheck[], now: number): Promise<void> {
  await Promise.all(
    checks.filter((check) => check.amount > 0).map((check) => {
      const { key, ttl } = counter(check, now);
      return store.increment(key, -check.amount, ttl);
    }),
  );
}

function counter({ name, rule }: LimitCheck, now: number): { key: string; ttl: number } {
  const window = Math.floor(now / rule.windowMs);
  return { key: `${name}:${rule.windowMs}:${window}`, ttl: (window + 1) * rule.windowMs - now };
}
