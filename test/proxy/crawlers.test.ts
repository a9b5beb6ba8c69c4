// Crawlers at the proxy (the `bots` option, ENGAGE_BOTS), against the real emulator: a crawler's
// experience events are answered as delivered, counted and logged, and never reach the upstream;
// a person's are forwarded; the other operations are never checked.
import { afterEach, describe, expect, it } from 'vitest';
import { PERSON_USER_AGENT } from '../../demo/chromium.mjs';
import { createProxy } from '../../src/proxy/create-proxy';
import { configFromEnv } from '../../src/proxy/node/env-config';
import { logLine } from '../../src/proxy/node/log-line';
import { createMetrics } from '../../src/proxy/node/metrics';
import { isCrawler } from '../../src/proxy/pipeline/crawlers';
import type { ProxyLogEntry } from '../../src/proxy/types';
import { experienceBody, harness, type Harness } from './support';

/** User agents the issue names, as each sends it today. */
export const CRAWLERS = {
  'Googlebot smartphone':
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.7390.122 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Googlebot desktop':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/141.0.7390.122 Safari/537.36',
  Bingbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
  AhrefsBot: 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'headless Chrome': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
} as const;

export const PEOPLE = {
  Chrome: PERSON_USER_AGENT,
  'iOS Safari': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
  Firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0',
} as const;

let h: Harness | undefined;
afterEach(() => h?.close());

const XP = '/v1/experiences/events';
const post = (userAgent: string, events = 2) => h!.call(XP, { json: experienceBody(events), headers: { 'user-agent': userAgent } });

describe('isCrawler (isbot, and no user agent at all)', () => {
  it.each(Object.entries(CRAWLERS))('%s is a crawler', (_, ua) => expect(isCrawler(ua)).toBe(true));
  it.each(Object.entries(PEOPLE))('%s is a person', (_, ua) => expect(isCrawler(ua)).toBe(false));
  it('a request without a user agent is a script', () => expect(isCrawler('')).toBe(true));
});

