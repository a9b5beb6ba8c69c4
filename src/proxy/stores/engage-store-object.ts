// The Durable Object behind createDurableObjectStore: the proxy's shared state on Cloudflare, in
// the object's own SQLite. Every call runs to the end without an await between its reads and
// writes, so the object's single thread makes each one atomic (nothing else runs in between) and
// its output gate holds the answer until the writes are durable.
import type { ClaimState } from '../types';

/** One call to the object: the body of one subrequest. */
export type StoreCall =
  | { op: 'increment'; key: string; amount: number; ttlMs: number }
  | { op: 'claim'; keys: string[]; owner: string; ttlMs: number }
  | { op: 'commit'; keys: string[]; ttlMs: number }
  | { op: 'release'; keys: string[]; owner: string }
  | { op: 'ping' };

/** The parts of Cloudflare's `DurableObjectState` the object uses (SQLite-backed storage). */
export interface EngageStoreState {
  storage: {
    sql: { exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[] } };
    getAlarm(): Promise<number | null>;
    setAlarm(scheduledTime: number): Promise<void>;
  };
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}

const ACCEPTED = 'a';
const NEEDS_SQLITE =
  'EngageStore needs SQLite storage: declare the class with new_sqlite_classes in its wrangler migration (new_classes gives key-value storage, which it cannot use)';
/**
 * How often expired rows are swept. Expiry itself is lazy (a row past its time reads as absent),
 * so this only bounds storage: event UUIDs are never read again once accepted, and without a
 * sweep a day's accepted marks would stay forever.
 */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * The Durable Object class of the proxy's store on Cloudflare Workers. Export it from your Worker
 * module and bind it with a `new_sqlite_classes` migration (docs/proxy-edge.md).
 * It answers `POST` calls made by `createDurableObjectStore` only; nothing else reaches it.
 */
export class EngageStore {
  private readonly sql: EngageStoreState['storage']['sql'];
  /** Whether an alarm is set: the first write after an idle sweep sets the next one. */
  private sweepSet = true;

  /** Why this object cannot serve (a class bound without SQLite storage), answered to every call. */
  private readonly unusable?: string;

  constructor(
    private readonly state: EngageStoreState,
    _env?: unknown,
  ) {
    try {
      this.sql = state.storage.sql;
      // WITHOUT ROWID: the key is the lookup, so the table is the index.
      this.sql.exec('CREATE TABLE IF NOT EXISTS marks (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID');
      this.sql.exec('CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID');
      this.sql.exec('CREATE INDEX IF NOT EXISTS marks_expires ON marks (expires)');
    } catch (error) {
      // A class declared with `new_classes` (key-value storage) has no SQL: say so on every call,
      // so the Worker's logs and readiness name the fix instead of only counting failures.
      this.sql = undefined as never;
      this.unusable = `${NEEDS_SQLITE} (${(error as Error)?.message ?? String(error)})`;
      return;
    }
    void state.blockConcurrencyWhile(async () => {
      this.sweepSet = (await state.storage.getAlarm()) !== null;
    });
  }

  async fetch(request: Request): Promise<Response> {
    if (this.unusable) return Response.json({ error: this.unusable, hint: NEEDS_SQLITE }, { status: 500 });
    let call: StoreCall;
    try {
      call = (await request.json()) as StoreCall;
    } catch {
      return Response.json({ error: 'EngageStore: the body must be a JSON store call' }, { status: 400 });
    }
    const now = Date.now();
    let result: unknown;
    switch (call.op) {
      case 'increment':
        result = this.increment(call.key, call.amount, now + call.ttlMs, now);
        break;
      case 'claim':
        result = this.claim(call.keys, call.owner, now + call.ttlMs, now);
        break;
      case 'commit':
        for (const key of call.keys) this.sql.exec('INSERT OR REPLACE INTO marks VALUES (?, ?, ?)', key, ACCEPTED, now + call.ttlMs);
        break;
      case 'release':
        for (const key of call.keys) this.sql.exec('DELETE FROM marks WHERE key = ? AND value = ?', key, call.owner);
        break;
      case 'ping':
        break;
      default:
        return Response.json({ error: `EngageStore: unknown op ${JSON.stringify((call as { op?: unknown }).op)}` }, { status: 400 });
    }
    if (!this.sweepSet && call.op !== 'ping' && call.op !== 'release') {
      this.sweepSet = true;
      void this.state.storage.setAlarm(now + SWEEP_EVERY_MS);
    }
    return Response.json(result ?? null);
  }

  /** Deletes what expired; sets the next sweep only while rows remain, so an idle object rests. */
  async alarm(): Promise<void> {
    const now = Date.now();
    this.sql.exec('DELETE FROM marks WHERE expires <= ?', now);
    this.sql.exec('DELETE FROM counters WHERE expires <= ?', now);
    const left = this.sql.exec('SELECT (SELECT COUNT(*) FROM marks) + (SELECT COUNT(*) FROM counters) AS n').toArray()[0]!.n;
    this.sweepSet = Number(left) > 0;
    if (this.sweepSet) await this.state.storage.setAlarm(now + SWEEP_EVERY_MS);
  }

  private increment(key: string, amount: number, expires: number, now: number): number {
    const row = this.sql.exec('SELECT value, expires FROM counters WHERE key = ?', key).toArray()[0];
    // A window that ended starts again at 0 with a new lifetime; later increments never stretch it.
    const live = row !== undefined && Number(row.expires) > now;
    const value = (live ? Number(row.value) : 0) + amount;
    this.sql.exec('INSERT OR REPLACE INTO counters VALUES (?, ?, ?)', key, value, live ? Number(row.expires) : expires);
    return value;
  }

  private claim(keys: readonly string[], owner: string, expires: number, now: number): ClaimState[] {
    return keys.map((key): ClaimState => {
      const row = this.sql.exec('SELECT value, expires FROM marks WHERE key = ?', key).toArray()[0];
      if (row !== undefined && Number(row.expires) > now) {
        return row.value === ACCEPTED ? 'accepted' : row.value === owner ? 'claimed' : 'pending';
      }
      this.sql.exec('INSERT OR REPLACE INTO marks VALUES (?, ?, ?)', key, owner, expires);
      return 'claimed';
    });
  }
}
