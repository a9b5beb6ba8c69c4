// What kind of failure a store call met, for /metrics, the logs and /readyz: an operator reads
// "redirection" (a cluster read through a single-node client, a slot moving) differently from
// "connection" (a node down, a wrong password) or "timeout" (a stalled node).

export type StoreErrorKind = 'redirection' | 'timeout' | 'connection' | 'script' | 'other';
export const STORE_ERROR_KINDS: readonly StoreErrorKind[] = ['redirection', 'timeout', 'connection', 'script', 'other'];

// Redis's and node-redis's own wording (error replies begin with their code), and the Durable
// Object store's.
const KINDS: ReadonlyArray<[StoreErrorKind, RegExp]> = [
  ['timeout', /timed out|have not answered|not answered calls/i],
  ['redirection', /\b(MOVED|ASK|CROSSSLOT|TRYAGAIN)\b|[Rr]edirection|non local key|do not hash to the same slot/],
  [
    'connection',
    /\b(CLUSTERDOWN|MASTERDOWN|LOADING|READONLY|NOAUTH|WRONGPASS|NOPERM)\b|offline|closed|ECONN|EPIPE|EHOSTUNREACH|ENOTFOUND|ETIMEDOUT|socket|unreachable|Cannot find node|root nodes|not connected|answered 5\d\d/i,
  ],
  ['script', /NOSCRIPT|script|BUSY|unknown command|UNKILLABLE/i],
];

/**
 * The kind of a store failure, from an explicit `kind` on the error or one of its causes, else
 * from the messages (Redis error replies, node-redis errors, time limits).
 */
export function storeErrorKind(error: unknown): StoreErrorKind {
  const texts: string[] = [];
  for (let e = error as { kind?: unknown; name?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.kind === 'string' && (STORE_ERROR_KINDS as readonly string[]).includes(e.kind)) return e.kind as StoreErrorKind;
    texts.push(typeof e === 'object' ? `${typeof e.name === 'string' ? e.name : ''}: ${typeof e.message === 'string' ? e.message : ''}` : String(e));
  }
  // The innermost message is the original one; the outer ones only add "claim failed: …".
  for (const [kind, pattern] of KINDS) if (texts.some((text) => pattern.test(text))) return kind;
  return 'other';
}

/**
 * A store's own explanation of a failure meant for operators (an error's `hint`, set by a store
 * that knows the cause, e.g. a Durable Object class without SQLite storage), or undefined.
 */
export function storeErrorHint(error: unknown): string | undefined {
  for (let e = error as { hint?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.hint === 'string') return e.hint;
  }
  return undefined;
}