describe("bots: 'drop' (the default)", () => {
  it("answers a crawler's events as delivered, forwards none, counts and logs them", async () => {
    const metrics = createMetrics();
    const entries: ProxyLogEntry[] = [];
    h = await harness({
      logger: (entry) => {
        entries.push(entry);
        metrics.logger(entry);
      },
      allowedOrigins: ['https://www.shop.example'],
    });
    for (const ua of Object.values(CRAWLERS)) {
      const response = await h.call(XP, { json: experienceBody(2), headers: { 'user-agent': ua, origin: 'https://www.shop.example' } });
      expect(response.status).toBe(200);
      // The upstream's acknowledgement shape, so the tracker removes the events and retries nothing.
      expect(await response.json()).toMatchObject({ status: 'success', message: 'Not forwarded: the user agent is a crawler' });
      expect(response.headers.get('x-engage-crawler')).toBe('dropped');
      expect(response.headers.get('access-control-expose-headers')).toMatch(/X-Engage-Crawler/);
    }
    const noAgent = await h.proxy(
      new Request(`https://shop.example/engage${XP}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(experienceBody(1)) }),
    );
    expect(noAgent.headers.get('x-engage-crawler')).toBe('dropped');
    expect((await h.upstream.experienceEvents()).unique).toBe(0);
    expect(h.sent).toHaveLength(0);

    for (const ua of Object.values(PEOPLE)) expect((await post(ua, 1)).headers.get('x-engage-crawler')).toBeNull();
    expect((await h.upstream.experienceEvents()).unique).toBe(3);

    const text = await metrics.render();
    expect(text).toMatch(/^engage_proxy_bot_events_total 11$/m);
    const crawlerLines = entries.filter((entry) => entry.crawlerEvents !== undefined);
    expect(crawlerLines.map((entry) => entry.crawlerEvents)).toEqual([2, 2, 2, 2, 2, 1]);
    expect(logLine(crawlerLines[3]!, 'text')).toContain('crawler-events=2 ua="Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)"');
  });

  it("still refuses a crawler's malformed body, in the upstream's shape", async () => {
    h = await harness();
    const response = await h.call(XP, { json: { elements: [] }, headers: { 'user-agent': CRAWLERS.Bingbot } });
    expect(response.status).toBe(400);
    expect(await response.json()).toHaveProperty('title');
  });

  it('checks only experience events: a crawler’s users and events calls are forwarded', async () => {
    h = await harness({ operations: ['experienceEvents', 'users', 'events'] });
    const user = await h.call('/v1/customer', {
      json: { type: 'customer', customer_id: 'u-1', attributes: { name: 'A' } },
      headers: { 'user-agent': CRAWLERS.AhrefsBot },
    });
    expect(user.status).toBe(200);
    expect(user.headers.get('x-engage-crawler')).toBeNull();
    expect(h.sent.map((sent) => sent.path)).toEqual(['/v1/customer/ENGAGEDEMO01']);
  });

  it('takes no session of a crawler: resolveCustomer is not asked, nothing is refused 401', async () => {
    let asked = 0;
    h = await harness({ resolveCustomer: () => (asked++, undefined) });
    expect((await post(CRAWLERS['Googlebot desktop'])).status).toBe(200);
    expect(asked).toBe(0);
    expect((await post(PEOPLE.Firefox)).status).toBe(401);
    expect(asked).toBe(1);
  });
});

describe('other rules', () => {
  it("'forward' forwards every crawler's events, unchecked", async () => {
    h = await harness({ bots: 'forward' });
    for (const ua of Object.values(CRAWLERS)) expect((await post(ua)).headers.get('x-engage-crawler')).toBeNull();
    expect((await h.upstream.experienceEvents()).unique).toBe(10);
  });

  it('a function is the site’s own rule: one named monitor through, every other crawler dropped', async () => {
    h = await harness({ bots: (ua) => !ua.includes('AcmeMonitor') && isCrawler(ua) });
    expect((await post(`${CRAWLERS['headless Chrome']} AcmeMonitor/2.1`)).headers.get('x-engage-crawler')).toBeNull();
    expect((await post(CRAWLERS['headless Chrome'])).headers.get('x-engage-crawler')).toBe('dropped');
    expect((await h.upstream.experienceEvents()).unique).toBe(2);
  });

  it('a rule that throws costs no event: forwarded, and the log says why', async () => {
    const entries: ProxyLogEntry[] = [];
    h = await harness({
      bots: () => {
        throw new Error('broken rule');
      },
      logger: (entry) => entries.push(entry),
    });
    expect((await post(PEOPLE.Chrome)).status).toBe(200);
    expect((await h.upstream.experienceEvents()).unique).toBe(2);
    expect(entries[0]).toMatchObject({ level: 'warn', message: 'bots() threw: events forwarded', forwarded: 2 });
  });

  it('refuses a bots option that is no rule, naming it', () => {
    expect(() => createProxy({ workspaceId: 'W', keys: { personalize: 'p' }, sdkUrl: 'http://127.0.0.1:1', bots: 'sometimes' as never })).toThrow(
      "createProxy: bots must be 'drop', 'forward' or a function (userAgent) => boolean (got 'sometimes')",
    );
  });

  it('ENGAGE_BOTS: drop (default) or forward, anything else named', () => {
    const base = { ENGAGE_WORKSPACE_ID: 'W', ENGAGE_PERSONALIZE_KEY: 'p', ENGAGE_SDK_URL: 'http://127.0.0.1:1' };
    const read = (env: Record<string, string>) => {
      const result = configFromEnv({ ...base, ...env });
      return 'errors' in result ? result.errors : result.options.bots;
    };
    expect(read({})).toBe('drop');
    expect(read({ ENGAGE_BOTS: 'Forward' })).toBe('forward');
    expect(read({ ENGAGE_BOTS: 'maybe' })).toEqual([
      "ENGAGE_BOTS must be drop (crawlers' experience events answered, counted and not forwarded) or forward (no check) (got 'maybe')",
    ]);
  });
});
