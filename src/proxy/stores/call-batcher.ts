// Calls bound for one place, merged: the claims of concurrent requests to one Redis master go as
// one script instead of one each. The calls of one event-loop turn leave together at its end (as
// node-redis writes a turn's commands in one socket write anyway: no added round trip), and
// while a batch is in flight to a place, what arrives for it waits and leaves when that batch
// returns, so under load a master sees one script per round trip, not one per request.

/** A queued item and how its caller hears the answer. */
interface Waiting<T, R> {
  item: T;
  resolve: (answer: R) => void;
  reject: (error: unknown) => void;
}

/** One destination: what waits there, and whether a batch is in flight. */
interface Lane<T, R> {
  queue: Array<Waiting<T, R>>;
  busy: boolean;
}

/** Merges calls per destination; see `createCallBatcher`. */
export interface CallBatcher<T, R> {
  /** `item`'s answer, sent with the others of this turn to `to`, or after the batch in flight there. */
  add(to: unknown, item: T): Promise<R>;
  /**
   * Takes the items `match` picks out of the queues, before they are sent, rejecting each with
   * `error`: a caller that gave up must not have its call run after what it sends next (its
   * release would otherwise overtake its own claim).
   */
  withdraw(match: (item: T) => boolean, error: unknown): void;
}

/**
 * At most one batch in flight per destination: `send(to, items)` answers each item, index for
 * index. Items added while nothing is in flight to `to` go at the end of the event-loop turn
 * (`setImmediate`), together; items added while a batch is in flight go when it settles. A batch
 * holds up to `maxWeight` of `weight` (a lone heavier item alone); a failing batch fails each of
 * its items.
 */
export function createCallBatcher<T, R>(send: (to: unknown, items: T[]) => Promise<readonly R[]>, weight: (item: T) => number, maxWeight: number): CallBatcher<T, R> {
  const lanes = new Map<unknown, Lane<T, R>>();
  let scheduled = false;

  function dispatch(to: unknown, lane: Lane<T, R>): void {
    let taken = 0;
    let total = 0;
    while (taken < lane.queue.length) {
      const w = weight(lane.queue[taken]!.item);
      if (taken > 0 && total + w > maxWeight) break;
      total += w;
      taken++;
    }
    const batch = lane.queue.splice(0, taken);
    lane.busy = true;
    // A send that throws fails its batch like one that rejects.
    new Promise<readonly R[]>((resolve) =>
      resolve(
        send(
          to,
          batch.map((waiting) => waiting.item),
        ),
      ),
    )
      .then(
        (answers) => batch.forEach((waiting, i) => waiting.resolve(answers[i]!)),
        (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
      )
      .finally(() => {
        lane.busy = false;
        if (lane.queue.length > 0) dispatch(to, lane);
        else lanes.delete(to);
      });
  }

  /** The end of a turn: every idle destination's queue goes. */
  function flush(): void {
    scheduled = false;
    for (const [to, lane] of lanes) if (!lane.busy && lane.queue.length > 0) dispatch(to, lane);
  }

  return {
    add(to, item) {
      return new Promise<R>((resolve, reject) => {
        let lane = lanes.get(to);
        if (!lane) lanes.set(to, (lane = { queue: [], busy: false }));
        lane.queue.push({ item, resolve, reject });
        if (!lane.busy && !scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    withdraw(match, error) {
      for (const [to, lane] of lanes) {
        for (let i = lane.queue.length - 1; i >= 0; i--) {
          const waiting = lane.queue[i]!;
          if (!match(waiting.item)) continue;
          lane.queue.splice(i, 1);
          waiting.reject(error);
        }
        if (!lane.busy && lane.queue.length === 0) lanes.delete(to);
      }
    },
  };
}
