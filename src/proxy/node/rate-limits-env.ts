import { OPERATION_NAMES } from '../../upstream/operations';
import { DEFAULT_RATE_LIMITS } from '../pipeline/rate-limit';
import type { Operation, OperationRateLimits, RateLimit } from '../types';

const WINDOWS: Record<string, number> = { s: 1_000, min: 60_000, h: 3_600_000 };
const SCOPES = ['client', 'workspace', 'reports'] as const;

/**
 * `ENGAGE_RATE_LIMITS`: `off` (no budgets at all), or comma-separated rules
 * `<operation>.<scope>=<rule>` where operation is one of the five names or `*`, scope is `client`
 * or `workspace` (or `reports`, for experienceEvents only: the loss reports and late deliveries
 * one client address may have counted), and rule is `off` or budgets joined by `+`, each `N/<window>` with window `s`,
 * `min`, `h` or a multiple (`10s`, `5min`). Scopes not named keep the defaults. Returns the
 * limits for every operation, or every mistake, each naming the rule and what is wrong.
 *
 * @example
 * rateLimitsFromEnv('experienceEvents.client=600/min,experienceEvents.reports=6/h,campaignUpdate.workspace=10/s+100/min+6000/h,events.client=off');
 */
export function rateLimitsFromEnv(value: string | undefined): { limits: Record<Operation, OperationRateLimits> } | { errors: string[] } {
  const limits = Object.fromEntries(OPERATION_NAMES.map((operation) => [operation, { ...DEFAULT_RATE_LIMITS[operation] }])) as Record<Operation, OperationRateLimits>;
  const text = value?.trim() ?? '';
  if (text === '') return { limits };
  if (text.toLowerCase() === 'off') {
    for (const operation of OPERATION_NAMES) limits[operation] = {};
    return { limits };
  }
  const errors: string[] = [];
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const fail = (why: string) => errors.push(`ENGAGE_RATE_LIMITS: '${entry}': ${why}`);
    const match = /^([^.=\s]+)\.([^=\s]+)\s*=\s*(.+)$/.exec(entry);
    if (!match) {
      fail('expected <operation>.<scope>=<limit>/<window>[+...] or <operation>.<scope>=off, e.g. experienceEvents.client=1200/min');
      continue;
    }
    const [, operation, scope, rule] = match as unknown as [string, string, string, string];
    if (operation !== '*' && !OPERATION_NAMES.includes(operation as Operation)) {
      fail(`'${operation}' is not an operation (one of ${OPERATION_NAMES.join(', ')}, or *)`);
      continue;
    }
    if (!(SCOPES as readonly string[]).includes(scope)) {
      fail(`'${scope}' is not a scope (client, workspace, or reports for experienceEvents)`);
      continue;
    }
    if (scope === 'reports' && operation !== 'experienceEvents') {
      fail(`'reports' is a scope of experienceEvents only (the loss reports and late deliveries one client address may have counted)`);
      continue;
    }
    const budgets = parseRule(rule.trim(), fail);
    if (!budgets) continue;
    for (const name of operation === '*' ? OPERATION_NAMES : [operation as Operation]) {
      limits[name] = { ...limits[name], [scope]: budgets };
    }
  }
  return errors.length ? { errors } : { limits };
}

/** `off` → no budget; `10/s+100/min` → two; undefined after reporting a mistake. */
function parseRule(rule: string, fail: (why: string) => void): RateLimit[] | undefined {
  if (rule.toLowerCase() === 'off') return [];
  const budgets: RateLimit[] = [];
  for (const part of rule.split('+').map((piece) => piece.trim())) {
    const match = /^(\d+)\/(\d*)(s|min|h)$/.exec(part);
    const limit = Number(match?.[1]);
    const windowMs = Number(match?.[2] || 1) * WINDOWS[match?.[3] ?? '']!;
    if (!match || !(limit > 0) || !(windowMs > 0)) {
      fail(`'${part}' is not a budget: a positive count per window, e.g. 1200/min, 10/s, 500/5min (windows s, min, h), or off`);
      return undefined;
    }
    budgets.push({ limit, windowMs });
  }
  return budgets;
}
