// Single-page apps as their users build and start them (build-apps.ts), driven as a shopper does —
// links, scrolling, a hash link, a query change, a click, the back and forward buttons, another
// document and back — in each engine. After every step the impressions (SHOWN) and clicks
// delivered to the emulator must equal what the page views call for: a placement counts once per
// page view, again in every new one, never for a re-render, a hash link or a replaceState.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEmulator } from '../../src/emulator/index';
import { serve, type RunningServer } from '../../src/proxy/node/serve';
import { runNext, type NextProcess } from '../support/next-app';
import { freePort } from '../support/free-port';
import { type Engine, type EngineName, type EnginePage, launchEngine, until } from './engine';
import { spied } from './spy';
import { emulatorAdmin, type Received } from './stack';
import { startStack } from '../../demo/stack.mjs';
import { placements } from './apps/shared/placements.js';
import { builtApps } from './apps/ready';

type Count = 'layout' | 'hero' | 'below' | 'product' | 'hero clicked';
const COUNTS: Count[] = ['layout', 'hero', 'below', 'product', 'hero clicked'];

interface Step {
  name: string;
  act(page: EnginePage, url: string): Promise<unknown>;
  /** Path and query once the step is done. */
  at: string;
  /** What the step adds to the delivered counts. */
  adds: Partial<Record<Count, number>>;
}

const click = (selector: string) => (page: EnginePage) => page.click(selector);

// Home shows the layout banner and the hero; "Recommended for you" is below the fold.
const STEPS: Step[] = [
  { name: 'open /', act: (page, url) => page.goto(`${url}/`), at: '/', adds: { layout: 1, hero: 1 } },
  { name: 'scroll to the placement below the fold', act: (page) => page.evaluate(() => document.getElementById('below')!.scrollIntoView()), at: '/', adds: { below: 1 } },
  {
    name: 'scroll back up, link to /product/1',
    act: async (page) => (await page.evaluate(() => scrollTo(0, 0)), page.click('#to-product-1')),
    at: '/product/1',
    adds: { layout: 1, product: 1 },
  },
  { name: 'link to /product/2', act: click('#to-product-2'), at: '/product/2', adds: { layout: 1, product: 1 } },
  { name: 'hash link #reviews (same view)', act: click('#to-reviews'), at: '/product/2', adds: {} },
  {
    name: 'replaceState that keeps the URL (same view)',
    act: (page) => page.evaluate(() => history.replaceState(history.state, '', location.href)),
    at: '/product/2',
    adds: {},
  },
  { name: 'query change ?tab=details', act: click('#to-details'), at: '/product/2?tab=details', adds: { layout: 1, product: 1 } },
  { name: 'link back to /', act: click('#to-home'), at: '/', adds: { layout: 1, hero: 1 } },
  { name: 'click in the hero', act: click('#hero-cta'), at: '/', adds: { 'hero clicked': 1 } },
  { name: 'link to /cart', act: click('#to-cart'), at: '/cart', adds: { layout: 1 } },
  { name: 'back button', act: (page) => page.back(), at: '/', adds: { layout: 1, hero: 1 } },
  { name: 'forward button', act: (page) => page.forward(), at: '/cart', adds: { layout: 1 } },
  {
    name: 'another document, then back (bfcache or reload)',
    act: async (page) => {
      await page.click('#to-about');
      await until(
        () => page.evaluate(() => location.pathname),
        (path) => path === '/about.html',
        15_000,
        'about.html',
      );
      await page.back();
    },
    at: '/cart',
    adds: { layout: 1 },
  },
];

const byExperience = new Map<string, Count>(Object.entries(placements).map(([name, context]) => [context.experience, name as Count]));

function tally(received: Received): Record<Count, number> {
  const counts = Object.fromEntries(COUNTS.map((name) => [name, 0])) as Record<Count, number>;
  for (const event of received.events) {
    const name = byExperience.get(event.attributes.experience as string);
    if (!name) throw new Error(`an event for an unknown placement: ${JSON.stringify(event.attributes)}`);
    counts[event.action.endsWith('_CLICKED') ? (`${name} clicked` as Count) : name]++;
  }
  return counts;
}

interface AppServer {
  url: string;
  emulatorUrl: string;
  close(): Promise<void>;
}

