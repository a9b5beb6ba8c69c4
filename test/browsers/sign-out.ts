// Sign-out (issue 47) in every engine, against the real proxy and emulator: two tabs of one shop,
// both signed in as one customer; one calls Engage.reset(). What the emulator receives says who
// each event was counted for: what either tab recorded before the sign-out (and could not deliver
// yet: the proxy is down) is the first customer's; what either tab records after it waits for the
// next identify(), in the other tab too (BroadcastChannel); each event arrives once.
import { afterAll, describe, expect, test } from 'vitest';
import { type Engine, type EngineName, type EnginePage, openedPages, until } from './engine';
import { withEngineAndStack, type TestStack } from './stack';

type Win = Window & { engageReady?: boolean; wipe(): Promise<boolean> };

/** Time a wrong request would take to show: a flush interval (500 ms) and then some. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 2_000));

export function describeSignOut(name: EngineName): void {
  describe(`${name}: sign-out`, () => {
    let engine: Engine;
    let stack: TestStack;
    const tabs = openedPages(() => engine);

    withEngineAndStack(name, (started, at) => ((engine = started), (stack = at)));
    afterAll(() => tabs.closeAll());

    const open = async (query: string) => {
      const page = await tabs.open();
      await page.goto(`${stack.url}/test/browsers/pages/sign-out.html?${query}`);
      if (!query.includes('clean')) await until(() => page.evaluate(() => (window as unknown as Win).engageReady === true), Boolean, 15_000, 'the script tag');
      return page;
    };
    const record = (page: EnginePage, cid: string) =>
      page.evaluate(
        (id) => window.Engage.shown({ cid: id, experience: 'Hero', svc_locale_id: '0', svc_variation_id: '2', audience_name: 'All', audience_id: '5A' })!,
        cid,
      );
    /** Customer of each event the emulator accepted, by the placement's cid, once the count is reached and stays. */
    const received = async (count: number) => {
      await until(
        () => stack.received(),
        (r) => r.unique >= count,
        30_000,
        `${count} events at the emulator`,
      );
      await quiet();
      const final = await stack.received();
      expect(final.duplicates).toBe(0);
      return Object.fromEntries(final.events.map((event) => [event.attributes.cid as string, event.customer_id]));
    };

    test('Engage.reset() in one tab: events recorded before keep their customer in both tabs, events after wait for the next identify() in both, each delivered once', async () => {
      const clean = await open('clean');
      await clean.evaluate(() => (window as unknown as Win).wipe());
      await tabs.close(clean);
      await stack.admin('reset', { body: {} });
      const one = await open('customer=ada');
      const two = await open('customer=ada');
      // The proxy is down: nothing recorded before the sign-out can leave before it.
      stack.down = true;
      await record(one, 'one-before');
      await record(two, 'two-before');
      await one.evaluate(() => window.Engage.reset());
      // The other tab hears it (a message, not a call): give it the time a message takes.
      await quiet();
      await record(one, 'one-after');
      await record(two, 'two-after');
      stack.down = false;
      expect(await received(2)).toEqual({ 'one-before': 'ada', 'two-before': 'ada' });
      // Nobody is signed in: the events after the sign-out wait, in both tabs.
      expect((await stack.received()).unique).toBe(2);
      await one.evaluate(() => window.Engage.identify('bob'));
      expect(await received(4)).toEqual({ 'one-before': 'ada', 'two-before': 'ada', 'one-after': 'bob', 'two-after': 'bob' });
      await tabs.closeAll();
    });

    test('Engage.reset() called before the script tag loaded is queued by the pre-load snippet and replayed', async () => {
      await stack.admin('reset', { body: {} });
      const page = await open('customer=carol&early');
      await record(page, 'early');
      await quiet();
      expect((await stack.received()).unique).toBe(0);
      await page.evaluate(() => window.Engage.identify('dan'));
      expect(await received(1)).toEqual({ early: 'dan' });
      await tabs.closeAll();
    });
  });
}
