// The sign-out test page's set-up, from its query: `customer` (data-customer-id), `clean` (no
// tracker: a page to wipe the origin's storage), `early` (Engage.reset() before the script tag
// has loaded: the pre-load snippet queues it). The script tag is added async, as a tag manager does.
const query = new URLSearchParams(location.search);
/** Empties the origin's storage between scenarios (the profile lives as long as the engine). */
window.wipe = () =>
  new Promise((resolve) => {
    localStorage.clear();
    const request = indexedDB.deleteDatabase('engage-sdk-v1');
    request.onsuccess = request.onerror = request.onblocked = () => resolve(true);
  });
if (query.has('early')) window.Engage.reset();
if (!query.has('clean')) {
  const script = document.createElement('script');
  script.src = '/dist/engage.iife.js';
  script.async = true;
  Object.assign(script.dataset, { endpoint: '/engage', flushInterval: '500', namespace: 'sign-out', autoObserve: 'false' });
  const customer = query.get('customer');
  if (customer) script.dataset.customerId = customer;
  script.onload = () => (window.engageReady = true);
  document.head.append(script);
}
