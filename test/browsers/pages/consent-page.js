// The consent test page's set-up, from its query: `consent`, `ns` (namespace), `honor=false`
// (data-honor-global-privacy-control), `gpc=1` (Global Privacy Control on), `clean` (no tracker:
// a page to look at and wipe the origin's storage). The script tag is added as a tag manager
// adds one: a script element with its data- attributes, async.
const params = new URLSearchParams(location.search);
window.calls = [];
window.engageErrors = [];
addEventListener('engage:error', (event) => window.engageErrors.push(event.detail.name));

// Where the engine has no Global Privacy Control of its own (Chromium, WebKit), the property as
// a browser or an extension that sends the signal exposes it: on Navigator.prototype, read-only.
if (params.get('gpc') === '1' && /** @type {{ globalPrivacyControl?: boolean }} */ (navigator).globalPrivacyControl !== true) {
  Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });
}

/** Everything engage-sdk could have left on this origin: IndexedDB databases, storage keys, cookies. */
window.traces = async () => ({
  databases: (await indexedDB.databases()).map((db) => db.name),
  localStorage: Object.keys(localStorage),
  sessionStorage: Object.keys(sessionStorage),
  cookies: document.cookie,
});
/** Empties the origin's storage between scenarios (the profile lives as long as the engine). */
window.wipe = () =>
  new Promise((resolve) => {
    localStorage.clear();
    sessionStorage.clear();
    const request = indexedDB.deleteDatabase('engage-sdk-v1');
    request.onsuccess = request.onerror = request.onblocked = () => resolve(true);
  });

if (!params.has('clean')) {
  const script = document.createElement('script');
  script.src = '/dist/engage.iife.js';
  script.async = true;
  Object.assign(script.dataset, { endpoint: '/engage', customerId: 'consent-user', flushInterval: '500', namespace: params.get('ns') ?? 'consent' });
  const consent = params.get('consent');
  const honor = params.get('honor');
  if (consent) script.dataset.consent = consent;
  if (honor) script.dataset.honorGlobalPrivacyControl = honor;
  script.onload = () => {
    // Every automatic call and its answer: a UUID, or null when nothing was recorded (null, not
    // undefined: WebDriver returns an undefined property as null in WebKit, and drops it elsewhere).
    for (const method of ['shown', 'clicked']) {
      const original = window.Engage[method];
      window.Engage[method] = (context, attributes) => {
        const uuid = original(context, attributes);
        window.calls.push({ method, experience: context && context.experience, uuid: uuid ?? null });
        return uuid;
      };
    }
    window.engageReady = true;
  };
  document.head.append(script);
}
