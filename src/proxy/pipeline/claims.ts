import type { ClaimState, ProxyStore } from '../types';

/**
 * Store key of an experience event: scoped by workspace, UUIDs compared lowercase. The workspace
 * is a Redis Cluster hash tag, so one request's keys share a slot and go in one script; the
 * workspaces spread over the shards (one workspace's event rate is bounded by the upstream's).
 */
export function eventKey(workspaceId: string, uuid: string): string {
  return `ev:{${workspaceId}}:${uuid}`;
}

/**
 * One request's claims on the event UUIDs it carries, so that each event is forwarded by one
 * request at a time, whichever instance it reaches. Every store failure is reported through
 * `onStoreError` and resolved towards delivery: an unclaimable event is forwarded anyway (a
 * possible duplicate, which the upstream deduplicates), never dropped or held.
 */
export class Claims {
  /** Claimed by this request and not yet forwarded. */
  mine: string[] = [];
  /** Being forwarded by another request. */
  pending: string[];
  /** Accepted upstream before this request could forward them (answered from memory). */
  readonly accepted = new Set<string>();
  private readonly owner = crypto.randomUUID();
  /**
   * Each UUID's store key, made once: the same string object at claim and at commit lets a
   * memory store's lookup match by identity instead of comparing characters.
   */
  private readonly keyOf = new Map<string, string>();

  constructor(
    private readonly store: ProxyStore,
    workspaceId: string,
    uuids: readonly string[],
    private readonly ttl: { claimMs: number; acceptedMs: number },
    private readonly onStoreError: (message: string) => void,
  ) {
    for (const uuid of uuids) {
      const lower = uuid.toLowerCase();
      if (!this.keyOf.has(lower)) this.keyOf.set(lower, eventKey(workspaceId, lower));
    }
    this.pending = [...this.keyOf.keys()];
  }

  /** Claims every pending UUID it can; sorts the rest into accepted and still pending. */
  async take(): Promise<void> {
    const uuids = this.pending;
    if (uuids.length === 0) return;
    let states: ClaimState[];
    try {
      states = await this.store.claim(this.keys(uuids), this.owner, this.ttl.claimMs);
    } catch {
      this.onStoreError('store failed: events forwarded without a claim');
      states = uuids.map(() => 'claimed');
    }
    this.pending = [];
    uuids.forEach((uuid, i) => {
      if (states[i] === 'accepted') this.accepted.add(uuid);
      else if (states[i] === 'pending') this.pending.push(uuid);
      else this.mine.push(uuid);
    });
  }

  /** The upstream accepted what this request holds: remember it for the dedup window, ending the claims. */
  async commit(): Promise<void> {
    const uuids = this.mine;
    this.mine = [];
    try {
      await this.store.commit(this.keys(uuids), this.ttl.acceptedMs);
    } catch {
      this.onStoreError('store failed: accepted events not remembered');
    }
  }

  /** Gives up this request's claims, so the next attempt (from any instance) can forward them. */
  async release(): Promise<void> {
    const uuids = this.mine;
    this.mine = [];
    if (uuids.length === 0) return;
    try {
      await this.store.release(this.keys(uuids), this.owner);
    } catch {
      // The claims expire by themselves; until then other requests wait or get a 503.
      this.onStoreError('store failed: claims not released');
    }
  }

  private keys(uuids: readonly string[]): string[] {
    return uuids.map((uuid) => this.keyOf.get(uuid)!);
  }
}
