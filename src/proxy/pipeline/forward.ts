import type { Attempt, Send } from './exchange';
import type { RetryBudget } from './retry-budget';

export interface ForwardPolicy {
  /** Extra attempts after a network error, timeout or 5xx (0 for non-idempotent operations). */
  retries: number;
  timeoutMs: number;
  baseDelayMs: number;
  /** The upstream origin's retry budget: a retry past it is not made (see retry-budget.ts). */
  budget?: RetryBudget;
}

/** The last attempt's outcome; `budgetSpent` when a retry was due but the budget had none left. */
export type ForwardResult = Attempt & { attempts: number; budgetSpent?: true };

/** Longest backoff between two attempts. */
export const MAX_RETRY_DELAY_MS = 2_000;

/**
 * Calls the upstream and, when the policy allows, retries with exponential backoff and full
 * jitter, within the origin's retry budget. A 5xx `Retry-After` longer than the backoff cap ends
 * the retries: the caller's own retry policy waits better than we do.
 */
export async function forward(send: Send, origin: string, path: string, init: Parameters<Send>[2], policy: ForwardPolicy): Promise<ForwardResult> {
  policy.budget?.request();
  for (let attempts = 1; ; attempts++) {
    const result = await send(origin, path, init, policy.timeoutMs);
    const retryable = result.kind !== 'response' || result.status >= 500;
    if (!retryable || attempts > policy.retries) return { ...result, attempts };
    let delay = Math.random() * Math.min(MAX_RETRY_DELAY_MS, policy.baseDelayMs * 2 ** (attempts - 1));
    if (result.kind === 'response') {
      const retryAfter = retryAfterSeconds(result.retryAfter);
      if (retryAfter !== undefined) {
        if (retryAfter * 1000 > MAX_RETRY_DELAY_MS) return { ...result, attempts };
        delay = Math.max(delay, retryAfter * 1000);
      }
    }
    // Checked last: a retry that would not have been made anyway does not spend the budget.
    if (policy.budget && !policy.budget.retry()) return { ...result, attempts, budgetSpent: true };
    await sleep(delay);
  }
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Waits `ms`, or not at all on a runtime without timers. */
export function sleep(ms: number): Promise<void> {
  return typeof setTimeout === 'function' ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
