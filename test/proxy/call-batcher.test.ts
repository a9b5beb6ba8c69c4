// The batcher that merges concurrent Redis calls per master: the calls of one turn together,
// one batch for what arrived while one was in flight, a cap per batch, a failure failing every
// item of its batch, and items withdrawn before they are sent. Pure logic, driven by
// hand-settled promises.
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

/** The end of the current event-loop turn (after the batcher's own setImmediate). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('createCallBatcher', () => {
  it('the calls of one turn go together at its end; what arrives while they are in flight goes as one batch when they return', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, (item: string) => item.length, 100);
    const first = [batcher.add('m1', 'a'), batcher.add('m1', 'b')];
    const other = batcher.add('m2', 'x');
    expect(batches).toEqual([]);
    await turn();
    expect(batches.map((b) => [b.to, b.items])).toEqual([
      ['m1', ['a', 'b']],
      ['m2', ['x']],
    ]);
    const queued = ['c', 'd'].map((item) => batcher.add('m1', item));
    await turn();
    // m1 is busy: nothing more sent until its batch returns.
    expect(batches).toHaveLength(2);
    batches[0]!.resolve();
    expect(await Promise.all(first)).toEqual(['a!', 'b!']);
    await turn();
    expect(batches.map((b) => b.items)).toEqual([['a', 'b'], ['x'], ['c', 'd']]);
    batches[2]!.resolve();
    batches[1]!.resolve();
    expect(await Promise.all([...queued, other])).toEqual(['c!', 'd!', 'x!']);
    // Idle again: the next call goes at the end of its turn.
    void batcher.add('m1', 'e');
    await turn();
    expect(batches.at(-1)!.items).toEqual(['e']);
  });

  it('caps a batch by weight (a lone heavier item goes alone) and sends the rest next', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, (item: string) => item.length, 4);
    const all = ['a', 'bbb', 'cc', 'ddddddd', 'e'].map((item) => batcher.add('m', item));
    await turn();
    for (let i = 0; i < 3; i++) {
      batches[i]!.resolve();
      await turn();
    }
    expect(batches.map((b) => b.items)).toEqual([['a', 'bbb'], ['cc'], ['ddddddd'], ['e']]);
    batches[3]!.resolve();
    expect(await Promise.all(all)).toEqual(['a!', 'bbb!', 'cc!', 'ddddddd!', 'e!']);
  });

  it('a failing batch fails every item in it, and the queue moves on', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, () => 1, 100);
    const failing = ['a', 'b'].map((item) => batcher.add('m', item).catch((error: Error) => error.message));
    await turn();
    const after = batcher.add('m', 'c');
    batches[0]!.reject(new Error('non local key'));
    expect(await Promise.all(failing)).toEqual(['non local key', 'non local key']);
    await turn();
    expect(batches.at(-1)!.items).toEqual(['c']);
    batches.at(-1)!.resolve();
    expect(await after).toBe('c!');
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
    await turn();
    const gone = batcher.add('m', 'a2').catch((error: Error) => error.message);
    const kept = batcher.add('m', 'b');
    batcher.withdraw((item) => item.startsWith('a'), new Error('gave up'));
    expect(await gone).toBe('gave up');
    batches[0]!.resolve();
    await turn();
    expect(batches.map((b) => b.items)).toEqual([['a1'], ['b']]);
    batches[1]!.resolve();
    expect(await Promise.all([sent, kept])).toEqual(['a1!', 'b!']);
    // Withdrawn before its turn ended: never sent.
    const never = batcher.add('n', 'a3').catch((error: Error) => error.message);
    batcher.withdraw((item) => item === 'a3', new Error('gave up'));
    await turn();
    expect(await never).toBe('gave up');
    expect(batches.map((b) => b.to)).toEqual(['m', 'm']);
  });
});
