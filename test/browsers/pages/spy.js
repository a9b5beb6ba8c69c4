// Loaded first by pages under test (a script file: the pages' CSP allows no inline code): keeps
// every console message, page error and CSP violation where a test can read it in any engine, and
// whether the last pageshow was a restore from the back/forward cache (and if not, why).
window.spy = {
  console: [],
  errors: [],
  violations: [],
  restoredFromCache: false,
  // Why the engine did not restore the page from the back/forward cache, where it says (Chromium).
  notRestoredReasons() {
    /** Chromium's, not yet in TypeScript's DOM types. */
    const entry = /** @type {PerformanceNavigationTiming & { notRestoredReasons?: { reasons?: { reason: string }[] } }} */ (
      performance.getEntriesByType('navigation')[0]
    );
    return (entry?.notRestoredReasons?.reasons ?? []).map((item) => item.reason).join(', ') || 'no reason given';
  },
};
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  const original = console[level];
  console[level] = (...args) => {
    window.spy.console.push(`${level}: ${args.map(String).join(' ')}`);
    original.apply(console, args);
  };
}
addEventListener('error', (event) => window.spy.errors.push(String(event.message)));
addEventListener('unhandledrejection', (event) => window.spy.errors.push(String(event.reason)));
addEventListener('pageshow', (event) => (window.spy.restoredFromCache = event.persisted));
document.addEventListener('securitypolicyviolation', (event) => window.spy.violations.push(`${event.violatedDirective} ${event.blockedURI}`));
