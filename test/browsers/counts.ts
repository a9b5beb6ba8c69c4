// Counts a person would agree with, in every engine (issue 40), against the real proxy and emulator:
// - Only the proxy's answer is delivery: an HTML page or an empty 200 with no type, staged in front
//   of the proxy while 3 events are sent, keeps them; all 3 arrive once, after the proxy answers
//   again, and `onError` named the answer exactly once.
// - A crawler's render is no impression: the script-tag page with one placement in view, opened
//   with each of 5 crawlers' user agents → 0 impressions forwarded, nothing left in the tracker's
//   queue, each counted on /metrics; 3 people's user agents → 1 impression each.
//   How each driver sets a user agent (the seam has no such method, so it lives here):
//   - Chromium: a Playwright context's `userAgent` (one browser);
//   - Firefox ESR: the pref general.useragent.override at launch (a browser per UA; see below why
//     not puppeteer's page.setUserAgent);
//   - WebKitGTK: MiniBrowser's `--user-agent=` setting at launch (a WebDriver session per UA).
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumLaunchOptions } from '../../demo/chromium.mjs';
import { startStack as start } from '../../demo/stack.mjs';
import { CRAWLERS, PEOPLE } from '../support/user-agents';
import { type Engine, type EngineName, type EnginePage, launchEngine, until } from './engine';
import { launchFirefox } from './engines/firefox';
import { launchWebKit } from './engines/webkit';
import { emulatorAdmin, type Received, startTestStack, type TestStack } from './stack';
import { queuedEvents } from '../support/queued-events';

type Win = Window & {
  harnessReady?: boolean;
  startTracker(options: unknown): void;
  record(count: number): string[];
  engageErrors: Array<{ message: string }>;
};

const PLACEMENT = '/test/e2e/counts/placement.html';
const EVENTS_PATH = '/v1/experiences/events';

const queued = (page: Pick<EnginePage, 'evaluate'>) => page.evaluate(queuedEvents);

/** `engage_proxy_bot_events_total` from the stack's /metrics. */
async function botEvents(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^engage_proxy_bot_events_total (\d+)$/m.exec(text)?.[1] ?? NaN);
}

/** One visit with a user agent of our choosing: a page to drive, and its end. */
interface Visit {
  page: Pick<EnginePage, 'goto' | 'evaluate'>;
  userAgent(): Promise<string>;
  end(): Promise<void>;
}
interface Visits {
  how: string;
  open(userAgent: string): Promise<Visit>;
  close(): Promise<void>;
}

/** Visits with a chosen user agent, the way each engine's driver can set one. */
async function userAgentVisits(name: EngineName): Promise<Visits> {
  switch (name) {
    case 'chromium': {
      const browser = await chromium.launch(chromiumLaunchOptions());
      return {
        how: "Playwright's context userAgent",
        async open(userAgent) {
          const context = await browser.newContext({ userAgent });
          const page = await context.newPage();
          return {
            page: { goto: async (url) => void (await page.goto(url)), evaluate: (fn, arg) => page.evaluate(fn as never, arg) },
            userAgent: () => page.evaluate(() => navigator.userAgent),
            end: () => context.close(),
          };
        },
        close: () => browser.close(),
      };
    }
    case 'firefox':
      // Not puppeteer's page.setUserAgent: over WebDriver BiDi on Firefox ESR 153 it changes
      // navigator.userAgent only, and the tracker's POSTs still say "Firefox/153.0" (seen: the proxy
      // forwarded a "crawler's" impression). The pref sets both, so a browser per user agent.
      return browserPerVisit('the pref general.useragent.override, a browser per user agent', (userAgent) => launchFirefox({ 'general.useragent.override': userAgent }));
    case 'webkit':
      return browserPerVisit("MiniBrowser's --user-agent= setting, a WebDriver session per user agent", (userAgent) => launchWebKit([`--user-agent=${userAgent}`]));
  }
}

/** Visits that each launch a browser of their own with the user agent set, and close it at the end. */
function browserPerVisit(how: string, launch: (userAgent: string) => Promise<Engine>): Visits {
  return {
    how,
    async open(userAgent) {
      const engine = await launch(userAgent);
      try {
        const page = await engine.newPage();
        return { page, userAgent: () => page.evaluate(() => navigator.userAgent), end: () => engine.close() };
      } catch (error) {
        await engine.close();
        throw error;
      }
    },
    close: async () => {},
  };
}

