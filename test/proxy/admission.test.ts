// Bounded work per upstream origin: the admission semaphore, the retry budget, and both through
// the pipeline on the Web edge (the Node edge's brownout, at scale, is brownout.test.ts).
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { poolUpstream } from '../../src/proxy/node/pool-upstream';
import { Admission } from '../../src/proxy/pipeline/admission';
import { overloadRetryAfter } from '../../src/proxy/pipeline/pipeline';
import { RetryBudget } from '../../src/proxy/pipeline/retry-budget';
import { configFromEnv } from '../../src/proxy/node/env-config';
import type { ProxyLogEntry } from '../../src/proxy/types';
import { experienceBody, harness, type Harness } from './support';

describe('Admission', () => {
  it('grants up to its concurrency, queues up to its queue, refuses the rest at once', async () => {
    const admission = new Admission(2, 1, 0);
    expect(await admission.acquire()).toBe(true);
    expect(await admission.acquire()).toBe(true);
    const queued = admission.acquire();
    expect(admission.waiting).toBe(1);
    expect(admission.full).toBe(true);
    expect(await admission.acquire()).toBe('full');
    admission.release();
    // The slot went straight to the waiter.
    expect(await queued).toBe(true);
    expect(admission.active).toBe(2);
    expect(admission.waiting).toBe(0);
    admission.release();
    admission.release();
    expect(admission.active).toBe(0);
  });

  it('serves waiters first come, first served', async () => {
    const admission = new Admission(1, 3, 0);
    await admission.acquire();
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) => admission.acquire().then(() => order.push(n)));
    for (let i = 0; i < 3; i++) admission.release();
    await Promise.all(waits);
    expect(order).toEqual([1, 2, 3]);
    expect(admission.active).toBe(1);
  });

  it("refuses a waiter after maxWaitMs ('waited'), frees its place, and gives the next slot to the one behind it", async () => {
    const admission = new Admission(1, 2, 30);
    await admission.acquire();
    const first = admission.acquire();
    expect(await first).toBe('waited');
    expect(admission.waiting).toBe(0);
    const second = admission.acquire();
    admission.release();
    expect(await second).toBe(true);
    expect(admission.active).toBe(1);
    admission.release();
    expect(admission.active).toBe(0);
  });
});

describe('RetryBudget', () => {
  it('allows the floor, then 20 % of the requests of the last 10 s, and forgets them after', () => {
    let now = 1_000_000;
    const budget = new RetryBudget(0.2, 10, () => now);
    for (let i = 0; i < 100; i++) budget.request();
    let allowed = 0;
    while (budget.retry()) allowed++;
    expect(allowed).toBe(30);
    now += 11_000;
    for (let i = 0; i < 10; i++) budget.request();
    allowed = 0;
    while (budget.retry()) allowed++;
    expect(allowed).toBe(12);
  });
});

describe('overloadRetryAfter', () => {
  it('spreads the refused over 2–10 s', () => {
    expect(overloadRetryAfter(() => 0)).toBe(2);
    expect(overloadRetryAfter(() => 0.999)).toBe(10);
  });
});

