// What every ProxyStore must do, run against each store (memory, Redis). A store under test comes
// with a clock: the memory store's is moved by hand, Redis's is real time (short TTLs, and
// expiry is polled for, never assumed at an instant).
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ProxyStore } from '../../src/proxy/types';

export interface StoreUnderTest {
  store: ProxyStore;
  /** Lets `ms` pass for the store: moves a fake clock, or really waits. */
  advance: (ms: number) => Promise<void>;
}

export interface StoreContractOptions {
  /** A TTL short enough to wait for in a test, and long enough to outlive a few calls. */
  shortTtlMs: number;
  /** How long to keep polling for an expiry before failing (real-time stores). */
  expiryDeadlineMs?: number;
}

/**
 * Declares the contract suite for one store. `setup` runs before each test and returns a store
 * whose keys start empty (a fresh store, or a fresh key prefix).
 *
 * @example describeStoreContract('memory store', async () => ({ store: createMemoryStore({ now: () => t }), advance: async (ms) => void (t += ms) }), { shortTtlMs: 100 });
 */
export function describeStoreContract(name: string, setup: () => Promise<StoreUnderTest>, options: StoreContractOptions): void {
  const ttl = options.shortTtlMs;
  const long = 60_000;
  const deadline = options.expiryDeadlineMs ?? 5_000;

  describe(`ProxyStore contract: ${name}`, () => {
    let store: ProxyStore;
    let advance: (ms: number) => Promise<void>;
    beforeEach(async () => {
      ({ store, advance } = await setup());
    });

    // Polls `check` until it holds (real-time stores expire a little after the TTL).
    async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
      const end = Date.now() + deadline;
      while (!(await check())) {
        if (Date.now() > end) throw new Error(`not within ${deadline} ms: ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    const key = () => `ev:WS1:${randomUUID()}`;

    describe('claim', () => {
      it('claims an absent key, and answers claimed again to the same owner', async () => {
        const k = key();
        expect(await store.claim([k], 'A', long, long)).toEqual(['claimed']);
        expect(await store.claim([k], 'A', long, long)).toEqual(['claimed']);
      });

      it('answers pending to another owner while the claim holds', async () => {
        const k = key();
        await store.claim([k], 'A', long, long);
        expect(await store.claim([k], 'B', long, long)).toEqual(['pending']);
      });

      it('answers each key of a batch in order: claimed, accepted, pending', async () => {
        const [free, done, busy] = [key(), key(), key()];
        await store.claim([done], 'C', long, long);
        await store.commit([done], long, 'C');
        await store.claim([busy], 'B', long, long);
        expect(await store.claim([free, done, busy], 'A', long, long)).toEqual(['claimed', 'accepted', 'pending']);
      });

      it('treats a key repeated in one batch as the owner’s own', async () => {
        const k = key();
        expect(await store.claim([k, k], 'A', long, long)).toEqual(['claimed', 'claimed']);
      });

      it('gives a key to exactly one of 50 concurrent owners', async () => {
        const k = key();
        const owners = Array.from({ length: 50 }, (_, i) => `owner-${i}`);
        const states = (await Promise.all(owners.map((owner) => store.claim([k], owner, long, long)))).map(([s]) => s);
        expect(states.filter((s) => s === 'claimed')).toHaveLength(1);
        expect(states.filter((s) => s === 'pending')).toHaveLength(49);
      });

      it('lets another owner claim once the claim expired', async () => {
        const k = key();
        await store.claim([k], 'A', ttl, long);
        await advance(ttl + 20);
        await eventually(async () => (await store.claim([k], 'B', long, long))[0] === 'claimed', 'claim expired');
        expect(await store.claim([k], 'A', long, long)).toEqual(['pending']);
      });

      it('answers [] to an empty batch', async () => {
        expect(await store.claim([], 'A', long, long)).toEqual([]);
      });
    });

    describe('commit', () => {
      it('replaces a claim: accepted for every owner, the claimer included', async () => {
        const k = key();
        await store.claim([k], 'A', long, long);
        await store.commit([k], long, 'A');
        expect(await store.claim([k], 'B', long, long)).toEqual(['accepted']);
        expect(await store.claim([k], 'A', long, long)).toEqual(['accepted']);
      });

      it('accepts a batch claimed together, for a later claimer of any of its keys', async () => {
        const ks = [key(), key(), key()];
        await store.claim(ks, 'A', long, long);
        await store.commit(ks, long, 'A');
        expect(await store.claim([ks[1]!, key()], 'B', long, long)).toEqual(['accepted', 'claimed']);
      });

      it('leaves the claims of other owners alone', async () => {
        const [mine, theirs] = [key(), key()];
        await store.claim([mine], 'A', long, long);
        await store.claim([theirs], 'B', long, long);
        await store.commit([mine], long, 'A');
        expect(await store.claim([mine, theirs], 'C', long, long)).toEqual(['accepted', 'pending']);
      });

      it('forgets an accepted key after its TTL', async () => {
        const k = key();
        await store.claim([k], 'A', ttl, ttl);
        await store.commit([k], ttl, 'A');
        await advance(ttl + 20);
        await eventually(async () => (await store.claim([k], 'A', long, long))[0] === 'claimed', 'commit expired');
      });

      it('accepts an empty batch', async () => {
        await expect(store.commit([], long, 'A')).resolves.toBeUndefined();
      });
    });

    describe('release', () => {
      it('frees its own claim: the next owner claims it', async () => {
        const k = key();
        await store.claim([k], 'A', long, long);
        await store.release([k], 'A');
        expect(await store.claim([k], 'B', long, long)).toEqual(['claimed']);
      });

      it('leaves another owner’s claim in place', async () => {
        const k = key();
        await store.claim([k], 'A', long, long);
        await store.release([k], 'B');
        expect(await store.claim([k], 'B', long, long)).toEqual(['pending']);
      });

      it('leaves a claim that expired and was re-taken by another owner', async () => {
        const k = key();
        await store.claim([k], 'A', ttl, long);
        await advance(ttl + 20);
        await eventually(async () => (await store.claim([k], 'B', long, long))[0] === 'claimed', 'claim expired');
        await store.release([k], 'A');
        expect(await store.claim([k], 'C', long, long)).toEqual(['pending']);
      });

      it('never undoes a commit', async () => {
        const k = key();
        await store.claim([k], 'A', long, long);
        await store.commit([k], long, 'A');
        await store.release([k], 'A');
        expect(await store.claim([k], 'B', long, long)).toEqual(['accepted']);
      });

      it('ignores absent keys and empty batches', async () => {
        await expect(store.release([key()], 'A')).resolves.toBeUndefined();
        await expect(store.release([], 'A')).resolves.toBeUndefined();
      });
    });

    describe('increment', () => {
      const counter = () => `rl:WS1:${randomUUID()}`;

      it('creates at 0, adds, and takes negative amounts', async () => {
        const k = counter();
        expect(await store.increment(k, 5, long)).toBe(5);
        expect(await store.increment(k, -3, long)).toBe(2);
        expect(await store.increment(counter(), -2, long)).toBe(-2);
      });

      it('is atomic: 200 concurrent increments return 1…200, each once', async () => {
        const k = counter();
        const values = await Promise.all(Array.from({ length: 200 }, () => store.increment(k, 1, long)));
        expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      });

      it('keeps the lifetime of the first increment (a fixed window), then starts again', async () => {
        const k = counter();
        await store.increment(k, 7, ttl);
        // A later increment with a long TTL must not stretch the window.
        await store.increment(k, 1, long);
        await advance(ttl + 20);
        // Adding 0 reads the counter; an expired one starts again at 0.
        await eventually(async () => (await store.increment(k, 0, long)) === 0, 'counter expired');
      });
    });

    it('ping resolves while the store is reachable', async () => {
      await expect(store.ping?.() ?? Promise.resolve()).resolves.toBeUndefined();
    });
  });
}
