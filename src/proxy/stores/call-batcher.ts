// Calls bound for one place, merged while that place is busy: the claims of concurrent requests
// to one Redis master go as one script instead of one each. Nothing waits when nothing is in
// flight, so a lone request pays no added latency; under load, the calls that arrive during one
// round trip leave together when it ends.

/** A queued item and how its caller hears the answer. */
interface Waiting<T, R> {
  item: T;
  resolve: (answer: R) => void;
  reject: (error: unknown) => void;
}

/** Merges calls per destination; see `createCallBatcher`. */
export interface CallBatcher<T, R> {
  /** `item`'s answer, sent at once if nothing is in flight to `to`, else with the next batch there. */
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
 * index; when it settles, everything queued for `to` meanwhile goes as the next batch (up to
 * `maxWeight` of `weight`, a lone heavier item alone). A failing batch fails each of its items.
 */
export function createCallBatcher<T, R>(send: (to: unknown, items: T[]) => Promise<readonly R[]>, weight: (item: T) => number, maxWeight: number): CallBatcher<T, R> {
  // A destination with a batch in flight, and what waits there for it to end.
  const lanes = new Map<unknown, Array<Waiting<T, R>>>();

  function dispatch(to: unknown, batch: Array<Waiting<T, R>>): void {
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
      .finally(() => next(to));
  }

  function next(to: unknown): void {
    const queue = lanes.get(to);
    if (!queue) return;
    if (queue.length === 0) {
      lanes.delete(to);
      return;
    }
    let taken = 0;
    let total = 0;
    while (taken < queue.length) {
      const w = weight(queue[taken]!.item);
      if (taken > 0 && total + w > maxWeight) break;
      total += w;
      taken++;
    }
    dispatch(to, queue.splice(0, taken));
  }

  return {
    add(to, item) {
      return new Promise<R>((resolve, reject) => {
        const waiting = { item, resolve, reject };
        const queue = lanes.get(to);
        if (queue) {
          queue.push(waiting);
          return;
        }
        lanes.set(to, []);
        dispatch(to, [waiting]);
      });
    },
    withdraw(match, error) {
      for (const queue of lanes.values()) {
        for (let i = queue.length - 1; i >= 0; i--) {
          const waiting = queue[i]!;
          if (!match(waiting.item)) continue;
          queue.splice(i, 1);
          waiting.reject(error);
        }
      }
    },
  };
}
