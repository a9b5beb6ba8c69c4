// @vitest-environment happy-dom
// The pre-load snippet (demo/engage-preload.js) queues every method of the tracker: a call made
// before the script tag loads is never lost, reset() (sign-out) included.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { createTracker } from '../../src/tracker/create-tracker';

it('queues a call to every method the tracker has', () => {
  const win = {} as { Engage?: Record<string, unknown> & { q: Array<[string, ArrayLike<unknown>]> } };
  runInNewContext(readFileSync(join(import.meta.dirname, '../../demo/engage-preload.js'), 'utf8'), { window: win });
  const tracker = createTracker({ endpoint: '/engage', consent: 'pending' });
  // `_tap` (an internal member) is off the Tracker type on purpose (lifecycle.ts subscribes through it).
  const methods = Object.keys(tracker).filter((name) => !name.startsWith('_'));
  expect(methods).toContain('reset');
  for (const method of methods) (win.Engage![method] as (...args: unknown[]) => void)('x');
  expect(win.Engage!.q.map(([method]) => method)).toEqual(methods);
  tracker.destroy();
});
