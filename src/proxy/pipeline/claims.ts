import type { ClaimState, ProxyStore } from '../types';

/**
 * One request's claims on the event UUIDs it carries, so that each event is forwarded by one
 * request at a time, whichever instance it reaches. Every store failure is reported through
 * `onStoreError`. With the `forward` policy a claim that fails is resolved towards delivery: the
 * event is forwarded anyway (a possible duplicate, which the upstream deduplicates); with `retry`
 * the events stay pending and `failed` is set, so the request answers 503 and the tracker keeps
 * them for a later attempt. Never dropped.
 */
export class Claims {
  /** Claimed by this request and not yet forwarded. */
  mine: string[] = [];
  /** Being forwarded by another request. */
  pending: string[];
  /** Accepted upstream before this request could forward them (answered from memory). */
  readonly accepted = new Set<string>();
  /** A claim failed under the `retry` policy: what is pending must not be forwarded by this request. */
  failed = false;
  /**
   * Who holds this request's claims. A new one for each take() that starts with nothing held: a
   * store may accept a whole claim at once at commit (Redis), so claims taken after a commit must
   * not share its owner.
   */
  private owner = '';
  /**
   * Each UUID's store key, made once: the same string object at claim and at commit lets a
   * memory store's lookup match by identity instead of comparing characters.
   */
  private readonly keyOf = new Map<string, string>();

  constructor(
    private readonly store: ProxyStore,
    eventKey: (uuid: string) => string,
    uuids: readonly string[],
    private readonly ttl: { claimMs: number; acceptedMs: number },
    private readonly onStoreError: (message: string, error: unknown) => void,
    private readonly onFailure: 'forward' | 'retry' = 'forward',
  ) {
    for (const uuid of uuids) {
      const lower = uuid.toLowerCase();
      if (!this.keyOf.has(lower)) this.keyOf.set(lower, eventKey(lower));
    }
    this.pending = [...this.keyOf.keys()];
  }

  /** Claims every pending UUID it can; sorts the rest into accepted and still pending. */
  async take(): Promise<void> {
    const uuids = this.pending;
    if (uuids.length === 0) return;
    if (this.mine.length === 0) this.owner = newOwner();
    let states: ClaimState[];
    try {
      states = await this.store.claim(this.keys(uuids), this.owner, this.ttl.claimMs, this.ttl.acceptedMs);
    } catch (error) {
      if (this.onFailure === 'retry') {
        this.onStoreError('store failed: events not claimed, answered 503 for a retry', error);
        this.failed = true;
        return;
      }
      this.onStoreError('store failed: events forwarded without a claim', error);
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
      await this.store.commit(this.keys(uuids), this.ttl.acceptedMs, this.owner);
    } catch (error) {
      this.onStoreError('store failed: accepted events not remembered', error);
    }
  }

  /** Gives up this request's claims, so the next attempt (from any instance) can forward them. */
  async release(): Promise<void> {
    const uuids = this.mine;
    this.mine = [];
    if (uuids.length === 0) return;
    try {
      await this.store.release(this.keys(uuids), this.owner);
    } catch (error) {
      // The claims expire by themselves; until then other requests wait or get a 503.
      this.onStoreError('store failed: claims not released', error);
    }
  }

  private keys(uuids: readonly string[]): string[] {
    return uuids.map((uuid) => this.keyOf.get(uuid)!);
  }
}

/**
 * 80 random bits in 20 hex characters: unique among the owners whose marks a store keeps for the
 * dedup window, and short, since a store may keep it with every event.
 */
function newOwner(): string {
  let hex = '';
  for (const byte of crypto.getRandomValues(new Uint8Array(10))) hex += (byte | 0x100).toString(16).slice(1);
  return hex;
}
