// The batcher that merges concurrent Redis calls per master: the calls of one turn together at
// its end, per destination, a cap per batch, a failure failing every item of its batch, and
// items withdrawn before they are sent. Pure logic, driven by hand-settled promises.
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
  it('the calls of one turn go together at its end, one batch per destination; the next turn’s go as their own', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, (item: string) => item.length, 100);
    const first = [batcher.add('m1', 'a'), batcher.add('m2', 'x'), batcher.add('m1', 'b')];
    expect(batches).toEqual([]);
    await turn();
    expect(batches.map((b) => [b.to, b.items])).toEqual([
      ['m1', ['a', 'b']],
      ['m2', ['x']],
    ]);
    // Not held by the batch in flight.
    const next = batcher.add('m1', 'c');
    await turn();
    expect(batches.map((b) => b.items)).toEqual([['a', 'b'], ['x'], ['c']]);
    batches.forEach((batch) => batch.resolve());
    expect(await Promise.all([...first, next])).toEqual(['a!', 'x!', 'b!', 'c!']);
  });

  it('caps a batch by weight (a lone heavier item goes alone)', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, (item: string) => item.length, 4);
    const all = ['a', 'bbb', 'cc', 'ddddddd', 'e'].map((item) => batcher.add('m', item));
    await turn();
    expect(batches.map((b) => b.items)).toEqual([['a', 'bbb'], ['cc'], ['ddddddd'], ['e']]);
    batches.forEach((batch) => batch.resolve());
    expect(await Promise.all(all)).toEqual(['a!', 'bbb!', 'cc!', 'ddddddd!', 'e!']);
  });

  it('a failing batch fails every item in it, and no other', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, () => 1, 100);
    const failing = ['a', 'b'].map((item) => batcher.add('m', item).catch((error: Error) => error.message));
    const other = batcher.add('n', 'c');
    await turn();
    batches[0]!.reject(new Error('non local key'));
    batches[1]!.resolve();
    expect(await Promise.all(failing)).toEqual(['non local key', 'non local key']);
    expect(await other).toBe('c!');
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

  it('withdraw takes queued items out before they are sent, rejecting them; the rest go', async () => {
    const { batches, send } = recorder();
    const batcher = createCallBatcher(send, () => 1, 100);
    const gone = batcher.add('m', 'a1').catch((error: Error) => error.message);
    const alone = batcher.add('n', 'a2').catch((error: Error) => error.message);
    const kept = batcher.add('m', 'b');
    batcher.withdraw((item) => item.startsWith('a'), new Error('gave up'));
    expect(await Promise.all([gone, alone])).toEqual(['gave up', 'gave up']);
    await turn();
    expect(batches.map((b) => [b.to, b.items])).toEqual([['m', ['b']]]);
    batches[0]!.resolve();
    expect(await kept).toBe('b!');
  });
});
