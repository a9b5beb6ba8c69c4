// Delivery with no page open (dist/engage-sw.js, the tracker's `serviceWorker` option), against
// the real proxy and emulator. Chromium has Background Sync: there the scenarios drive Playwright
// directly (a fresh context per scenario, its network switched off and on, the DevTools protocol to
// fire a sync by hand), which the driver seam does not offer. Firefox and WebKit have none: there
// the same page, option on, must load clean and deliver at the next visit as it always did.
//
// Every request that reaches /engage is recorded with the UUIDs it carries and who sent it (its
// Referer: the page's URL, or the worker script's), so "delivered once" is checked where it
// matters, at the proxy's door: the proxy's UUID memory would hide a second send from the emulator.
// The stack's `down` switch resets those requests: the context's offline mode does not stop what
// a closing page leaves in flight (TOOLCHAIN.md).
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { chromiumLaunchOptions } from '../../demo/chromium.mjs';
import { startStack } from '../../demo/stack.mjs';
import { type EngineName, type EnginePage, launchEngine, openedPages, until } from './engine';
import { emulatorAdmin, type Received } from './stack';

interface Sent {
  at: number;
  /** The Referer: the page's URL, or the service worker script's. */
  from: string;
  uuids: string[];
  /** False while `down`: the request was reset before the proxy saw it. */
  reached: boolean;
}

interface SyncStack {
  url: string;
  down: boolean;
  sent: Sent[];
  admin<T = unknown>(path: string, init?: { method?: string; body?: unknown }): Promise<T>;
  received(): Promise<Received>;
  close(): Promise<void>;
}

type Win = Window & {
  harnessReady?: boolean;
  startTracker(options: unknown): void;
  record(count: number, action: string): string[];
  engageErrors: Array<{ name: string; message: string }>;
  spy: { console: string[]; errors: string[] };
};

const WORKER = '/dist/engage-sw.js';
const SITE_WORKER = '/test/browsers/pages/site-sw.js';

async function startSyncStack(): Promise<SyncStack> {
  const stack = { down: false, sent: [] as Sent[] };
  const inner = await startStack({
    proxy: { rateLimits: { experienceEvents: {} } },
    intercept: async (request: Request) => {
      if (!new URL(request.url).pathname.startsWith('/engage/')) return undefined;
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const uuids = [...body.matchAll(/"svc_event_uuid":"([^"]+)"/g)].map((match) => match[1]!);
      stack.sent.push({ at: Date.now(), from: new URL(request.headers.get('referer') ?? 'about:blank').pathname, uuids, reached: !stack.down });
      return stack.down ? Response.error() : undefined;
    },
  });
  const admin = <T>(path: string, init?: { method?: string; body?: unknown }) => emulatorAdmin<T>(inner.emulatorUrl, path, init);
  return Object.assign(stack, { url: inner.url, admin, received: () => admin<Received>('experience-events'), close: () => inner.close() });
}

/** Each UUID in exactly one request that reached the proxy: nothing sent twice, by anyone. */
function sentOnce(stack: SyncStack, ids: string[]): Record<string, number> {
  const reached = stack.sent.filter((request) => request.reached);
  const times = new Map<string, number>();
  for (const uuid of reached.flatMap((request) => request.uuids)) times.set(uuid, (times.get(uuid) ?? 0) + 1);
  expect([...times.keys()].sort()).toEqual([...ids].sort());
  expect([...times.values()].filter((count) => count > 1)).toEqual([]);
  // Events per sender.
  const by: Record<string, number> = {};
  for (const request of reached) if (request.uuids.length) by[request.from] = (by[request.from] ?? 0) + request.uuids.length;
  return by;
}

export function describeBackgroundSync(name: EngineName): void {
  if (name === 'chromium') describeChromium();
  else describeWithout(name);
}

