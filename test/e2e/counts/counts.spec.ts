// Counts a person would agree with, as a site sees them: the script-tag page with one placement
// in view holding a link, through the real proxy and the emulator, in real Chromium.
// - A crawler's render is no impression: five crawlers' user agents → 0 forwarded, nothing left
//   in their queue, counted on /metrics; three people's → 1 each. `bots: 'forward'` forwards all
//   five; a rule of the site's own lets one named crawler through.
// - Every way a person opens the link is one click; a right click is none.
// - Only the proxy's answer is delivery: a 2xx HTML page or empty answer staged in front of it
//   keeps the events, `onError` names it once, and all arrive once the proxy answers again.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { PERSON_USER_AGENT } from '../../../demo/chromium.mjs';
import { isCrawler } from '../../../src/proxy/pipeline/crawlers';
import { CRAWLERS, PEOPLE } from '../../support/user-agents';
import { openTracker, received, record, type Stack, startStack } from '../support/stack';
import { queuedEvents } from '../../support/queued-events';

const PAGE = '/test/e2e/counts/placement.html';

/** Events the emulator holds for one visitor (`?who=`), by action. */
async function countsOf(stack: Stack, who: string): Promise<{ shown: number; clicked: number }> {
  const { events } = await received(stack);
  const mine = events.filter((event) => event.customer_id === who);
  return {
    shown: mine.filter((event) => event.action === 'SVC_PERSONALIZATION_MESSAGE_SHOWN').length,
    clicked: mine.filter((event) => event.action === 'SVC_PERSONALIZATION_MESSAGE_CLICKED').length,
  };
}

/** `engage_proxy_bot_events_total` from the stack's /metrics. */
async function botEvents(stack: Stack): Promise<number> {
  const text = await (await fetch(`${stack.url}/metrics`)).text();
  return Number(/^engage_proxy_bot_events_total (\d+)$/m.exec(text)?.[1] ?? NaN);
}

const queued = (page: Page) => page.evaluate(queuedEvents);

/** Opens the page as one visitor with `userAgent`; resolves once its impression was answered (delivered or not). */
async function visit(browser: Browser, stack: Stack, who: string, userAgent: string, query = ''): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  const answered = page.waitForResponse((response) => response.url().includes('/engage/v1/experiences/events'), { timeout: 15_000 });
  await page.goto(`${stack.url}${PAGE}?who=${encodeURIComponent(who)}${query}`);
  await answered;
  return { context, page };
}

test.describe('crawlers', () => {
  test('5 crawlers → 0 impressions forwarded, none left queued, counted on /metrics; 3 people → 1 each', async ({ browser }) => {
    const stack = await startStack();
    try {
      for (const [name, ua] of Object.entries(CRAWLERS)) {
        const before = await botEvents(stack);
        const { context, page } = await visit(browser, stack, name, ua);
        await expect.poll(() => botEvents(stack)).toBe(before + 1);
        await expect.poll(() => queued(page)).toBe(0);
        await context.close();
      }
      for (const [name, ua] of Object.entries(PEOPLE)) {
        const { context } = await visit(browser, stack, name, ua);
        await expect.poll(async () => (await countsOf(stack, name)).shown).toBe(1);
        await context.close();
      }
      const { events, duplicates } = await received(stack);
      expect(events.map((event) => event.customer_id).sort()).toEqual(Object.keys(PEOPLE).sort());
      expect(duplicates).toBe(0);
      expect(await botEvents(stack)).toBe(5);
      console.log(`[counts] chromium | crawlers 0/5 impressions forwarded, 5 counted on /metrics, 0 left queued | people ${events.length}/3`);
    } finally {
      await stack.close();
    }
  });

  test("bots: 'forward' forwards every crawler's impression; a site's rule lets one named crawler through", async ({ browser }) => {
    for (const [bots, expected] of [
      ['forward', Object.keys(CRAWLERS)],
      ['rule', ['AhrefsBot']],
    ] as const) {
      const stack = await startStack({ proxy: { bots: bots === 'forward' ? 'forward' : (ua: string) => !ua.includes('AhrefsBot') && isCrawler(ua) } });
      try {
        for (const [name, ua] of Object.entries(CRAWLERS)) await (await visit(browser, stack, name, ua)).context.close();
        await expect.poll(async () => (await received(stack)).events.map((event) => event.customer_id).sort()).toEqual([...expected].sort());
        console.log(`[counts] chromium | bots: ${bots} → ${expected.length}/5 crawler impressions forwarded`);
      } finally {
        await stack.close();
      }
    }
  });

  test('the inspection panel says the proxy takes this browser for a crawler', async ({ browser }) => {
    const stack = await startStack();
    try {
      const { context, page } = await visit(browser, stack, 'inspected', CRAWLERS.Bingbot, '&engage-inspect');
      await expect(page.locator('[data-fact="visitor"]')).toHaveText('a crawler to the proxy (by its user agent): its events are answered, not counted');
      await context.close();
    } finally {
      await stack.close();
    }
  });
});

