import { queryImports } from '../file-imports';
import type { EmulatorState } from '../state';
import type { Valid } from './validate';

/**
 * The operation on a valid request: a write is journaled (flushed) and stored before it is
 * answered, so an acknowledged write survives a crash; a file-import status query returns the
 * page it found.
 */
export function perform(state: EmulatorState, valid: Valid, now: number): unknown {
  if (valid.operation === 'fileImportStatus') return queryImports(state.imports(now), valid.query);
  state.write(valid.operation, valid.body, now, 'campaignId' in valid ? valid.campaignId : undefined);
  return undefined;
}
