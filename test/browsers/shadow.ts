// Placements inside web components' shadow roots (issue 52), in every engine, through the real
// proxy and emulator, with Lit from npm and the script tag on its defaults (pages/shadow.html):
// one rendered before the tag started, one in a component defined after (upgraded in place), one
// two roots deep, one re-rendered as new nodes after it counted, one removed 300 ms in, one in a
// closed root declared by its component with Engage.observe, one in a declarative shadow root
// parsed with the page and one set later with setHTMLUnsafe; real clicks on a b_id control in a
// shadow root, and on one in a component inside the placement (read along the composed path).
import { afterEach, describe, expect, test } from 'vitest';
import { type Engine, type EngineName, openedPages, until } from './engine';
import { withEngineAndStack, type TestStack } from './stack';

interface Call {
  method: string;
  experience: string;
  at: number;
}
type Win = Window & {
  shadowReady?: boolean;
  calls: Call[];
  rerender(): void;
  removedButton?: HTMLElement;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SHOWN = 'SVC_PERSONALIZATION_MESSAGE_SHOWN';
const CLICKED = 'SVC_PERSONALIZATION_MESSAGE_CLICKED';

export function describeShadow(name: EngineName): void {
  describe(`${name}: placements in shadow roots`, () => {
    let engine: Engine;
    let stack: TestStack;
    const pages = openedPages(() => engine);
    const figures: string[] = [];

    withEngineAndStack(
      name,
      (started, at) => ((engine = started), (stack = at)),
      () => [`[engines] ${name}: placements in shadow roots`, ...figures],
    );
    afterEach(() => pages.closeAll());

    test('Lit components: each placement counts once, the removed one never, clicks carry the b_id inside', async () => {
      await stack.admin('reset', { body: {} });
      const page = await pages.open();
      // With the inspection mode on: it must outline the placements in shadow roots and say why.
      await page.goto(`${stack.url}/test/browsers/pages/shadow.html?engage-inspect`);
      await until(() => page.evaluate(() => (window as unknown as Win).shadowReady === true), Boolean, 15_000, 'the components and the script tag');
      const shownCids = () => page.evaluate(() => (window as unknown as Win).calls.filter((call) => call.method === 'shown').map((call) => call.experience));
      const counted = ['at-load', 'defined-later', 'nested', 'rerendered', 'closed', 'declarative', 'declarative-later'];
      await until(shownCids, (cids) => counted.every((cid) => cids.includes(cid)), 15_000, 'the placements counted');
      const labels = await until(
        () =>
          page.evaluate(() => {
            const found: Record<string, { text: string; top: number; left: number; host?: { top: number; left: number } }> = {};
            document
              .querySelector('engage-inspect')
              ?.shadowRoot?.querySelectorAll<HTMLElement>('.outline')
              .forEach((outline) => {
                const name = outline.dataset.experience || 'no context';
                const host = document.querySelector(`#${{ 'at-load': 'hero' }[name] ?? name}`)?.getBoundingClientRect();
                found[name] = {
                  text: outline.textContent ?? '',
                  top: parseFloat(outline.style.top),
                  left: parseFloat(outline.style.left),
                  host: host && { top: host.top, left: host.left },
                };
              });
            return found;
          }),
        (l) =>
          l['at-load']?.text.includes('counted at') === true &&
          !!l.faded?.text.includes('transparent') &&
          !!l['no context']?.text.includes('invalid data-engage-context'),
        15_000,
        "the inspector's outlines in shadow roots",
      );
      // Drawn where the placement is: over its host, which it fills.
      expect([labels['at-load']!.top, labels['at-load']!.left]).toEqual([labels['at-load']!.host!.top, labels['at-load']!.host!.left]);
      expect(labels.nested!.text).toContain('counted at');
      // Re-rendered as new nodes after it counted: not again in this page view.
      for (let i = 0; i < 3; i++) {
        await page.evaluate(() => (window as unknown as Win).rerender());
        await sleep(300);
      }
      // Real clicks at the hosts' centres: on <button data-engage-b-id="cta"> in <engage-hero>'s root,
      // and on the one inside <engage-button>, inside the placement of <engage-late>.
      await page.click('#hero');
      await page.click('#late');
      // The removed placement's control, out of the page: a click on it is nobody's.
      await page.evaluate(() => (window as unknown as Win).removedButton?.click());
      // A second and more for anything else to count, had it.
      await sleep(1_500);
      expect((await shownCids()).sort()).toEqual([...counted].sort());
      await until(
        () => stack.received(),
        (r) => r.events.filter((e) => e.action === SHOWN).length >= counted.length && r.events.filter((e) => e.action === CLICKED).length >= 2,
        15_000,
        'the events at the emulator',
      );
      // Delivered in flushes of 300 ms: one more for anything late.
      await sleep(700);
      const { events, duplicates } = await stack.received();
      expect(duplicates).toBe(0);
      const impressions = events.filter((e) => e.action === SHOWN).map((e) => e.attributes.cid as string);
      const clicks = events.filter((e) => e.action === CLICKED).map((e) => `${e.attributes.cid as string}:${e.attributes.b_id as string}`);
      const per = (cid: string) => impressions.filter((c) => c === cid).length;
      expect({
        'at-load': per('at-load'),
        'defined-later': per('defined-later'),
        nested: per('nested'),
        rerendered: per('rerendered'),
        removed: per('removed'),
        closed: per('closed'),
        faded: per('faded'),
        declarative: per('declarative'),
        'declarative-later': per('declarative-later'),
      }).toEqual({
        'at-load': 1,
        'defined-later': 1,
        nested: 1,
        rerendered: 1,
        removed: 0,
        closed: 1,
        faded: 0,
        declarative: 1,
        'declarative-later': 1,
      });
      expect(impressions).toHaveLength(counted.length);
      expect(clicks.sort()).toEqual(['at-load:cta', 'defined-later:inner']);
      figures.push(
        `[engines] ${name} | shadow | impressions at the emulator: at-load ${per('at-load')}, defined-later ${per('defined-later')}, nested ${per('nested')}, rerendered ${per('rerendered')} (3 re-renders), removed ${per('removed')}, closed ${per('closed')}, faded ${per('faded')}, declarative ${per('declarative')}, declarative-later ${per('declarative-later')}; the inspector: faded "${/but (.*): not counted/.exec(labels.faded!.text)?.[1]}"; clicks ${clicks.join(', ')}; duplicates ${duplicates}`,
      );
    });
  });
}
