// The demo, in Chromium, against the real stack it starts (emulator + proxy + pages): viewability
// timing under Playwright's clock, clicks with b_id, offline and key rotation recovery, strict CSP.
import { expect, type Page, test } from '@playwright/test';
import { type Demo, startDemo } from '../../../demo/server.mjs';

let demo: Demo;
test.beforeAll(async () => {
  demo = await startDemo({ port: 0, emulatorPort: 0 });
});
test.afterAll(async () => {
  await demo.close();
});
test.beforeEach(async () => {
  await fetch(new URL('/demo-api/reset', demo.url), { method: 'POST', body: '{}' });
});

const delivered = (action: 'SHOWN' | 'CLICKED') => demo.emulator.getExperienceEvents().events.filter((event) => event.action === `SVC_PERSONALIZATION_MESSAGE_${action}`);
/** Recorded on the page (the panel lists every UUID returned by shown/clicked). */
const recorded = (page: Page, action: 'shown' | 'clicked', experience: string) =>
  page.locator(`#recorded-log li[data-action="${action}"][data-experience="${experience}"]`).count();

async function open(page: Page, path = '') {
  await page.goto(demo.url + path);
  await page.waitForSelector('html[data-demo-ready="true"]');
}

/** Resolves once the browser has computed `id`'s visibility as ≥50% (or not): one rendering update. */
const seenAs = (page: Page, id: string, halfVisible: boolean) =>
  page.evaluate(
    ([id, want]) =>
      new Promise<void>((resolve) => {
        const io = new IntersectionObserver(
          (entries) => {
            if (entries[entries.length - 1]!.intersectionRatio >= 0.5 === want) {
              io.disconnect();
              resolve();
            }
          },
          { threshold: [0, 0.5, 1] },
        );
        io.observe(document.getElementById(id)!);
      }),
    [id, halfVisible] as const,
  );

const flush = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { Engage: { flush(): Promise<void> } }).Engage.flush().then(
      () => 'ok',
      (error: Error) => error.name,
    ),
  );

test('an impression only after one second of visibility; none for a placement scrolled past quickly', async ({ page }) => {
  // Paused a minute in the past: a slow device clock, whose events the proxy dates by its own.
  await page.clock.install({ time: Date.now() - 120_000 });
  await page.clock.pauseAt(Date.now() - 60_000);
  await open(page);
  // The tracker's start and autoObserve's run from timers (issue 51 §2), which a paused clock holds.
  await page.clock.runFor(0);
  await seenAs(page, 'hero', true);

  await page.clock.runFor(900);
  expect(await recorded(page, 'shown', 'Winter Sale Hero')).toBe(0);
  await page.clock.runFor(100);
  expect(await recorded(page, 'shown', 'Winter Sale Hero')).toBe(1);

  // Scrolled to, seen for half a second, scrolled away: no impression, however long we wait.
  await page.locator('#recommendations').evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await seenAs(page, 'recommendations', true);
  await page.clock.runFor(500);
  await page.evaluate(() => window.scrollTo(0, 0));
  await seenAs(page, 'recommendations', false);
  await page.clock.runFor(5_000);
  expect(await recorded(page, 'shown', 'Recommended For You')).toBe(0);

  // Back, and this time it stays: counted once, and the hero (seen again) is not counted twice.
  await page.locator('#recommendations').evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await seenAs(page, 'recommendations', true);
  await page.clock.runFor(1_000);
  await page.evaluate(() => window.scrollTo(0, 0));
  await seenAs(page, 'hero', true);
  await page.clock.runFor(3_000);
  expect(await recorded(page, 'shown', 'Recommended For You')).toBe(1);
  expect(await recorded(page, 'shown', 'Winter Sale Hero')).toBe(1);
  expect(await recorded(page, 'shown', 'Free Shipping Nudge')).toBe(0);

  expect(await flush(page)).toBe('ok');
  expect(
    delivered('SHOWN')
      .map((event) => event.attributes.experience)
      .sort(),
  ).toEqual(['Recommended For You', 'Winter Sale Hero']);
  expect(delivered('SHOWN')[0]!.attributes).toMatchObject({ cid: '6571f0c2a9e4b7d3c1f20a11', svc_variation_id: '2', audience_id: '5A', type: 'Web Personalization' });
});

test('clicks carry b_id from the clicked control', async ({ page }) => {
  await open(page);
  await page.click('#hero button');
  await page.click('[data-engage-b-id="rec-add-parka"]');
  await page.click('[data-engage-b-id="ship-learn-more"]');
  expect(await flush(page)).toBe('ok');
  expect(delivered('CLICKED').map((event) => [event.attributes.experience, event.attributes.b_id])).toEqual([
    ['Winter Sale Hero', 'hero-shop-sale'],
    ['Recommended For You', 'rec-add-parka'],
    ['Free Shipping Nudge', 'ship-learn-more'],
  ]);
});

