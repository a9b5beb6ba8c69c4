// An upstream brownout through real trackers in Chromium: five visitors' pages (each its own
// browser context, so its own IndexedDB) record events while the upstream answers each request
// after 3 s (20 events each, ~4 per request) and the proxy lets one upstream request in flight and one waiting. The excess is
// answered 503 + Retry-After; the trackers keep those events and re-send them; after recovery
// every event is accepted, none twice. (The proxy here runs on the Web edge, over fetch; the Node
// edge's brownout at scale is test/proxy/brownout.test.ts.)
import { expect, test, type BrowserContext } from '@playwright/test';
import type { ProxyLogEntry } from '../../../src/proxy/types';
import { admin, openTracker, received, record, startStack } from '../support/stack';

const PAGES = 5;
const EVENTS_PER_PAGE = 20;

test('five pages through a 3 s brownout with one upstream slot: every event accepted, none twice', async ({ browser }) => {
  test.setTimeout(150_000);
  const upstream = { inFlight: 0, maxInFlight: 0, attempts: 0 };
  const overloaded: ProxyLogEntry[] = [];
  const stack = await startStack({
    proxy: {
      upstreamConcurrency: 1,
      upstreamQueue: 1,
      rateLimits: { experienceEvents: {} },
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        upstream.attempts++;
        upstream.maxInFlight = Math.max(upstream.maxInFlight, ++upstream.inFlight);
        try {
          return await fetch(input, init);
        } finally {
          upstream.inFlight--;
        }
      },
      logger: (entry: ProxyLogEntry) => {
        if (entry.overloaded) overloaded.push(entry);
      },
    },
  });
  const contexts: BrowserContext[] = [];
  try {
    await admin(stack, 'faults', { body: { latencyMs: 3_000 } });
    const ids: string[] = [];
    for (let i = 0; i < PAGES; i++) {
      const context = await browser.newContext();
      contexts.push(context);
      const page = await context.newPage();
      await openTracker(page, stack, { customerId: `visitor-${i}`, batchSize: 5, flushInterval: 500, maxRequestBytes: 2_000 });
      ids.push(...(await record(page, EVENTS_PER_PAGE)));
    }
    // The brownout lasts until the proxy refused three of the trackers' requests and six slow
    // answers went by (≥ 18 s), so re-sends meet it too.
    await expect.poll(() => overloaded.length >= 3 && upstream.attempts >= 6, { timeout: 60_000 }).toBe(true);
    const refusedDuring = overloaded.length;
    await admin(stack, 'faults', { method: 'DELETE' });

    await expect.poll(async () => (await received(stack)).unique, { timeout: 100_000, intervals: [500] }).toBe(PAGES * EVENTS_PER_PAGE);
    const { events, duplicates } = await received(stack);
    console.log(
      `brownout in Chromium: ${PAGES} pages, ${ids.length} events; ${refusedDuring} requests refused 503 during the brownout (${overloaded.length} in all); ` +
        `upstream at most ${upstream.maxInFlight} in flight over ${upstream.attempts} attempts; ${events.length} accepted, ${duplicates} twice`,
    );
    expect(upstream.maxInFlight).toBe(1);
    expect(new Set(events.map((event) => event.svc_event_uuid))).toEqual(new Set(ids));
    expect(duplicates).toBe(0);
  } finally {
    for (const context of contexts) await context.close();
    await stack.close();
  }
});
