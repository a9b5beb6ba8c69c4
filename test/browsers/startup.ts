// Start-up in later tasks (issue 51), in every engine, against the real proxy and emulator: the
// script tag's evaluation only records in memory, and the queue and delivery are made a task or
// two later. A page closed before those tasks ran (test/browsers/pages/early-close.html holds
// them) must still deliver what it recorded: 10 calls queued by the pre-load snippet and 20 made
// in the task right after the tag, 30 at the emulator, sent by the closing page itself (no other
// page of the namespace opens), each once.
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { type Engine, type EngineName, openedPages, until } from './engine';
import { withEngineAndStack, type TestStack } from './stack';

type Win = Window & { recorded?: boolean; held: unknown[]; holding: boolean };

export function describeStartup(name: EngineName): void {
  describe(`${name}: start-up`, () => {
    let engine: Engine;
    let stack: TestStack;
    const tabs = openedPages(() => engine);
    const figures: string[] = [];

    withEngineAndStack(
      name,
      (started, at) => ((engine = started), (stack = at)),
      () => figures,
    );
    afterAll(() => tabs.closeAll());

    /**
     * Waits for the 30 events a page recorded (cids `${page}-0` to `${page}-29`, customer
     * `${page}-user`) at the emulator, and a second more for a duplicate or a stray one: each once.
     */
    const thirtyOnce = async (page: 'early' | 'code', what: string) => {
      const { unique } = await until(
        () => stack.received(),
        (r) => r.unique >= 30,
        15_000,
        `30 events at the emulator, ${what}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const { events, duplicates } = await stack.received();
      expect(unique).toBe(30);
      expect(duplicates).toBe(0);
      expect(events.map((event) => event.attributes.cid as string).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `${page}-${i}`).sort());
      expect(events.every((event) => event.customer_id === `${page}-user`)).toBe(true);
      return { unique, duplicates };
    };

    test('a page closed before the deferred start: the 30 events recorded in its first tasks are delivered by the close itself, each once', async () => {
      await stack.admin('reset', { body: {} });
      const page = await tabs.open();
      await page.goto(`${stack.url}/test/browsers/pages/early-close.html`);
      const state = await until(
        () => page.evaluate(() => ({ recorded: (window as unknown as Win).recorded, held: (window as unknown as Win).held.length })),
        (s) => s.recorded === true,
        15_000,
        'the page recorded',
      );
      // The start is still waiting (the tag's inspection check, the start, the page scan, at least).
      expect(state.held).toBeGreaterThan(0);
      expect(stack.arrivals).toEqual([]);
      // The driver's close is a setTimeout in Firefox and WebKit: it may pass; the start stays held.
      await page.evaluate(() => void ((window as unknown as Win).holding = false));
      const closedAt = Date.now();
      await tabs.close(page);
      const { unique, duplicates } = await thirtyOnce('early', 'from the closed page');
      figures.push(
        `[engines] ${name} | start-up | closed before the deferred start: ${unique}/30 delivered by the closing page, ${duplicates} dup, ${Date.now() - closedAt} ms`,
      );
    });

    // The tracker loads its queue and delivery after its start (issue 51 §3): engage.iife.js as
    // engage.delivery.js, a module build as a chunk of its own. Held back (a slow network), the
    // events wait in memory and the page's hides send them; missing, the same, and an error says so.
    for (const build of ['script tag', 'module'] as const) {
      const module = build === 'module';
      const CODE = module
        ? `/dist/chunks/${readdirSync(new URL('../../dist/chunks/', import.meta.url)).find((file) => file.startsWith('durable-'))}`
        : '/dist/engage.delivery.js';
      const file = module ? 'the delivery chunk' : 'engage.delivery.js';
      let arrived = 0;
      const openRecorded = async () => {
        await stack.admin('reset', { body: {} });
        arrived = stack.arrivals.length;
        const page = await tabs.open();
        // A module's import() has no nonce to pass on: its page allows 'self' too.
        await page.goto(`${stack.url}/test/browsers/pages/delivery-code.html${module ? '?build=module' : name === 'webkit' ? '' : '?csp=nonces'}`);
        await until(
          () => page.evaluate(() => (window as unknown as { recorded?: boolean }).recorded),
          (recorded) => recorded === true,
          15_000,
          'the page recorded',
        );
        return page;
      };

      // Not in WebKit: its driver runs no command while the page has a load pending (every call
      // hangs, the close too); the 404 below is the same path without the wait.
      if (name !== 'webkit')
        test(`${build}: a page closed while ${file} is still loading: its 30 events leave by the close itself, each once`, async () => {
          let release = () => {};
          stack.gates.set(CODE, new Promise<void>((resolve) => (release = resolve)));
          try {
            const page = await openRecorded();
            await new Promise((resolve) => setTimeout(resolve, 300));
            expect(stack.arrivals.length).toBe(arrived);
            await tabs.close(page);
            await thirtyOnce('code', 'from the closed page');
          } finally {
            stack.gates.delete(CODE);
            release();
          }
        });

      test(`${build}: ${file} missing (404): an error names it, and the close still sends the 30 events, each once`, async () => {
        stack.gates.set(CODE, 404);
        try {
          const page = await openRecorded();
          const errors = await until(
            () => page.evaluate(() => (window as unknown as { errors: string[] }).errors),
            (messages) => messages.length > 0,
            15_000,
            'an error',
          );
          expect(errors).toEqual([expect.stringContaining(module ? "engage-sdk's delivery chunk did not load" : 'engage.delivery.js did not load')]);
          await tabs.close(page);
          await thirtyOnce('code', 'from the closed page');
        } finally {
          stack.gates.delete(CODE);
        }
      });

      test(`${build}: ${file} 2 s late, under a strict CSP (${module ? "'self' and a nonce" : 'of nonces alone, but in WebKit'}): nothing leaves before it runs, then the open page delivers its 30 events, each once`, async () => {
        let releasedAt = Infinity;
        stack.gates.set(
          CODE,
          new Promise((resolve) => setTimeout(resolve, 2_000)).then(() => (releasedAt = Date.now())),
        );
        try {
          const page = await openRecorded();
          await thirtyOnce('code', 'from the open page');
          expect(stack.arrivals.slice(arrived).every((at) => at >= releasedAt)).toBe(true);
          expect(await page.evaluate(() => (window as unknown as { errors: string[] }).errors)).toEqual([]);
        } finally {
          stack.gates.delete(CODE);
        }
      });
    }
  });
}
