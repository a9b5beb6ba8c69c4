import { errorBody as upstreamErrorBody, requestId, type ErrorInput } from '../../upstream/error-bodies';
import type { Problem } from '../../upstream/problem';
import type { Operation } from '../types';

/** A refusal the proxy answers itself, before (or instead of) reaching the upstream. */
export interface Refusal extends ErrorInput {
  /** Seconds, for 429/503. */
  retryAfter?: number;
  /** Extra response headers (e.g. `Allow`). */
  headers?: Record<string, string>;
}

/**
 * The body the upstream itself would send for this operation and status, so SDK code parses one
 * shape per operation whether the proxy or the upstream refused. Paths that match no operation
 * get the title/description envelope.
 */
export function errorBody(operation: Operation | undefined, input: Refusal | Problem): unknown {
  const id = requestId();
  if (operation) return upstreamErrorBody(operation, input, id);
  const message = 'rule' in input ? `${input.field} ${input.rule}` : input.message;
  return { title: input.status === 404 ? 'Not Found' : 'Error', description: message, code: id };
}

export { requestId };
