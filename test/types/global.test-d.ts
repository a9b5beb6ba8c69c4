// The script tag's global: every method of the tracker is one the pre-load snippet may queue.
import { describe, expectTypeOf, it } from 'vitest';
import type { EngageGlobal, EngageMethod } from '../../src/global';
import type { Tracker } from '../../src/tracker/types';

describe('Engage (global.ts)', () => {
  it('lists every tracker method as a queued method, reset() (sign-out) included', () => {
    expectTypeOf<Exclude<keyof Tracker, EngageMethod>>().toEqualTypeOf<never>();
    expectTypeOf<EngageGlobal['reset']>().toEqualTypeOf<() => void>();
    Engage.reset();
    // @ts-expect-error reset takes no customer (sign in with identify)
    Engage.reset('u-42');
  });
});
