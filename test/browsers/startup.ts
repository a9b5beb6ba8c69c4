// Start-up in later tasks (issue 51), in every engine, against the real proxy and emulator: the
// script tag's evaluation only records in memory, and the queue and delivery are made a task or
// two later. A page closed before those tasks ran (test/browsers/pages/early-close.html holds
// them) must still deliver what it recorded: 10 calls queued by the pre-load snippet and 20 made
// in the task right after the tag, 30 at the emulator, sent by the closing page itself (no other
// page of the namespace opens), each once.
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
      const { unique } = await until(
        () => stack.received(),
        (r) => r.unique >= 30,
        15_000,
        '30 events at the emulator, from the closed page',
      );
      // Anything more (a duplicate, a stray event) has had time to arrive.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const { events, duplicates } = await stack.received();
      expect(unique).toBe(30);
      expect(duplicates).toBe(0);
      expect(events.map((event) => event.attributes.cid as string).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `early-${i}`).sort());
      expect(events.every((event) => event.customer_id === 'early-user')).toBe(true);
      figures.push(
        `[engines] ${name} | start-up | closed before the deferred start: ${unique}/30 delivered by the closing page, ${duplicates} dup, ${Date.now() - closedAt} ms`,
      );
    });
  });
}
