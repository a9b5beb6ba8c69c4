// Test instrumentation, loaded by each app's page before anything else: what the console said
// (a hydration mismatch, an engage-sdk warning) and whether the last pageshow was a restore from
// the back/forward cache (and if not, why).
window.consoleMessages = [];
for (const level of ['error', 'warn']) {
  const original = console[level];
  console[level] = (...args) => {
    window.consoleMessages.push(`${level}: ${args.map(String).join(' ')}`);
    original.apply(console, args);
  };
}
addEventListener('error', (event) => window.consoleMessages.push(`page error: ${event.message}`));
addEventListener('pageshow', (event) => (window.restoredFromCache = event.persisted));
// Why the engine did not restore the page from the back/forward cache, where it says (Chromium).
window.notRestoredReasons = () => {
  /** Chromium's, not yet in TypeScript's DOM types. */
  const entry = /** @type {PerformanceNavigationTiming & { notRestoredReasons?: { reasons?: { reason: string }[] } }} */ (performance.getEntriesByType('navigation')[0]);
  return (entry?.notRestoredReasons?.reasons ?? []).map((item) => item.reason).join(', ') || 'no reason given';
};
