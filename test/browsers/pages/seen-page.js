// Watches the script-tag tracker of the viewability pages (seen.html, wall.html, prerender.html,
// carousel.html) from outside: every automatic shown/clicked call with its time (their
// placements' experience is their cid), and `mark(name)`
// for the moments a test's assertions are measured from (a placement revealed, a wall accepted).
window.calls = [];
window.marks = {};
window.mark = (name) => (window.marks[name] = performance.now());
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