function describeChromium(): void {
  describe('chromium: delivery with no page open (engage-sw.js, Background Sync)', () => {
    let browser: Browser;
    let stack: SyncStack;
    let context: BrowserContext;
    let namespace = '';
    const rows: string[] = [];

    beforeAll(async () => {
      stack = await startSyncStack();
      browser = await chromium.launch(chromiumLaunchOptions());
    });
    afterAll(async () => {
      await browser?.close();
      await stack?.close();
      console.log([`[sync] chromium ${browser?.version()}`, ...rows].join('\n'));
    });
    beforeEach(async (task) => {
      namespace = task.task.name.replace(/\W+/g, '-').slice(0, 40);
      stack.down = false;
      stack.sent.length = 0;
      await stack.admin('faults', { method: 'DELETE' });
      await stack.admin('reset', { body: {} });
      // A profile per scenario: its own registrations, IndexedDB and pending syncs.
      context = await browser.newContext();
    });
    afterEach(async () => {
      stack.down = false;
      await context?.close();
    });

    const sitePages = () => context.pages().filter((page) => page.url().startsWith(stack.url));
    /** The worker's requests at the proxy's door since the `from`th request, once there is one. */
    async function workerRequests(what: string, from = 0): Promise<Sent[]> {
      const sent = () => stack.sent.slice(from).filter((request) => request.from === WORKER);
      await until(
        () => Promise.resolve(sent().length),
        (count) => count > 0,
        15_000,
        what,
      );
      return sent();
    }
    const errorNames = (page: Page) => page.evaluate(() => (window as unknown as Win).engageErrors.map((error) => error.name));

    /** A page of the site with the tracker on `serviceWorker`, once that worker is active. */
    async function openSite(options: Record<string, unknown> = {}, worker = WORKER): Promise<Page> {
      const page = await context.newPage();
      await page.goto(`${stack.url}/test/browsers/pages/sync.html`);
      await page.waitForFunction(() => (window as unknown as Win).harnessReady === true);
      await page.evaluate((o) => (window as unknown as Win).startTracker(o), { namespace, serviceWorker: worker, ...options });
      await waitForWorker(page, worker);
      return page;
    }
    /**
     * Waits for the worker to be active, and keeps its registration in the page (`syncTags` reads
     * it). Polled with `until`: `waitForFunction` takes the promise an async predicate returns as
     * truthy and resolves at once, which let a loaded run go offline while the worker was still
     * installing (its install then failed, the registration went, and no sync was ever asked for).
     */
    const waitForWorker = (page: Page, worker: string) =>
      until(
        () =>
          page.evaluate(async (script) => {
            const registration = await navigator.serviceWorker.getRegistration(script);
            (window as unknown as { registration?: unknown }).registration = registration;
            return registration?.active?.state === 'activated';
          }, worker),
        Boolean,
        15_000,
        `${worker} activated`,
      );

    /** Offline (and the proxy down, for what a closing page leaves in flight): records 2 impressions and a click. */
    async function recordOffline(
      page: Page,
      record = () => page.evaluate(() => [...(window as unknown as Win).record(2, 'shown'), ...(window as unknown as Win).record(1, 'clicked')]),
    ): Promise<string[]> {
      stack.down = true;
      await context.setOffline(true);
      const ids = await record();
      // The page's own delivery failed once: the sync is asked for then (and again when it hides).
      await until(
        () => errorNames(page),
        (names) => names.includes('NetworkError'),
        15_000,
        'a NetworkError',
      );
      return ids;
    }

    /** Closes the page; from here on no page of the site is open. */
    async function closeAll(page: Page): Promise<void> {
      await page.close();
      expect(sitePages()).toEqual([]);
      // What the closing page might have left in flight meets the reset, not the proxy.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stack.sent.filter((request) => request.reached)).toEqual([]);
    }

    /** Waits for `ids` at the emulator, each once; returns the time since `since`. */
    async function delivered(ids: string[], since: number): Promise<number> {
      await until(
        () => stack.received(),
        (received) => received.unique >= ids.length,
        45_000,
        `${ids.length} events at the emulator`,
      );
      const ms = Date.now() - since;
      const { unique, duplicates, events } = await stack.received();
      expect(unique).toBe(ids.length);
      expect(duplicates).toBe(0);
      expect(new Set(events.map((event) => event.svc_event_uuid))).toEqual(new Set(ids));
      return ms;
    }

    /** Fires the namespace's sync by hand, from a page of no origin (DevTools protocol). */
    async function dispatchSync(lastChance: boolean, worker = WORKER): Promise<void> {
      const blank = await context.newPage();
      try {
        const cdp = await context.newCDPSession(blank);
        const registrations: Array<{ registrationId: string; scopeURL: string }> = [];
        cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
        await cdp.send('ServiceWorker.enable');
        const scope = new URL(worker.replace(/[^/]*$/, ''), stack.url).href;
        const registration = await until(() => Promise.resolve(registrations.find((r) => r.scopeURL === scope)), Boolean, 5_000, `the registration of ${scope}`);
        await cdp.send('ServiceWorker.dispatchSyncEvent', {
          origin: stack.url,
          registrationId: registration!.registrationId,
          tag: `engage-sdk:${namespace}`,
          lastChance,
        });
      } finally {
        await blank.close();
      }
    }

    test('offline, tab closed, back online with no page of the site open: 3 of 3 delivered once, by the worker', async () => {
      const page = await openSite();
      const ids = await recordOffline(page);
      await closeAll(page);
      stack.down = false;
      const since = Date.now();
      // The browser fires the sync by itself on reconnecting.
      await context.setOffline(false);
      const ms = await delivered(ids, since);
      expect(sitePages()).toEqual([]);
      expect(sentOnce(stack, ids)).toEqual({ [WORKER]: 3 });
      rows.push(`[sync] offline, closed, online, no page: 3/3 once, by the worker, ${ms} ms after reconnecting (the browser's own sync)`);
    });

    test('the script tag with data-service-worker: the same, 3 of 3 delivered once by the worker', async () => {
      const page = await context.newPage();
      await page.goto(`${stack.url}/test/browsers/pages/sync-script-tag.html`);
      await waitForWorker(page, WORKER);
      // The script tag's onError is an `engage:error` event.
      await page.evaluate(() => {
        const w = window as unknown as Win;
        w.engageErrors = [];
        addEventListener('engage:error', (event) => w.engageErrors.push((event as CustomEvent<Error>).detail));
      });
      const ids = await recordOffline(page, () =>
        page.evaluate(() => {
          const engage = (window as unknown as { Engage: { shown(c: object): string; clicked(c: object, a: object): string } }).Engage;
          const context = { cid: 'c-1', experience: 'Hero', svc_locale_id: '0', svc_variation_id: '2', audience_name: 'All', audience_id: '5A' };
          return [engage.shown(context), engage.shown({ ...context, cid: 'c-2' }), engage.clicked(context, { b_id: 'cta' })];
        }),
      );
      await closeAll(page);
      stack.down = false;
      const since = Date.now();
      await context.setOffline(false);
      const ms = await delivered(ids, since);
      expect(sentOnce(stack, ids)).toEqual({ [WORKER]: 3 });
      const { events } = await stack.received();
      expect(events.every((event) => event.customer_id === 'tag-user')).toBe(true);
      rows.push(`[sync] script tag, offline, closed, online, no page: 3/3 once, by the worker, ${ms} ms after reconnecting`);
    });

    test('the proxy down when the sync fires: the events stay; a second sync once it is back delivers them once', async () => {
      const page = await openSite();
      const ids = await recordOffline(page);
      await closeAll(page);
      // Still down: the browser's sync reaches the reset.
      await context.setOffline(false);
      const attempts = await workerRequests("the worker's attempt");
      // Each attempt carried all three (the browser may fire it more than once meanwhile).
      for (const attempt of attempts) expect([...attempt.uuids].sort()).toEqual([...ids].sort());
      expect((await stack.received()).unique).toBe(0);
      stack.down = false;
      // The browser retries a failed sync minutes later; the DevTools protocol fires it now.
      const since = Date.now();
      await dispatchSync(false);
      const ms = await delivered(ids, since);
      expect(sitePages()).toEqual([]);
      expect(sentOnce(stack, ids)).toEqual({ [WORKER]: 3 });
      rows.push(`[sync] proxy down at the sync: 0 delivered, ${attempts.length} request(s) reset; second sync (DevTools protocol): 3/3 once, ${ms} ms`);
    });

    test("the browser's last attempt fails: nothing is dropped, the next visit delivers all", async () => {
      const page = await openSite();
      const ids = await recordOffline(page);
      await closeAll(page);
      await context.setOffline(false);
      await workerRequests("the worker's attempt");
      const before = stack.sent.length;
      await dispatchSync(true);
      await workerRequests("the worker's last attempt", before);
      expect((await stack.received()).unique).toBe(0);
      stack.down = false;
      const since = Date.now();
      const next = await openSite();
      const ms = await delivered(ids, since);
      expect(await errorNames(next)).toEqual([]);
      sentOnce(stack, ids);
      rows.push(`[sync] lastChance failed: 0 dropped; next visit 3/3 once, ${ms} ms`);
    });

    // The pending sync tags of the registration the page kept while its worker was active.
    const syncTags = (page: Page) => page.evaluate(() => (window as unknown as { registration: { sync: { getTags(): Promise<string[]> } } }).registration.sync.getTags());

    test('a page open while the worker delivers: no event sent twice, twice over', async () => {
      // A slow upstream, so that the page's run and the worker's overlap.
      await stack.admin('faults', { body: { latencyMs: 300 } });
      const notes: string[] = [];
      for (let round = 0; round < 2; round++) {
        if (round) context = await browser.newContext();
        stack.sent.length = 0;
        await stack.admin('reset', { body: {} });
        const page = await openSite({ batchSize: 20 });
        stack.down = true;
        await context.setOffline(true);
        const ids = await page.evaluate(() => (window as unknown as Win).record(60, 'shown'));
        await until(
          () => errorNames(page),
          (names) => names.includes('NetworkError'),
          15_000,
          'a NetworkError',
        );
        await until(
          () => syncTags(page),
          (tags) => tags.join() === `engage-sdk:${namespace}`,
          15_000,
          'the sync the page asked for',
        );
        stack.down = false;
        const since = Date.now();
        // The page hears `online` and delivers; the browser fires the worker's sync at the same moment.
        await context.setOffline(false);
        const ms = await delivered(ids, since);
        // The sync ran and succeeded (a failed one stays registered, for a retry).
        await until(
          () => syncTags(page),
          (tags) => tags.length === 0,
          15_000,
          'the sync to complete',
        );
        const by = sentOnce(stack, ids);
        notes.push(
          `${Object.entries(by)
            .map(([from, n]) => `${n} by ${from.endsWith('sw.js') ? 'the worker' : 'the page'}`)
            .join(', ')} (${ms} ms)`,
        );
        await page.close();
        await context.close();
      }
      context = await browser.newContext();
      rows.push(`[sync] page open while the browser fires the sync on reconnecting, 60 events, twice: 0 sent twice; ${notes.join('; ')}`);
    });

    test('a page open, its delivery failing, the worker fired as the proxy returns: no event sent twice', async () => {
      await stack.admin('faults', { body: { latencyMs: 300 } });
      const page = await openSite({ batchSize: 20 });
      stack.down = true;
      const ids = await page.evaluate(() => (window as unknown as Win).record(60, 'shown'));
      // Online all along: the page's delivery fails, and asks for a sync. (Whether the browser's
      // sync then reaches the proxy before it returns depends on who holds the flush lock at that
      // instant: not waited for, so the test does not depend on a loaded machine's timing.)
      await until(
        () => errorNames(page),
        (names) => names.includes('NetworkError'),
        15_000,
        'a NetworkError',
      );
      stack.down = false;
      const since = Date.now();
      await dispatchSync(false);
      const ms = await delivered(ids, since);
      const by = sentOnce(stack, ids);
      rows.push(
        `[sync] page open and failing, sync fired as the proxy returns, 60 events: 0 sent twice; ${Object.entries(by)
          .map(([from, n]) => `${n} by ${from.endsWith('sw.js') ? 'the worker' : 'the page'}`)
          .join(', ')} (${ms} ms)`,
      );
    });

    test("imported into the site's own service worker: one registration, the site's routes answered, 3 of 3 delivered once", async () => {
      const page = await context.newPage();
      await page.goto(`${stack.url}/test/browsers/pages/sync.html`);
      await page.waitForFunction(() => (window as unknown as Win).harnessReady === true);
      // The site registers its worker as it always did; the tracker names the same one.
      await page.evaluate((script) => navigator.serviceWorker.register(script), SITE_WORKER);
      await page.evaluate((o) => (window as unknown as Win).startTracker(o), { namespace, serviceWorker: SITE_WORKER });
      await waitForWorker(page, SITE_WORKER);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).map((r) => r.active?.scriptURL))).toEqual([`${stack.url}${SITE_WORKER}`]);
      expect(await page.evaluate(() => fetch('site-sw-answer').then((response) => response.text()))).toBe('from the site worker');
      const ids = await recordOffline(page);
      await closeAll(page);
      stack.down = false;
      const since = Date.now();
      await context.setOffline(false);
      const ms = await delivered(ids, since);
      expect(sentOnce(stack, ids)).toEqual({ [SITE_WORKER]: 3 });
      rows.push(`[sync] importScripts into the site's worker: 3/3 once, by the site's worker, ${ms} ms after reconnecting`);
    });
  });
}

