// Watches the script-tag tracker from outside: when the hero became half visible (the same
// rendering update the tracker's IntersectionObserver sees), and every automatic shown/clicked
// call with its time, since automatic events go through Engage.shown/clicked.
window.visibleAt = undefined;
window.calls = [];
window.engageErrors = [];
addEventListener('engage:error', (event) => window.engageErrors.push(event.detail.name));
// Capturing on document: script load events do not bubble, and the async script may run before
// DOMContentLoaded.
document.addEventListener(
  'load',
  (event) => {
    if (!(/** @type {Element} */ (event.target).matches?.('script[data-endpoint]'))) return;
    for (const method of ['shown', 'clicked']) {
      const original = window.Engage[method];
      window.Engage[method] = (context, attributes) => {
        window.calls.push({ method, experience: context && context.experience, at: performance.now() });
        return original(context, attributes);
      };
    }
    window.engageReady = true;
  },
  true,
);
// Made before the tracker's (this script runs first), so its callbacks run first in the rendering
// update that sees the hero; it observes the hero as soon as the parser adds it, since the async
// tracker may start before DOMContentLoaded.
const io = new IntersectionObserver(
  (entries) => {
    for (const entry of entries)
      if (entry.intersectionRatio >= 0.5 && window.visibleAt === undefined) [window.visibleAt, window.seenAt] = [entry.time, performance.now()];
  },
  { threshold: [0, 0.5, 1] },
);
const watchHero = new MutationObserver(() => {
  const hero = document.getElementById('hero');
  if (!hero) return;
  watchHero.disconnect();
  io.observe(hero);
});
watchHero.observe(document, { childList: true, subtree: true });
