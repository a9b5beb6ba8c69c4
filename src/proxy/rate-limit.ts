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
  const taken: Array<{ key: string; amount: number; ttl: number }> = [];
  for (const { name, amount, rule } of checks) {
    if (amount <= 0) continue;
    const window = Math.floor(now / rule.windowMs);
    const ttl = (window + 1) * rule.windowMs - now;
    const key = `${name}:${rule.windowMs}:${window}`;
    const total = await store.increment(key, amount, ttl);
    taken.push({ key, amount, ttl });
    if (total > rule.limit) {
      await Promise.all(taken.map((t) => store.increment(t.key, -t.amount, t.ttl)));
      return Math.max(1, Math.ceil(ttl / 1000));
    }
  }
  return 0;
}
