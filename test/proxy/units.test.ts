// Pure pieces of the proxy, without I/O.
import { describe, expect, it } from 'vitest';
import { basicAuth } from '../../src/proxy/pipeline/basic-auth';
import { forwardedFor, trustMatcher } from '../../src/proxy/pipeline/client-address';
import { createMemoryStore } from '../../src/proxy/stores/memory-store';
import { charge, overLimit, release } from '../../src/proxy/pipeline/rate-limit';

describe('basicAuth', () => {
  it('matches Buffer base64 for ASCII and UTF-8, all padding lengths', () => {
    for (const [user, pass] of [
      ['W', 'k'],
      ['WS', 'ke'],
      ['ENGAGEDEMO01', 'emulator-personalize-key'],
      ['wörk', 'ключ-🔑'],
    ]) {
      expect(basicAuth(user!, pass!)).toBe(`Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`);
    }
  });
});

describe('forwardedFor', () => {
  const none = trustMatcher([]);
  const lan = trustMatcher(['10.0.0.0/8', '192.168.1.1', '::1']);
  it('uses the peer when it is not trusted, whatever the header says', () => {
    expect(forwardedFor('203.0.113.7', '1.1.1.1', none)).toEqual({ client: '203.0.113.7', chain: '203.0.113.7' });
    expect(forwardedFor('203.0.113.7', '1.1.1.1', lan)).toEqual({ client: '203.0.113.7', chain: '203.0.113.7' });
  });
  it('walks trusted hops from the right and stops at the first untrusted one', () => {
    expect(forwardedFor('::1', '9.9.9.9, 198.51.100.4, 10.2.3.4', lan)).toEqual({ client: '198.51.100.4', chain: '198.51.100.4, 10.2.3.4, ::1' });
  });
  it('stops at a malformed entry', () => {
    expect(forwardedFor('192.168.1.1', '198.51.100.4, not-an-ip', lan)).toEqual({ client: '192.168.1.1', chain: '192.168.1.1' });
  });
  it('maps IPv4-mapped IPv6 peers to IPv4', () => {
    expect(forwardedFor('::ffff:10.9.9.9', '198.51.100.4', lan).client).toBe('198.51.100.4');
  });
  it('says unknown when the runtime gives no address', () => {
    expect(forwardedFor(undefined, '1.1.1.1', lan)).toEqual({ client: 'unknown', chain: undefined });
  });
  it('refuses entries it cannot read', () => {
    expect(() => trustMatcher(['10.0.0.0/33'])).toThrow(/trustedProxies/);
    expect(() => trustMatcher(['localhost'])).toThrow(/trustedProxies/);
  });
});

describe('createMemoryStore', () => {
  it('keeps at most maxKeys event keys, dropping the oldest', async () => {
    const store = createMemoryStore({ maxKeys: 3 });
    await store.commit(['a', 'b', 'c'], 60_000, 'them');
    await store.commit(['d'], 60_000, 'them');
    expect(await store.claim(['a', 'b', 'c', 'd'], 'me', 60_000, 60_000)).toEqual(['claimed', 'accepted', 'accepted', 'accepted']);
  });
  it('forgets keys and counters after their lifetime', async () => {
    let now = 1_000;
    const store = createMemoryStore({ now: () => now });
    await store.commit(['a'], 100, 'them');
    expect(await store.increment('c', 5, 100)).toBe(5);
    now += 100;
    expect(await store.claim(['a'], 'me', 100, 100)).toEqual(['claimed']);
    expect(await store.increment('c', 1, 100)).toBe(1);
  });
  it('bounds counters too', async () => {
    const store = createMemoryStore({ maxCounters: 2 });
    await store.increment('a', 1, 60_000);
    await store.increment('b', 1, 60_000);
    await store.increment('c', 1, 60_000);
    expect(await store.increment('a', 1, 60_000)).toBe(1);
  });
});

describe('charge / overLimit / release', () => {
  it('takes from every budget, names the first one exceeded and when its window ends, and gives back', async () => {
    const store = createMemoryStore();
    const checks = [
      { scope: 'client' as const, name: 'second', amount: 1, rule: { limit: 10, windowMs: 1_000 } },
      { scope: 'workspace' as const, name: 'minute', amount: 1, rule: { limit: 2, windowMs: 60_000 } },
    ];
    const now = 120_000 + 15_000;
    expect(overLimit(checks, await charge(store, checks, now), now)).toBeUndefined();
    expect(overLimit(checks, await charge(store, checks, now), now)).toBeUndefined();
    const third = await charge(store, checks, now);
    expect(overLimit(checks, third, now)).toEqual({ check: checks[1], retryAfter: 45 });
    // A unit credited back (answered from memory) is not owed.
    expect(overLimit(checks, third, now, (check) => (check.scope === 'workspace' ? 1 : 0))).toBeUndefined();
    await release(store, checks, now);
    expect(await store.increment('second:1000:135', 0, 1_000)).toBe(2);
    expect(await store.increment('minute:60000:2', 0, 60_000)).toBe(2);
  });
});
