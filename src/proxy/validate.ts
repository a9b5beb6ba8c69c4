import type { Operation } from './types';

/** The first rule a body broke (the shape of the shared upstream rules' `Problem`). */
export interface BodyProblem {
  field: string;
  rule: string;
  status: number;
  type?: string;
}

/**
 * Validation before forwarding, so bad bodies never spend upstream quota.
 * Placeholder until the shared upstream rules (src/upstream) land; then it delegates to them.
 */
export function validateBody(_operation: Operation, body: unknown): BodyProblem | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { field: 'body', rule: 'must be a JSON object', status: 400 };
  }
  return undefined;
}
