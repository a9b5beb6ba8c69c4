// Impressions a person could have seen (issue 46), in every engine, through the real proxy and
// emulator, with the script tag on its defaults (test/browsers/pages):
// - a prerendered page (the documented signals: document.prerendering, then prerenderingchange)
//   sends nothing and counts nothing until it is shown, then counts its hero a second later;
// - every row of the issue's table on one page (seen.html): transparent, in a transparent
//   wrapper, visibility: hidden, 0×0, under content-visibility: hidden or display: none, two
//   thirds covered → 0 impressions while a plain placement and one a third covered count; then
//   made visible for a second → 1 each, never sooner than a second after; one covered again
//   halfway through its second → counted only a full second after it was uncovered;
// - a cookie wall over the page, accepted after 3 s: the hero counts once, a second after;
// - a fade carousel from npm (Swiper, effect 'fade', autoplay), four slides as placements, watched
//   6 s: one impression for each slide shown a second or more, none for the one shown ~0.3 s.
import { afterEach, describe, expect, test } from 'vitest';
import { type Engine, type EngineName, type EnginePage, openedPages, until } from './engine';
import { withEngineAndStack, type TestStack } from './stack';

/** An automatic shown/clicked call; the pages' placements are named by their experience (= cid). */
interface Call {
  method: string;
  experience: string;
  at: number;
}
type Win = Window & {
  engageReady?: boolean;
  calls: Call[];
  marks: Record<string, number>;
  reveal(): void;
  activate(): void;
  swiper: { autoplay: { stop(): void } };
  spells: number[][];
  /** When each slide's spells began (performance.now(), ms). */
  starts: number[][];
  ongoing: number[];
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SHOWN = 'SVC_PERSONALIZATION_MESSAGE_SHOWN';

export function describeSeen(name: EngineName): void {
  describe(`${name}: impressions a person could see`, () => {
    let engine: Engine;
    let stack: TestStack;
    const pages = openedPages(() => engine);
    const figures: string[] = [];

    withEngineAndStack(
      name,
      (started, at) => ((engine = started), (stack = at)),
      () => [`[engines] ${name}: impressions a person could see`, ...figures],
    );
    afterEach(() => pages.closeAll());

    /** Opens `page` on a fresh emulator; resolves once the tag's calls are watched. */
    const open = async (path: string): Promise<EnginePage> => {
      await stack.admin('reset', { body: {} });
      stack.arrivals.length = 0;
      const page = await pages.open();
      await page.goto(`${stack.url}/test/browsers/pages/${path}`);
      await until(() => page.evaluate(() => (window as unknown as Win).engageReady === true), Boolean, 15_000, 'the script tag');
      return page;
    };
    const state = (page: EnginePage) => page.evaluate(() => ({ calls: (window as unknown as Win).calls, marks: (window as unknown as Win).marks }));
    const shownCids = (calls: Call[]) => calls.filter((call) => call.method === 'shown').map((call) => call.experience);
    /** The impressions the emulator holds, by cid; fails on a duplicate. */
    const forwarded = async () => {
      const { events, duplicates } = await stack.received();
      expect(duplicates).toBe(0);
      return events.filter((event) => event.action === SHOWN).map((event) => event.attributes.cid as string);
    };

    test('a prerendered page sends and counts nothing until it is shown; then its hero counts a second later', async () => {
      const page = await open('prerender.html');
      // Long enough for the hero's second and a flush (300 ms) twice over, had the rule not held.
      await sleep(2_500);
      expect(shownCids((await state(page)).calls)).toEqual([]);
      // Not a request: not the tracker's start-up delivery, not an impression.
      expect(stack.arrivals).toEqual([]);
      await page.evaluate(() => (window as unknown as Win).activate());
      const { calls, marks } = await until(
        () => state(page),
        (s) => shownCids(s.calls).length > 0,
        15_000,
        'the hero counted after activation',
      );
      const after = calls[0]!.at - marks.activated!;
      expect(after).toBeGreaterThanOrEqual(999);
      await until(forwarded, (cids) => cids.length >= 1, 15_000, 'the impression at the emulator');
      expect(await forwarded()).toEqual(['hero']);
      figures.push(`[engines] ${name} | seen | prerendered 2.5 s: 0 requests, 0 impressions; shown: 1 impression, ${Math.round(after)} ms after activation`);
    });

    test("every row of issue 46's table: 0 impressions; made visible or uncovered for a second: 1 each", async () => {
      // With the inspection mode on: its labels must name why each one in view does not count.
      const page = await open('seen.html?engage-inspect');
      const controls = ['plain', 'third'];
      // The controls count about a second after load; then a second more for anything else to have counted, had it.
      const first = await until(
        () => state(page),
        (s) => shownCids(s.calls).length >= controls.length,
        15_000,
        'the controls counted',
      );
      await sleep(1_000);
      expect(shownCids((await state(page)).calls).sort()).toEqual([...controls].sort());
      const why = {
        transparent: 'transparent (div#transparent is at opacity 0)',
        wrapped: 'transparent (div#fade-wrap.cell is at opacity 0)',
        hidden: 'hidden (div#hidden)',
        empty: 'no area',
        'two-thirds': 'covered by div#two-thirds-cover.cover',
        blink: 'covered by div#blink-cover.cover',
      };
      const labels = await until(
        () =>
          page.evaluate(() => {
            const labels: Record<string, string> = {};
            document
              .querySelector('engage-inspect')
              ?.shadowRoot?.querySelectorAll<HTMLElement>('.outline')
              .forEach((outline) => (labels[outline.dataset.experience ?? ''] = outline.textContent ?? ''));
            return labels;
          }),
        (l) => Object.entries(why).every(([cid, text]) => l[cid]?.includes(text)),
        15_000,
        "the inspector's labels naming why",
      );
      const before = Math.round(Math.max(...first.calls.map((call) => call.at)));
      await page.evaluate(() => (window as unknown as Win).reveal());
      const rows = ['transparent', 'wrapped', 'hidden', 'empty', 'skipped', 'undisplayed', 'two-thirds', 'blink'];
      const { calls, marks } = await until(
        () => state(page),
        (s) => shownCids(s.calls).length >= controls.length + rows.length,
        15_000,
        'every row counted after reveal()',
      );
      // Once each.
      expect(shownCids(calls).sort()).toEqual([...controls, ...rows].sort());
      const at = (cid: string) => calls.find((call) => call.method === 'shown' && call.experience === cid)!.at;
      // Never sooner than a full second after the placement could be seen.
      for (const cid of rows.slice(0, -1)) expect(at(cid) - marks.revealed!, cid).toBeGreaterThanOrEqual(999);
      // Covered 500 ms into its second: the second starts over when it is uncovered.
      expect(marks['blink covered']).toBeDefined();
      expect(at('blink') - marks['blink uncovered']!, 'blink').toBeGreaterThanOrEqual(999);
      await until(forwarded, (cids) => cids.length >= controls.length + rows.length, 15_000, 'every impression at the emulator');
      expect((await forwarded()).sort()).toEqual([...controls, ...rows].sort());
      figures.push(
        `[engines] ${name} | seen | the inspector: ${Object.keys(why)
          .map((cid) => `${cid}: "${/but (.*): not counted/.exec(labels[cid]!)?.[1]}"`)
          .join('; ')}`,
      );
      figures.push(
        `[engines] ${name} | seen | before reveal(): ${controls.join(', ')} only (by ${before} ms); after: ${rows
          .map((cid) => `${cid} +${Math.round(at(cid) - marks.revealed!)}`)
          .join(', ')} ms (blink ${Math.round(at('blink') - marks['blink uncovered']!)} ms after uncovered)`,
      );
    });

    test('a cookie wall accepted after 3 s: the hero counts once, a second after', async () => {
      const page = await open('wall.html');
      await sleep(3_000);
      await page.click('#accept');
      const { calls, marks } = await until(
        () => state(page),
        (s) => shownCids(s.calls).length > 0,
        15_000,
        'the hero counted after the wall',
      );
      expect(shownCids(calls)).toEqual(['hero']);
      const after = calls[0]!.at - marks.accepted!;
      expect(after).toBeGreaterThanOrEqual(999);
      await until(forwarded, (cids) => cids.length >= 1, 15_000, 'the impression at the emulator');
      // And only once: a second more, and still one.
      await sleep(1_000);
      expect(shownCids((await state(page)).calls)).toEqual(['hero']);
      expect(await forwarded()).toEqual(['hero']);
      figures.push(`[engines] ${name} | seen | cookie wall 3 s: 1 impression, ${Math.round(after)} ms after it was accepted`);
    });

    test('a Swiper fade carousel watched 6 s: one impression per slide shown a second or more, none for the others', async () => {
      const page = await open('carousel.html');
      await sleep(6_000);
      // Slide by slide, how long a person saw it (its longest spell at an opacity above 0, the next
      // slide not yet fading in over it).
      const { seen, starts } = await page.evaluate(() => {
        const w = window as unknown as Win;
        w.swiper.autoplay.stop();
        return { seen: w.spells.map((spells, i) => Math.max(0, ...spells, w.ongoing[i]!)), starts: w.starts };
      });
      const long = seen.flatMap((ms, i) => (ms >= 1_400 ? [`slide-${i + 1}`] : []));
      // Under 950 ms no tracker that waits a full second may count it (the page samples every frame).
      const short = seen.flatMap((ms, i) => (ms < 950 ? [`slide-${i + 1}`] : []));
      // The carousel is set for three long slides and a short one (100 ms), but the count is held
      // to what the page measured: a machine too loaded for its timers keeps the short slide up
      // longer, and then it must count. Between 950 and 1,400 ms either answer is right: the
      // tracker looks every 100 ms, so it counts a slide 1,000-1,110 ms after it appeared (the
      // three engines, idle and beside the whole suite), and later when its timers run late on a
      // loaded machine (CI, WebKit, at the old line of 1,150 ms: a long slide uncounted, which one
      // unknown).
      expect(long.length).toBeGreaterThan(0);
      const measured = `slides seen ${seen.map((ms) => Math.round(ms)).join(' / ')} ms`;
      // Counted (its calls, with their times, printed if not), then at the emulator.
      await until(
        () => state(page),
        (s) => long.every((cid) => shownCids(s.calls).includes(cid)),
        5_000,
        `the long slides counted (${measured}, their spells from ${JSON.stringify(starts)} ms)`,
      );
      await until(forwarded, (cids) => long.every((cid) => cids.includes(cid)), 15_000, 'the long slides at the emulator');
      // A second more for a short slide's impression to come, had it counted.
      await sleep(1_000);
      const { calls } = await state(page);
      for (const cids of [shownCids(calls), await forwarded()]) {
        expect(cids.filter((cid) => long.includes(cid)).sort()).toEqual(long);
        expect(cids.filter((cid) => short.includes(cid))).toEqual([]);
        expect(new Set(cids).size).toBe(cids.length);
      }
      figures.push(
        `[engines] ${name} | seen | Swiper fade, 6 s: ${measured} → impressions ${[1, 2, 3, 4].map((n) => shownCids(calls).filter((cid) => cid === `slide-${n}`).length).join(' / ')}`,
      );
    });
  });
}