function describeWithout(name: EngineName): void {
  describe(`${name}: the serviceWorker option without Background Sync`, () => {
    let stack: SyncStack;
    let engine: Awaited<ReturnType<typeof launchEngine>>;
    const pages = openedPages(() => engine);

    beforeAll(async () => {
      stack = await startSyncStack();
      engine = await launchEngine(name);
    });
    const rows: string[] = [];
    afterAll(async () => {
      await engine?.close();
      await stack?.close();
      console.log([`[sync] ${engine?.version}`, ...rows].join('\n'));
    });
    afterEach(async () => {
      stack.down = false;
      await pages.closeAll();
    });
    const newPage = pages.open;
    const clean = (page: EnginePage) =>
      page.evaluate(async () => {
        const w = window as unknown as Win;
        return {
          errors: w.spy.errors,
          console: w.spy.console,
          engageErrors: (w.engageErrors ?? []).map((error) => error.name),
          syncManager: 'SyncManager' in window,
          registrations: (await navigator.serviceWorker?.getRegistrations())?.length ?? 0,
        };
      });

    test('loads clean, registers nothing, and what it could not send is delivered at the next visit', async () => {
      await stack.admin('reset', { body: {} });
      const namespace = `no-sync-${name}`;
      const open = async () => {
        const page = await newPage();
        await page.goto(`${stack.url}/test/browsers/pages/sync.html`);
        await until(() => page.evaluate(() => (window as unknown as Win).harnessReady === true), Boolean, 15_000, 'the harness page');
        await page.evaluate(([ns, worker]) => (window as unknown as Win).startTracker({ namespace: ns, serviceWorker: worker }), [namespace, WORKER] as const);
        return page;
      };
      const page = await open();
      stack.down = true;
      const ids = [
        ...(await page.evaluate(() => (window as unknown as Win).record(2, 'shown'))),
        ...(await page.evaluate(() => (window as unknown as Win).record(1, 'clicked'))),
      ];
      await until(
        () => page.evaluate(() => (window as unknown as Win).engageErrors.map((error) => error.name)),
        (names) => names.includes('NetworkError'),
        15_000,
        'a NetworkError',
      );
      expect(await clean(page)).toEqual({ errors: [], console: [], engageErrors: ['NetworkError'], syncManager: false, registrations: 0 });
      await pages.close(page);
      // What the closing page sends meets the stack still down: Firefox's requests of a closed page
      // may leave after close() resolved (a CI run got all 3 delivered before the next visit).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      stack.down = false;
      // Nothing delivers with no page open here: the next visit does.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await stack.received()).unique).toBe(0);
      const next = await open();
      await until(
        () => stack.received(),
        (received) => received.unique >= ids.length,
        30_000,
        '3 events at the emulator',
      );
      const { unique, duplicates } = await stack.received();
      expect({ unique, duplicates }).toEqual({ unique: 3, duplicates: 0 });
      sentOnce(stack, ids);
      expect(await clean(next)).toEqual({ errors: [], console: [], engageErrors: [], syncManager: false, registrations: 0 });
      rows.push(`[sync] option on, no SyncManager: no error, nothing registered; 0/3 with no page open, 3/3 once at the next visit`);
    });

    test('the script tag with data-service-worker loads clean and registers nothing', async () => {
      const page = await newPage();
      await page.goto(`${stack.url}/test/browsers/pages/sync-script-tag.html`);
      await until(
        () => page.evaluate(() => typeof (window as unknown as { Engage?: { shown?: unknown } }).Engage?.shown),
        (type) => type === 'function',
        15_000,
        'Engage',
      );
      // Long enough for a registration to have been asked for, were it going to be.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await clean(page)).toEqual({ errors: [], console: [], engageErrors: [], syncManager: false, registrations: 0 });
    });
  });
}
