// dist/engage.inspect.js: the inspection mode on a script-tag page. engage.iife.js loads it from
// beside itself when the page's URL has `?engage-inspect` (or this tab turned it on earlier); it
// inspects the script tag's default tracker. "Turn off" in its panel ends it for the tab, as
// `?engage-inspect=off` does.
import { inspect } from './inspect/inspect';
import type { Tracker } from './tracker/types';

const engage = (window as unknown as { Engage?: Tracker & { tracker?: Tracker } }).Engage;
if (engage?.tracker) {
  inspect(engage, {
    onTurnOff: () => {
      try {
        sessionStorage.removeItem('engage-inspect');
      } catch {
        // No session storage: it was never remembered either.
      }
    },
  });
}
