// Loaded first by pages under test (a script file: the pages' CSP allows no inline code): keeps
// every console message, page error and CSP violation where a test can read it in any engine.
window.spy = { console: [], errors: [], violations: [] };
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  const original = console[level];
  console[level] = (...args) => {
    window.spy.console.push(`${level}: ${args.map(String).join(' ')}`);
    original.apply(console, args);
  };
}
addEventListener('error', (event) => window.spy.errors.push(String(event.message)));
addEventListener('unhandledrejection', (event) => window.spy.errors.push(String(event.reason)));
document.addEventListener('securitypolicyviolation', (event) => window.spy.violations.push(`${event.violatedDirective} ${event.blockedURI}`));