/** A single-page app served as its users deploy one: static files, index.html for every app route, the proxy at /engage. */
async function serveApp(dist: string): Promise<AppServer> {
  const index = await readFile(join(dist, 'index.html'));
  const stack = await startStack({
    root: dist,
    proxy: { rateLimits: { experienceEvents: {} } },
    routes: async (request: Request) =>
      /\.\w+$/.test(new URL(request.url).pathname) ? undefined : new Response(index, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
  });
  return { url: stack.url, emulatorUrl: stack.emulatorUrl, close: () => stack.close() };
}

/** `next start`, with the proxy from the route handler of docs/proxy-node.md, configured from the environment. */
async function startNextApp(dir: string): Promise<AppServer & { server: NextProcess }> {
  const emulator = createEmulator({});
  const upstream: RunningServer = await serve(emulator.handler);
  // A port of its own: the engines' suites, each with its `next start`, run side by side.
  const port = await freePort();
  const server = runNext(dir, ['start', '-p', String(port), '-H', '127.0.0.1'], {
    ENGAGE_WORKSPACE_ID: emulator.workspaceId,
    ENGAGE_PERSONALIZE_KEY: emulator.keys.personalize,
    ENGAGE_SDK_URL: upstream.url,
  });
  await until(
    async () => server.output(),
    (out) => /Ready|started server/i.test(out),
    30_000,
    'next start',
  );
  return {
    url: `http://127.0.0.1:${port}`,
    emulatorUrl: upstream.url,
    server,
    async close() {
      server.child.kill('SIGTERM');
      await upstream.close();
      emulator.close();
    },
  };
}

const APPS = {
  'React Router 7 (engage-sdk/react, StrictMode)': (dir: string) => serveApp(join(dir, 'react-router/dist')),
  'Next.js App Router (engage-sdk/react)': (dir: string) => startNextApp(join(dir, 'next')),
  'Vue Router 4 (autoObserve, no binding)': (dir: string) => serveApp(join(dir, 'vue-router/dist')),
  'script tag + the site’s own pushState router': (dir: string) => serveApp(join(dir, 'script-tag')),
} as const;

export function describeApps(name: EngineName): void {
  describe(`${name}: single-page apps`, () => {
    let engine: Engine;
    const rows: string[] = [];
    beforeAll(async () => {
      engine = await launchEngine(name);
    });
    afterAll(async () => {
      await engine?.close();
      console.log([`[apps] ${engine?.version}: expected/delivered per placement`, ...rows].join('\n'));
    });

    for (const [app, start] of Object.entries(APPS)) {
      test(`${app}: impressions once per page view, clicks every time`, async () => {
        const server = await start(await builtApps());
        const page = await engine.newPage();
        try {
          if (app.startsWith('Next')) {
            // Server-rendered: the placements are in the HTML before any script runs.
            const html = await (await fetch(`${server.url}/`)).text();
            expect(html).toContain('Free delivery this week');
            expect(html).toContain('Winter sale');
          }
          const expected = Object.fromEntries(COUNTS.map((count) => [count, 0])) as Record<Count, number>;
          const delivered = () => emulatorAdmin<Received>(server.emulatorUrl, 'experience-events');
          for (const step of STEPS) {
            await step.act(page, server.url);
            await until(
              () => page.evaluate(() => location.pathname + location.search),
              (at) => at === step.at,
              15_000,
              `${step.name}: the URL ${step.at}`,
            );
            for (const [count, n] of Object.entries(step.adds)) expected[count as Count] += n;
            // A step that adds nothing is given the time a wrong impression would take (1 s in view, then a flush).
            if (!Object.keys(step.adds).length) await new Promise((resolve) => setTimeout(resolve, 2_000));
            await until(
              async () => tally(await delivered()),
              (counts) => COUNTS.every((c) => counts[c] === expected[c]),
              15_000,
              `${step.name}: ${JSON.stringify(expected)}`,
            ).catch(async (error: Error) => {
              // What the page knows: a restore from the back/forward cache, a warning, whether it is shown.
              const state = { ...(await spied(page)), visibility: await page.evaluate(() => document.visibilityState) };
              throw new Error(`${error.message}; the page: ${JSON.stringify(state)}`);
            });
          }
          // Nothing more arrives later.
          await new Promise((resolve) => setTimeout(resolve, 2_500));
          const received = await delivered();
          expect(tally(received)).toEqual(expected);
          expect(received.duplicates).toBe(0);
          const seen = await spied(page);
          // No hydration mismatch, no engage-sdk warning, no page error (frameworks' info lines aside).
          expect([...seen.console.filter((line) => /^(warn|error):/.test(line)), ...seen.errors]).toEqual([]);
          rows.push(
            `[apps] ${name} | ${app} | ${COUNTS.map((c) => `${c} ${expected[c]}/${tally(received)[c]}`).join(' | ')} | ${received.duplicates} dup | back from another document: ${seen.restoredFromCache ? 'bfcache restore' : `new document (${seen.notRestoredReasons})`} | console clean`,
          );
        } finally {
          await page.close().catch(() => {});
          await server.close();
        }
      }, 180_000);
    }
  });
}
