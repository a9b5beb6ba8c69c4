// The batcher that merges concurrent Redis calls per master: at once when idle, one batch for
// what arrived meanwhile, a cap per batch, a failure failing every item of its batch, and items
// withdrawn before they are sent. Pure logic, driven by hand-settled promises.
import { describe, expect, it } from 'vitest';
import { createCallBatcher } from '../../src/proxy/stores/call-batcher';

/** A `send` whose batches are recorded and settled by the test. */
function recorder() {
  const batches: Array<{ to: unknown; items: string[]; resolve: () => void; reject: (error: Error) => void }> = [];
  const send = (to: unknown, items: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({ to, items, resolve: () => resolve(items.map((item) => `${item}!`)), reject });
    });
  return { batches, send };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createCallBatcher', () => {
  it('sends at once when nothing is in flight; what arrives meanwhile goes as one batch when it returns', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, (item: string) => item.length, 100);
    const first = batcher.add('m1', 'a');
    expect(batches.map((b) => b.items)).toEqual([['a']]);
    const queued = ['b', 'c', 'd'].map((item) => batcher.add('m1', item));
    // Another destination is not held by m1's batch.
    const other = batcher.add('m2', 'x');
    expect(batches.map((b) => b.items)).toEqual([['a'], ['x']]);
    batches[0]!.resolve();
    expect(await first).toBe('a!');
    await tick();
    expect(batches.map((b) => b.items)).toEqual([['a'], ['x'], ['b', 'c', 'd']]);
    batches[2]!.resolve();
    batches[1]!.resolve();
    expect(await Promise.all([...queued, other])).toEqual(['b!', 'c!', 'd!', 'x!']);
    // Idle again: the next call goes at once.
    void batcher.add('m1', 'e');
    expect(batches.at(-1)!.items).toEqual(['e']);
  });

  it('caps a batch by weight (a lone heavier item goes alone) and sends the rest next', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, (item: string) => item.length, 4);
    void batcher.add('m', 'a');
    const queued = ['bb', 'cc', 'ddddddd', 'e'].map((item) => batcher.add('m', item));
    for (let i = 0; i < 4; i++) {
      batches[i]!.resolve();
      await tick();
    }
    expect(batches.map((b) => b.items)).toEqual([['a'], ['bb', 'cc'], ['ddddddd'], ['e']]);
    expect(await Promise.all(queued)).toEqual(['bb!', 'cc!', 'ddddddd!', 'e!']);
  });

  it('a failing batch fails every item in it, and the queue moves on', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, () => 1, 100);
    void batcher.add('m', 'a').catch(() => {});
    const queued = ['b', 'c'].map((item) => batcher.add('m', item).catch((error: Error) => error.message));
    batches[0]!.resolve();
    await tick();
    batches[1]!.reject(new Error('non local key'));
    expect(await Promise.all(queued)).toEqual(['non local key', 'non local key']);
    const after = batcher.add('m', 'd');
    expect(batches.at(-1)!.items).toEqual(['d']);
    batches.at(-1)!.resolve();
    expect(await after).toBe('d!');
  });

  it('a send that throws fails its batch instead of throwing into the caller', async () => {
    const batcher = createCallBatcher<string, string>(
      () => {
        throw new Error('thrown');
      },
      () => 1,
      100,
    );
    await expect(batcher.add('m', 'a')).rejects.toThrow('thrown');
  });

  it('withdraw takes queued items out before they are sent, rejecting them; sent ones stay', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, () => 1, 100);
    const sent = batcher.add('m', 'a1');
    const gone = batcher.add('m', 'a2').catch((error: Error) => error.message);
    const kept = batcher.add('m', 'b');
    batcher.withdraw((item) => item.startsWith('a'), new Error('gave up'));
    expect(await gone).toBe('gave up');
    batches[0]!.resolve();
    await tick();
    expect(batches.map((b) => b.items)).toEqual([['a1'], ['b']]);
    batches[1]!.resolve();
    expect(await Promise.all([sent, kept])).toEqual(['a1!', 'b!']);
  });
});