describe('poolUpstream', () => {
  it('opens at most `connections` to one origin, however many sends are waiting', async () => {
    let open = 0;
    let most = 0;
    const server = createServer((_req, res) => setTimeout(() => res.end('{}'), 100));
    server.on('connection', (socket) => {
      most = Math.max(most, ++open);
      socket.once('close', () => open--);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const send = poolUpstream(2);
      const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const results = await Promise.all(Array.from({ length: 6 }, () => send(origin, '/', { method: 'POST', headers: {}, body: '{}' }, 5_000)));
      expect(results.map((result) => result.kind === 'response' && result.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(most).toBe(2);
    } finally {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
    }
  });
});

describe('configFromEnv: upstream bounds', () => {
  const base = { ENGAGE_WORKSPACE_ID: 'W', ENGAGE_PERSONALIZE_KEY: 'p', ENGAGE_SDK_URL: 'http://127.0.0.1:1' };

  it('reads ENGAGE_UPSTREAM_CONCURRENCY, ENGAGE_UPSTREAM_QUEUE and ENGAGE_RETRY_BUDGET', () => {
    const result = configFromEnv({ ...base, ENGAGE_UPSTREAM_CONCURRENCY: '64', ENGAGE_UPSTREAM_QUEUE: '0', ENGAGE_RETRY_BUDGET: '0.1' });
    if ('errors' in result) throw new Error(result.errors.join());
    expect(result.options).toMatchObject({ upstreamConcurrency: 64, upstreamQueue: 0, retryBudget: 0.1 });
  });

  it('refuses what is not a bound, naming the variable and the rule', () => {
    const result = configFromEnv({ ...base, ENGAGE_UPSTREAM_CONCURRENCY: '0', ENGAGE_UPSTREAM_QUEUE: 'many', ENGAGE_RETRY_BUDGET: '1.5' });
    expect('errors' in result && result.errors).toEqual([
      "ENGAGE_UPSTREAM_CONCURRENCY must be a whole number from 1 to 1000000: upstream requests in flight at once, per upstream origin (got '0')",
      "ENGAGE_UPSTREAM_QUEUE must be a whole number from 0 to 1000000: requests waiting for one of those, per upstream origin (got 'many')",
      "ENGAGE_RETRY_BUDGET must be a share from 0 to 1 of requests the proxy may retry upstream, e.g. 0.2 (got '1.5')",
    ]);
  });
});

describe('bounded work through the pipeline (Web edge)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('refuses createProxy options that are not bounds, naming them', async () => {
    await expect(harness({ upstreamConcurrency: 0 })).rejects.toThrow('createProxy: upstreamConcurrency must be a whole number from 1 (got 0)');
    await expect(harness({ upstreamQueue: -1 })).rejects.toThrow('createProxy: upstreamQueue must be a whole number from 0 (got -1)');
    await expect(harness({ retryBudget: 2 })).rejects.toThrow('createProxy: retryBudget must be a share from 0 to 1 (got 2)');
  });

  it('forwards at most the bound, queues the queue, answers the rest 503 + Retry-After before the upstream answers, and a re-send is accepted once', async () => {
    const logs: ProxyLogEntry[] = [];
    h = await harness({ upstreamConcurrency: 2, upstreamQueue: 1, logger: (entry) => logs.push(entry) });
    await h.upstream.fault({ latencyMs: 500 });
    const bodies = Array.from({ length: 6 }, () => experienceBody(1));
    const done: Array<{ status: number; body: unknown; retryAfter: string | null }> = [];
    const answers = await Promise.all(
      bodies.map(async (json) => {
        const response = await h!.call('/v1/experiences/events', { json, headers: { origin: 'https://shop.example' } });
        const answer = { status: response.status, body: await response.json(), retryAfter: response.headers.get('retry-after') };
        done.push(answer);
        return answer;
      }),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 503, 503, 503]);
    // At once: every refusal was answered before the first forward came back.
    expect(done.slice(0, 3).map((a) => a.status)).toEqual([503, 503, 503]);
    for (const refused of answers.filter((a) => a.status === 503)) {
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(2);
      // The upstream's own error shape for experience events.
      expect(refused.body).toMatchObject({ description: 'The upstream is busy; retry later' });
      expect(refused.body).toHaveProperty('title');
      expect(refused.body).toHaveProperty('code');
    }
    expect(h.sent).toHaveLength(3);
    expect(logs.filter((entry) => entry.overloaded === 'full')).toHaveLength(3);

    // The tracker re-sends the refused events: each is accepted once, nothing was claimed or charged for them.
    await h.upstream.fault({ latencyMs: 0 });
    const again = await Promise.all(
      bodies.filter((_, i) => answers[i]!.status === 503).map((json) => h!.call('/v1/experiences/events', { json, headers: { origin: 'https://shop.example' } })),
    );
    expect(again.map((response) => response.status)).toEqual([200, 200, 200]);
    const stored = await h.upstream.experienceEvents();
    expect({ unique: stored.unique, duplicates: stored.duplicates }).toEqual({ unique: 6, duplicates: 0 });
  });

  it('stops retrying a failing upstream once the retry budget is spent, and says so in the log', async () => {
    const logs: ProxyLogEntry[] = [];
    h = await harness({ retries: 2, retryBudget: 0, logger: (entry) => logs.push(entry) });
    await h.upstream.fault({ statuses: [500] });
    for (let i = 0; i < 12; i++) {
      const response = await h.call('/v1/experiences/events', { json: experienceBody(1), headers: { origin: 'https://shop.example' } });
      expect(response.status).toBe(500);
    }
    // 12 requests, 24 retries due, 10 allowed (the floor): 22 attempts instead of 36.
    expect(h.sent).toHaveLength(22);
    expect(logs.filter((entry) => entry.retryBudgetSpent)).toHaveLength(7);
  });
});
