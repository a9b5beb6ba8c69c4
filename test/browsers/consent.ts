// Consent in every engine, against the real proxy and emulator: on a script-tag page and on a
// React page, what a pending tracker records stays in memory (no IndexedDB database, no storage
// key, no cookie, not one request — the stack counts every request that reaches /engage), a grant
// delivers exactly it, once; a denial sends nothing ever and is remembered; a tab closed while
// pending leaves nothing and sends nothing; Global Privacy Control denies by default. The recipes
// of docs/consent.md run against stand-ins for the consent managers' page APIs
// (pages/fake-cmps.js reads each recipe from the guide).
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { startStack } from '../../demo/stack.mjs';
import { type Engine, type EngineName, type EnginePage, until } from './engine';
import { emulatorAdmin, type Received, withEngineAndStack, type TestStack } from './stack';
import { builtApps } from './apps/ready';

type Call = { method: string; experience: string | undefined; uuid: string | null };
/** What the consent page (pages/consent-page.js, fake-cmps.js) and the React app set on window. */
type Win = Window & {
  engageReady?: boolean;
  wipe(): Promise<boolean>;
  fakeCmp: { answer?(yes: boolean): void; ready?: boolean };
  appReady?: boolean;
  setConsent(state: string): void;
};
interface Traces {
  databases: Array<string | undefined>;
  localStorage: string[];
  sessionStorage: string[];
  cookies: string;
}
const NOTHING: Traces = { databases: [], localStorage: [], sessionStorage: [], cookies: '' };

/** Every trace engage-sdk could leave on the page's origin. */
const traces = (page: EnginePage) =>
  page.evaluate(async (): Promise<Traces> => ({
    databases: (await indexedDB.databases()).map((db) => db.name),
    localStorage: Object.keys(localStorage),
    sessionStorage: Object.keys(sessionStorage),
    cookies: document.cookie,
  }));