test('offline, then recovery: what was recorded offline is delivered once back online', async ({ page }) => {
  await open(page);
  await page.click('#toggle-offline');
  await expect(page.locator('#toggle-offline')).toHaveText('Back online');
  await page.click('[data-engage-b-id="rec-add-boots"]');
  await page.click('[data-engage-b-id="rec-add-scarf"]');
  expect(await flush(page)).toBe('NetworkError');
  await expect(page.locator('#status')).toContainText('NetworkError');
  expect(delivered('CLICKED')).toHaveLength(0);
  expect(Number(await page.textContent('#queued'))).toBeGreaterThanOrEqual(2);

  await page.click('#toggle-offline');
  await expect(page.locator('#toggle-offline')).toHaveText('Go offline');
  await page.click('#flush-now');
  await expect.poll(() => delivered('CLICKED').map((event) => event.attributes.b_id)).toEqual(['rec-add-boots', 'rec-add-scarf']);
  await expect(page.locator('#queued')).toHaveText('0');
});

test('key rotation: events held with 401, delivered once the proxy gets the new key', async ({ page }) => {
  await open(page);
  await page.click('#rotate-key');
  await expect(page.locator('#give-key')).toBeEnabled();
  await page.click('#hero button');
  expect(await flush(page)).toBe('HttpError');
  await expect(page.locator('#status')).toContainText('401');
  expect(delivered('CLICKED')).toHaveLength(0);

  await page.click('#give-key');
  await expect.poll(() => delivered('CLICKED').map((event) => event.attributes.b_id)).toEqual(['hero-shop-sale']);
  await expect(page.locator('#give-key')).toBeDisabled();
  // The page never saw a key.
  expect(await page.content()).not.toContain(demo.emulator.keys.personalize);
});

test('the ESM page: placements rendered by script, impressions and clicks delivered', async ({ page }) => {
  await open(page, 'esm.html');
  await page.click('[data-engage-b-id="hero-shop-sale"]');
  await expect.poll(() => recorded(page, 'shown', 'Winter Sale Hero')).toBe(1);
  await page.evaluate(() => (window as unknown as { tracker: { flush(): Promise<void> } }).tracker.flush());
  expect(delivered('SHOWN').map((event) => event.attributes.experience)).toEqual(['Winter Sale Hero']);
  expect(delivered('CLICKED').map((event) => event.attributes.b_id)).toEqual(['hero-shop-sale']);
  await expect(page.locator('tr[data-experience="Winter Sale Hero"] .clicks')).toHaveText('1');
});

test('strict CSP on every page: no violations, no console errors, while everything runs', async ({ page }) => {
  const problems: string[] = [];
  await page.addInitScript(() => {
    addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { violations: string[] }).violations ??= [];
      (window as unknown as { violations: string[] }).violations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const violations = () => page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? []);

  for (const path of ['', 'esm.html']) {
    const response = await page.goto(demo.url + path);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForSelector('html[data-demo-ready="true"]');
    await page.click('[data-engage-b-id="hero-shop-sale"]');
    await page.click('#start-import');
    await expect(page.locator('#imports progress')).toHaveCount(1);
    await page.selectOption('#failure-ratio', '0.3');
    await page.selectOption('#failure-ratio', '0');
    await expect.poll(() => recorded(page, 'shown', 'Winter Sale Hero')).toBe(1);
    await page.mouse.wheel(0, 2_000);
    await expect(page.locator('#imports .import-status')).toContainText('rows');
    expect(await violations()).toEqual([]);
  }
  expect(problems).toEqual([]);

  // The listener does catch a violation: an inline style attribute is refused.
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<div style="color:red">x</div>'));
  await expect.poll(violations).toEqual([expect.stringContaining('style-src')]);
});

test('script tag: calls made before load are replayed in order; data- options; bad context reported, not thrown', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(new URL('/test/e2e/demo/preload.html', demo.url).href);
  await page.waitForFunction(() => typeof (window as unknown as { Engage: { createTracker?: unknown } }).Engage.createTracker === 'function');
  expect(await page.evaluate(() => (window as unknown as { beforeLoad: string }).beforeLoad)).toBe('undefined');
  await page.click('[data-engage-b-id="auto"]');
  expect(await flush(page)).toBe('ok');
  const events = demo.emulator
    .getExperienceEvents()
    .events // On a slow machine the automatic impression (1 s after load) may ride along: not what is tested here.
    .filter((event) => !(event.action.endsWith('_SHOWN') && event.attributes.slot === undefined));
  expect(events.map((event) => [event.action.replace('SVC_PERSONALIZATION_MESSAGE_', ''), event.attributes.b_id ?? event.attributes.slot])).toEqual([
    ['CLICKED', 'first'],
    ['CLICKED', 'second'],
    ['SHOWN', 'queued'],
    ['CLICKED', 'auto'],
  ]);
  expect(events.every((event) => event.customer_id === 'preload-user')).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { engageErrors: unknown[] }).engageErrors)).toEqual([{ name: 'ValidationError', field: 'data-engage-context' }]);
  expect(pageErrors).toEqual([]);
});

test('script tag run in <head> before the body exists: placements the parser adds later are observed', async ({ page }) => {
  await page.goto(new URL('/test/e2e/demo/parse-time.html', demo.url).href);
  await page.click('[data-engage-b-id="parsed"]');
  expect(await flush(page)).toBe('ok');
  const clicks = delivered('CLICKED');
  expect(clicks.map((event) => [event.customer_id, event.attributes.cid, event.attributes.b_id])).toEqual([['parse-user', 'c-8', 'parsed']]);
});