export function describeCounts(name: EngineName): void {
  describe(`${name}: counts`, () => {
    const figures: string[] = [];
    afterAll(() => console.log([`[engines] ${name}: counts`, ...figures].join('\n')));

    describe('answers that are not acknowledgements', () => {
      let engine: Engine;
      beforeAll(async () => {
        engine = await launchEngine(name);
      });
      afterAll(async () => {
        await engine?.close();
      });

      const STAGED = {
        'an HTML 200': {
          answer: () => new Response('<!doctype html><title>Offline</title><p>You are offline.</p>', { headers: { 'content-type': 'text/html; charset=utf-8' } }),
          named: 'text/html; charset=utf-8',
        },
        'an empty 200 with no type': { answer: () => new Response(null, { status: 200 }), named: 'no content type' },
      };

      for (const [what, { answer, named }] of Object.entries(STAGED)) {
        test(`${what} in front of the proxy while 3 events are sent: 3/3 delivered once the proxy answers again, 0 twice, onError named it once`, async () => {
          let staged = 0;
          let standing = true;
          const stack = await start({
            proxy: { rateLimits: { experienceEvents: {} } },
            intercept: (request: Request) => {
              if (!standing || request.method !== 'POST' || !new URL(request.url).pathname.endsWith(`/engage${EVENTS_PATH}`)) return undefined;
              staged++;
              return answer();
            },
          });
          const received = () => emulatorAdmin<Received>(stack.emulatorUrl, 'experience-events');
          const page = await engine.newPage();
          try {
            await page.goto(`${stack.url}/test/browsers/pages/tracker.html`);
            await until(() => page.evaluate(() => (window as unknown as Win).harnessReady === true), Boolean, 15_000, 'the harness');
            const namespace = `ack-${what.replace(/\W+/g, '-')}`;
            await page.evaluate((o) => (window as unknown as Win).startTracker(o), { namespace, flushInterval: 200 });
            const ids = await page.evaluate(() => (window as unknown as Win).record(3));
            // Two staged answers at least: the first send and one retry, both taken for what they are.
            await until(
              async () => staged,
              (n) => n >= 2,
              15_000,
              'two staged answers',
            );
            standing = false;
            await until(received, (r) => r.unique >= 3, 30_000, '3 events at the emulator');
            const { events, duplicates } = await received();
            expect(events.map((event) => event.svc_event_uuid).sort()).toEqual([...ids].sort());
            expect(duplicates).toBe(0);
            await until(
              () => queued(page),
              (n) => n === 0,
              15_000,
              'an empty queue',
            );
            const errors = await page.evaluate(() => (window as unknown as Win).engageErrors.map((error) => error.message));
            expect(errors).toEqual([`${named} from /engage${EVENTS_PATH}: not the proxy's answer`]);
            figures.push(
              `[engines] ${name} | counts | ${what} in front of the proxy: ${staged} staged answers, then ${events.length}/3 delivered, ${duplicates} dup, 0 left queued | onError ×${errors.length}: "${errors[0]}"`,
            );
          } finally {
            await page.close().catch(() => {});
            await stack.close();
          }
        });
      }
    });

    test('5 crawlers → 0 impressions forwarded, none left queued, counted on /metrics; 3 people → 1 impression each', async () => {
      const stack: TestStack = await startTestStack();
      const visits = await userAgentVisits(name);
      const plan = [
        ...Object.entries(CRAWLERS).map(([who, ua]) => ({ who, ua, crawler: true })),
        ...Object.entries(PEOPLE).map(([who, ua]) => ({ who, ua, crawler: false })),
      ];
      // Each visit's browser starts while the one before is visited (in Firefox and WebKit a launch
      // per user agent, the larger part of each visit): it stays on about:blank, sending nothing,
      // until its turn, so each count below is still that visit's alone.
      let next: Promise<Visit> | undefined = visits.open(plan[0]!.ua);
      try {
        const shown = async (who: string) =>
          (await stack.received()).events.filter((event) => event.customer_id === who && event.action === 'SVC_PERSONALIZATION_MESSAGE_SHOWN').length;
        for (const [i, { who, ua, crawler }] of plan.entries()) {
          const before = await botEvents(stack.url);
          const visit = await next!;
          next = plan[i + 1] && visits.open(plan[i + 1]!.ua);
          try {
            expect(await visit.userAgent()).toBe(ua);
            await visit.page.goto(`${stack.url}${PLACEMENT}?who=${encodeURIComponent(who)}`);
            if (crawler) {
              // Its impression (1 s in view) was sent and answered as delivered: counted, not forwarded.
              await until(
                () => botEvents(stack.url),
                (n) => n === before + 1,
                20_000,
                `${who}'s impression counted on /metrics`,
              );
            } else {
              await until(
                () => shown(who),
                (n) => n === 1,
                20_000,
                `${who}'s impression at the emulator`,
              );
            }
            await until(
              () => queued(visit.page),
              (n) => n === 0,
              15_000,
              `${who}'s queue empty`,
            );
          } finally {
            await visit.end();
          }
        }
        const { events, duplicates } = await stack.received();
        expect(events.map((event) => event.customer_id).sort()).toEqual(Object.keys(PEOPLE).sort());
        expect(duplicates).toBe(0);
        const counted = await botEvents(stack.url);
        expect(counted).toBe(Object.keys(CRAWLERS).length);
        figures.push(
          `[engines] ${name} | counts | user agent set by ${visits.how} | crawlers 0/5 impressions forwarded, ${counted} counted on /metrics, 0 left queued | people ${events.length}/3 (${Object.keys(
            PEOPLE,
          )
            .map((who) => `${who} ${events.filter((event) => event.customer_id === who).length}`)
            .join(', ')}), ${duplicates} dup`,
        );
      } finally {
        // A visit opened ahead of a failed one.
        await next?.then((visit) => visit.end()).catch(() => {});
        await visits.close();
        await stack.close();
      }
      // Eight visits, and in Firefox and WebKit eight browsers (one per user agent, ~4-10 s to
      // start each on 2 shared cores): a budget for the whole, not a timed assertion.
    }, 300_000);
  });
}
