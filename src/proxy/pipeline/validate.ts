import type { IdentityResolution, Problem } from '../../upstream/problem';
import { validate } from '../../upstream/validate';
import type { Operation } from '../types';

/**
 * Validation before forwarding, with the shared upstream rules (the emulator runs the same
 * ones), so bad bodies never spend upstream quota and are answered in the upstream's words.
 */
export function validateBody(operation: Operation, body: unknown, identityResolution?: IdentityResolution): Problem | undefined {
  return validate(operation, body, { now: Date.now(), identityResolution });
}
