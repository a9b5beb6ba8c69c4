// Crawlers and automation that run a page's JavaScript (search engines, SEO tools, link previews,
// monitors, headless browsers) are recognised here, where every request's user agent arrives —
// the closing page's beacons and the service worker's requests too — so the tracker carries no
// list. The list is isbot's (well kept, the ecosystem's choice), never patterns of our own.
import { isbot } from 'isbot';

/** What the proxy does with a crawler's experience events: see `ProxyOptions.bots`. */
export type BotsOption = 'drop' | 'forward' | ((userAgent: string) => boolean);

/**
 * The default rule: isbot's list, and no user agent at all. Every browser sends one (on fetches,
 * beacons and service-worker requests alike), so a request without one is a script, not a visitor.
 *
 * @param userAgent the request's `User-Agent`, `''` when it had none
 * @example
 * // Let your own synthetic monitor through, and drop every other crawler:
 * createProxy({ ...options, bots: (ua) => !ua.includes('AcmeMonitor') && isCrawler(ua) });
 */
export function isCrawler(userAgent: string): boolean {
  return userAgent === '' || isbot(userAgent);
}

/** The user agent as a log line may carry it: printable, and at most 200 characters. */
export function loggedUserAgent(userAgent: string): string {
  return userAgent.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}
