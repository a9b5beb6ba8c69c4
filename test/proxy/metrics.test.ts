// createMetrics fed by the real proxy's log entries, against the real emulator: what an operator
// scrapes after retries, rate-limit refusals, deduplication and store failures.
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/proxy/node/metrics';
import { createMemoryStore } from '../../src/proxy/stores/memory-store';
import type { ProxyStore } from '../../src/proxy/types';
import { experienceBody, harness, type Harness } from './support';

let h: Harness | undefined;
afterEach(() => h?.close());

const post = (body: unknown, clientAddress = '203.0.113.7') => h!.call('/v1/experiences/events', { json: body, clientAddress });
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('createMetrics', () => {
  it('counts requests, forwarded and deduplicated events, upstream latency and retries', async () => {
    const metrics = createMetrics();
    h = await harness({ logger: metrics.logger });
    await h.upstream.fault({ statuses: [503], count: 1 });
    const body = experienceBody(3);
    expect((await post(body)).status).toBe(200); // 503, then 200 on the retry
    expect((await post(body)).status).toBe(200); // answered from the UUID memory
    expect((await h.call('/v1/experiences/events', { json: { elements: [] } })).status).toBe(400);
    const text = await metrics.render();
    expect(value(text, 'engage_proxy_requests_total{operation="experienceEvents",status="200"}')).toBe(2);
    expect(value(text, 'engage_proxy_requests_total{operation="experienceEvents",status="400"}')).toBe(1);
    expect(value(text, 'engage_proxy_events_forwarded_total{operation="experienceEvents"}')).toBe(3);
    expect(value(text, 'engage_proxy_events_deduplicated_total')).toBe(3);
    expect(value(text, 'engage_proxy_upstream_retries_total{operation="experienceEvents"}')).toBe(1);
    expect(value(text, 'engage_proxy_upstream_duration_seconds_count{operation="experienceEvents"}')).toBe(1);
    expect(value(text, 'engage_proxy_upstream_duration_seconds_bucket{le="+Inf",operation="experienceEvents"}')).toBe(1);
    expect(metrics.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts rate-limit refusals by budget', async () => {
    const metrics = createMetrics();
    h = await harness({
      logger: metrics.logger,
      rateLimits: { experienceEvents: { client: [{ limit: 2, windowMs: 60_000 }], workspace: [{ limit: 3, windowMs: 60_000 }] } },
    });
    expect((await post(experienceBody(2), '198.51.100.1')).status).toBe(200);
    expect((await post(experienceBody(1), '198.51.100.1')).status).toBe(429); // client budget
    expect((await post(experienceBody(2), '198.51.100.2')).status).toBe(429); // workspace budget
    const text = await metrics.render();
    expect(value(text, 'engage_proxy_rate_limited_total{operation="experienceEvents",budget="client"}')).toBe(1);
    expect(value(text, 'engage_proxy_rate_limited_total{operation="experienceEvents",budget="workspace"}')).toBe(1);
    expect(value(text, 'engage_proxy_requests_total{operation="experienceEvents",status="429"}')).toBe(2);
  });

  it('counts store failures (the events still go through)', async () => {
    const metrics = createMetrics();
    const broken: ProxyStore = {
      ...createMemoryStore(),
      increment: () => Promise.reject(new Error('down')),
      claim: () => Promise.reject(new Error('down')),
      commit: () => Promise.reject(new Error('down')),
    };
    let logged = 0;
    h = await harness({ logger: (entry) => ((logged += entry.storeErrors ?? 0), metrics.logger(entry)), store: broken });
    expect((await post(experienceBody(1))).status).toBe(200);
    const text = await metrics.render();
    // Limits and the claims each failed (how many store calls a request makes is the handler's business).
    expect(logged).toBeGreaterThanOrEqual(2);
    expect(value(text, 'engage_proxy_store_errors_total')).toBe(logged);
    expect(value(text, 'engage_proxy_events_forwarded_total{operation="experienceEvents"}')).toBe(1);
  });
});
