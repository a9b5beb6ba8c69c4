// Under Node (SSR): importing touches nothing, and autoObserve without a document is a no-op.
import { expect, it } from 'vitest';
import { autoObserve } from '../../src/tracker/observe';

it('autoObserve without a DOM returns a harmless stop()', () => {
  expect(typeof document).toBe('undefined');
  const stop = autoObserve({ shown: () => undefined, clicked: () => undefined });
  expect(() => stop()).not.toThrow();
});