test.describe('clicks', () => {
  /** Each way of opening the link (or pressing the button), as a person does it. */
  const KINDS: Record<string, (page: Page) => Promise<void>> = {
    'left click': (page) => page.click('#link'),
    'Ctrl+click': (page) => page.click('#link', { modifiers: ['Control'] }),
    'Shift+click': (page) => page.click('#link', { modifiers: ['Shift'] }),
    'middle click': (page) => page.click('#link', { button: 'middle' }),
    'keyboard Enter': async (page) => {
      await page.focus('#link');
      await page.keyboard.press('Enter');
    },
    'Space on a <button>': async (page) => {
      await page.focus('#button');
      await page.keyboard.press(' ');
    },
    'touch tap': (page) => page.tap('#link'),
    'right click': (page) => page.click('#link', { button: 'right' }),
  };

  test('left, Ctrl, Shift, middle, Enter, Space, tap → 1 click each; right → 0', async ({ browser }) => {
    const stack = await startStack();
    try {
      for (const [kind, act] of Object.entries(KINDS)) {
        const context = await browser.newContext({ userAgent: PERSON_USER_AGENT, hasTouch: kind === 'touch tap' });
        const page = await context.newPage();
        await page.goto(`${stack.url}${PAGE}?who=${encodeURIComponent(kind)}`);
        // The impression first (1 s in view), so that the click is the only thing left to count.
        await expect.poll(async () => (await countsOf(stack, kind)).shown, { timeout: 15_000 }).toBe(1);
        await act(page);
        if (kind === 'right click') {
          // Whatever it recorded would be delivered by this flush: nothing must be.
          await page.keyboard.press('Escape');
          await page.evaluate(() => (window as unknown as { Engage: { flush(): Promise<void> } }).Engage.flush());
        } else {
          await expect.poll(async () => (await countsOf(stack, kind)).clicked, { timeout: 15_000 }).toBe(1);
        }
        await context.close();
      }
      const counts = Object.fromEntries(await Promise.all(Object.keys(KINDS).map(async (kind) => [kind, (await countsOf(stack, kind)).clicked] as const)));
      expect(counts).toEqual({ ...Object.fromEntries(Object.keys(KINDS).map((kind) => [kind, 1])), 'right click': 0 });
      expect((await received(stack)).duplicates).toBe(0);
      console.log(
        `[counts] chromium | clicks ${Object.entries(counts)
          .map(([kind, n]) => `${kind} ${n}`)
          .join(', ')}`,
      );
    } finally {
      await stack.close();
    }
  });
});

test.describe('acknowledgements', () => {
  const STAGED = {
    'an HTML page': () => new Response('<!doctype html><title>Offline</title><p>You are offline.</p>', { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    'an empty 200 with no type': () => new Response(null, { status: 200 }),
  };

  for (const [what, answer] of Object.entries(STAGED)) {
    test(`${what} in front of the proxy is not delivery: 3/3 arrive once the proxy answers again, onError named it once`, async ({ page }) => {
      let staged = 0;
      let standing = true;
      const stack = await startStack({
        intercept: (request: Request) => {
          if (!standing || request.method !== 'POST' || !new URL(request.url).pathname.endsWith('/v1/experiences/events')) return undefined;
          staged++;
          return answer();
        },
      });
      try {
        await openTracker(page, stack, { flushInterval: 200 });
        const ids = await record(page, 3);
        // Two answers at least: the first failure and one retry.
        await expect.poll(() => staged, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
        standing = false;
        await expect.poll(async () => (await received(stack)).unique, { timeout: 30_000 }).toBe(3);
        const { events, duplicates } = await received(stack);
        expect(events.map((event) => event.svc_event_uuid).sort()).toEqual([...ids].sort());
        expect(duplicates).toBe(0);
        const errors = await page.evaluate(() => (window as unknown as { engageErrors: Array<{ message: string }> }).engageErrors.map((error) => error.message));
        const named = what === 'an HTML page' ? 'text/html; charset=utf-8' : 'no content type';
        expect(errors).toEqual([`${named} from /engage/v1/experiences/events: not the proxy's answer`]);
        console.log(`[counts] chromium | ${what}: ${staged} staged answers, then 3/3 delivered, ${duplicates} twice, onError ×${errors.length}`);
      } finally {
        await stack.close();
      }
    });
  }
});
