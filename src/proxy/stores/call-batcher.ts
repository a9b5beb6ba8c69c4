// Calls bound for one place, merged: the claims of concurrent requests to one Redis master go as
// one script instead of one each. The calls of one event-loop turn leave together at its end,
// when node-redis would write that turn's commands in one socket write anyway: no round trip is
// added, and a master sees one script per write instead of one per request.
//
// Measured against holding a master's calls while a batch is in flight there (one batch per
// round trip, `bench:proxy`, 20-event requests on 3 + 3): that merged no more (1.01 scripts per
// request against 0.90) and woke the masters more often (0.76 reads per request against 0.58),
// each master's batches leaving at its own moment instead of together; a master's CPU follows its
// wakeups more than its scripts.

/** A queued item and how its caller hears the answer. */
interface Waiting<T, R> {
  item: T;
  resolve: (answer: R) => void;
  reject: (error: unknown) => void;
}

/** Merges calls per destination; see `createCallBatcher`. */
export interface CallBatcher<T, R> {
  /** `item`'s answer, sent with the other items of this event-loop turn bound for `to`. */
  add(to: unknown, item: T): Promise<R>;
  /**
   * Takes the items `match` picks out of the queues, before they are sent, rejecting each with
   * `error`: a caller that gave up must not have its call run after what it sends next (its
   * release would otherwise overtake its own claim).
   */
  withdraw(match: (item: T) => boolean, error: unknown): void;
}

/**
 * The items added during one event-loop turn, sent at its end (`setImmediate`) as one
 * `send(to, items)` per destination, which answers each item, index for index. A batch holds up
 * to `maxWeight` of `weight` (more go as further batches, a lone heavier item alone); a failing
 * batch fails each of its items.
 */
export function createCallBatcher<T, R>(send: (to: unknown, items: T[]) => Promise<readonly R[]>, weight: (item: T) => number, maxWeight: number): CallBatcher<T, R> {
  const queues = new Map<unknown, Array<Waiting<T, R>>>();
  let scheduled = false;

  function dispatch(to: unknown, batch: Array<Waiting<T, R>>): void {
    // A send that throws fails its batch like one that rejects.
    new Promise<readonly R[]>((resolve) =>
      resolve(
        send(
          to,
          batch.map((waiting) => waiting.item),
        ),
      ),
    ).then(
      (answers) => batch.forEach((waiting, i) => waiting.resolve(answers[i]!)),
      (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
    );
  }

  /** The end of a turn: every destination's queue goes, in batches of at most `maxWeight`. */
  function flush(): void {
    scheduled = false;
    const all = [...queues];
    queues.clear();
    for (const [to, queue] of all) {
      let start = 0;
      while (start < queue.length) {
        let end = start;
        let total = 0;
        while (end < queue.length) {
          const w = weight(queue[end]!.item);
          if (end > start && total + w > maxWeight) break;
          total += w;
          end++;
        }
        dispatch(to, queue.slice(start, end));
        start = end;
      }
    }
  }

  return {
    add(to, item) {
      return new Promise<R>((resolve, reject) => {
        let queue = queues.get(to);
        if (!queue) queues.set(to, (queue = []));
        queue.push({ item, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    withdraw(match, error) {
      for (const queue of queues.values()) {
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