const calls = (page: EnginePage) => page.evaluate(() => (window as unknown as { calls: Call[] }).calls);
/** The page's placements counted (3 impressions), then a real click in the first: 4 events recorded. */
async function seeAndClick(page: EnginePage): Promise<string[]> {
  await until(
    () => calls(page),
    (all) => all.filter((call) => call.method === 'shown').length === 3,
    15_000,
    'three impressions',
  );
  await page.click('#cta');
  const all = await until(
    () => calls(page),
    (seen) => seen.some((call) => call.method === 'clicked'),
    15_000,
    'the click',
  );
  expect(all).toHaveLength(4);
  return all.map((call) => call.uuid!);
}
/** Time a wrong request or write would take to show: a flush interval (500 ms) and then some. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 2_000));

const RECIPES = { tcf: 'IAB TCF v2.2', gcm: 'Google Consent Mode v2', onetrust: 'OneTrust', cookiebot: 'Cookiebot' } as const;

export function describeConsent(name: EngineName): void {
  describe(`${name}: consent`, () => {
    let engine: Engine;
    let stack: TestStack;
    let page: EnginePage | undefined;
    const rows: string[] = [];

    withEngineAndStack(
      name,
      (started, at) => ((engine = started), (stack = at)),
      () => [`[consent] ${engine?.version}`, ...rows],
    );
    beforeEach(async () => {
      await page?.close().catch(() => {});
      // A clean origin: the profile lives as long as the engine.
      page = await engine.newPage();
      await page.goto(`${stack.url}/test/browsers/pages/consent.html?clean`);
      await page.evaluate(() => (window as unknown as Win).wipe());
      expect(await traces(page)).toEqual(NOTHING);
      stack.arrivals.length = 0;
      await stack.admin('reset', { body: {} });
    });

    const open = async (query: string) => {
      await page!.goto(`${stack.url}/test/browsers/pages/consent.html?${query}`);
      await until(() => page!.evaluate(() => (window as unknown as Win).engageReady === true), Boolean, 15_000, 'the script tag');
    };
    const delivered = async (ids: string[]) => {
      const received = await until(
        () => stack.received(),
        (r) => r.unique >= ids.length,
        30_000,
        `${ids.length} events at the emulator`,
      );
      await quiet();
      const final = await stack.received();
      expect(new Set(final.events.map((event) => event.svc_event_uuid))).toEqual(new Set(ids));
      expect(final.duplicates).toBe(0);
      return received;
    };

    test('script tag, pending: 3 impressions and a click held in memory, nothing stored, 0 requests; granted: exactly those 4 delivered once, then later ones', async () => {
      await open('consent=pending&ns=held');
      const held = await seeAndClick(page!);
      await quiet();
      expect(await traces(page!)).toEqual(NOTHING);
      expect(stack.arrivals).toEqual([]);
      await page!.evaluate(() => window.Engage.consent('granted'));
      await delivered(held);
      const later = await page!.evaluate(() =>
        window.Engage.clicked({ cid: 'c-1', experience: 'Hero', svc_locale_id: '0', svc_variation_id: '2', audience_name: 'All', audience_id: '5A' }),
      );
      await delivered([...held, later!]);
      rows.push(`[consent] ${name} | script tag | pending: 4 recorded, 0 requests, nothing stored | granted: 4/4 delivered once, +1 later`);
    });

    test('script tag, pending → denied: 0 requests ever, only the denial remembered; a reload keeps it', async () => {
      await open('consent=pending&ns=denied');
      await seeAndClick(page!);
      await page!.evaluate(() => window.Engage.consent('denied'));
      await quiet();
      expect(await traces(page!)).toEqual({ ...NOTHING, localStorage: ['engage-sdk:v1:denied:opt-out'] });
      await page!.reload();
      await until(() => page!.evaluate(() => (window as unknown as Win).engageReady === true), Boolean, 15_000, 'the script tag');
      // The placements are seen again, and nothing is recorded.
      const after = await until(
        () => calls(page!),
        (all) => all.filter((call) => call.method === 'shown').length === 3,
        15_000,
        'three impressions asked for',
      );
      expect(after.every((call) => call.uuid === null)).toBe(true);
      await quiet();
      expect(stack.arrivals).toEqual([]);
      expect(await traces(page!)).toEqual({ ...NOTHING, localStorage: ['engage-sdk:v1:denied:opt-out'] });
      rows.push(`[consent] ${name} | script tag | pending → denied: 0 requests, only the denial stored; after a reload: 0 recorded, 0 requests`);
    });

    test('script tag, pending and the tab closed: 0 requests, nothing stored', async () => {
      const closing = await engine.newPage();
      await closing.goto(`${stack.url}/test/browsers/pages/consent.html?consent=pending&ns=closed`);
      await until(() => closing.evaluate(() => (window as unknown as Win).engageReady === true), Boolean, 15_000, 'the script tag');
      await seeAndClick(closing);
      await closing.close();
      await quiet();
      expect(stack.arrivals).toEqual([]);
      expect(await traces(page!)).toEqual(NOTHING);
      rows.push(`[consent] ${name} | script tag | pending, tab closed: 0 requests, nothing stored`);
    });

    test('Global Privacy Control on: nothing recorded or sent by default; data-honor-global-privacy-control="false" lets it pass', async () => {
      await open('gpc=1&ns=gpc');
      expect(await page!.evaluate(() => (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl)).toBe(true);
      const asked = await until(
        () => calls(page!),
        (all) => all.filter((call) => call.method === 'shown').length === 3,
        15_000,
        'three impressions asked for',
      );
      expect(asked.every((call) => call.uuid === null)).toBe(true);
      // A consent manager's "yes" does not lift the signal.
      await page!.evaluate(() => window.Engage.consent('granted'));
      await quiet();
      expect(stack.arrivals).toEqual([]);
      expect(await traces(page!)).toEqual(NOTHING);

      await open('gpc=1&honor=false&ns=gpc-off');
      const ids = await seeAndClick(page!);
      await delivered(ids);
      rows.push(`[consent] ${name} | GPC on: 0 recorded, 0 requests, nothing stored | honor=false: 4/4 delivered`);
    });

    if (name === 'firefox') {
      test('Firefox launched with its own Global Privacy Control setting on: navigator.globalPrivacyControl is true, nothing recorded or sent', async () => {
        const { launchFirefox } = await import('./engines/firefox');
        const gpcFirefox = await launchFirefox({ 'privacy.globalprivacycontrol.enabled': true });
        try {
          const tab = await gpcFirefox.newPage();
          await tab.goto(`${stack.url}/test/browsers/pages/consent.html?ns=native-gpc`);
          await until(() => tab.evaluate(() => (window as unknown as Win).engageReady === true), Boolean, 15_000, 'the script tag');
          expect(await tab.evaluate(() => (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl)).toBe(true);
          const asked = await until(
            () => calls(tab),
            (all) => all.filter((call) => call.method === 'shown').length === 3,
            15_000,
            'three impressions asked for',
          );
          expect(asked.every((call) => call.uuid === null)).toBe(true);
          await quiet();
          expect(stack.arrivals).toEqual([]);
          expect(await traces(tab)).toEqual(NOTHING);
          rows.push(`[consent] ${name} | Firefox's own GPC setting on (no page script): 0 recorded, 0 requests, nothing stored`);
        } finally {
          await gpcFirefox.close();
        }
      });
    }

    test('inspection mode while pending says "waiting for consent"', async () => {
      await open('consent=pending&ns=inspect&engage-inspect');
      const fact = await until(
        () => page!.evaluate(() => document.querySelector('engage-inspect')?.shadowRoot?.querySelector('dd[data-fact="consent"]')?.textContent ?? ''),
        (text) => text !== '',
        15_000,
        'the inspector',
      );
      expect(fact).toContain('waiting for consent');
      expect(stack.arrivals).toEqual([]);
    });

    for (const [recipe, cmp] of Object.entries(RECIPES)) {
      test(`recipe for ${cmp} (docs/consent.md): held until the banner is answered; "yes" delivers the 4 once, "no" sends nothing`, async () => {
        await open(`consent=pending&ns=${recipe}-yes&recipe=${recipe}`);
        await until(() => page!.evaluate(() => (window as unknown as Win).fakeCmp.ready === true), Boolean, 15_000, 'the recipe');
        const held = await seeAndClick(page!);
        expect(stack.arrivals).toEqual([]);
        await page!.evaluate(() => (window as unknown as Win).fakeCmp.answer!(true));
        await delivered(held);

        // From a page without a tracker, so that nothing holds the database open.
        await page!.goto(`${stack.url}/test/browsers/pages/consent.html?clean`);
        await page!.evaluate(() => (window as unknown as Win).wipe());
        await stack.admin('reset', { body: {} });
        stack.arrivals.length = 0;
        await open(`consent=pending&ns=${recipe}-no&recipe=${recipe}`);
        await until(() => page!.evaluate(() => (window as unknown as Win).fakeCmp.ready === true), Boolean, 15_000, 'the recipe');
        await seeAndClick(page!);
        await page!.evaluate(() => (window as unknown as Win).fakeCmp.answer!(false));
        await quiet();
        expect(stack.arrivals).toEqual([]);
        expect(await traces(page!)).toEqual({ ...NOTHING, localStorage: [`engage-sdk:v1:${recipe}-no:opt-out`] });
        rows.push(`[consent] ${name} | recipe ${cmp} | yes: 4/4 delivered once | no: 0 requests`);
      });
    }

    test('React (EngageProvider consent prop), pending: 3 impressions and a click, nothing stored, 0 requests; granted: exactly those 4 once; denied elsewhere: 0 requests', async () => {
      let arrivals = 0;
      const app = await startStack({
        root: join(await builtApps(), 'react-consent/dist'),
        proxy: { rateLimits: { experienceEvents: {} } },
        intercept: (request: Request) => void (new URL(request.url).pathname.startsWith('/engage/') && arrivals++),
      });
      const received = () => emulatorAdmin<Received>(app.emulatorUrl, 'experience-events');
      try {
        const openApp = async (ns: string) => {
          await page!.goto(`${app.url}/?ns=${ns}`);
          await until(() => page!.evaluate(() => (window as unknown as Win).appReady === true), Boolean, 15_000, 'the app');
        };
        await openApp('react-held');
        const held = await seeAndClick(page!);
        await quiet();
        expect(await traces(page!)).toEqual(NOTHING);
        expect(arrivals).toBe(0);
        await page!.evaluate(() => (window as unknown as Win).setConsent('granted'));
        await until(received, (r) => r.unique >= 4, 30_000, '4 events at the emulator');
        await quiet();
        const once = await received();
        expect(new Set(once.events.map((event) => event.svc_event_uuid))).toEqual(new Set(held));
        expect(once.duplicates).toBe(0);

        await emulatorAdmin(app.emulatorUrl, 'reset', { body: {} });
        arrivals = 0;
        await openApp('react-denied');
        await seeAndClick(page!);
        await page!.evaluate(() => (window as unknown as Win).setConsent('denied'));
        await quiet();
        expect(arrivals).toBe(0);
        expect((await traces(page!)).localStorage).toEqual(['engage-sdk:v1:react-denied:opt-out']);
        rows.push(`[consent] ${name} | React | pending: 4 recorded, 0 requests, nothing stored | granted: 4/4 once | denied: 0 requests`);
      } finally {
        await app.close();
      }
    });
  });
}
