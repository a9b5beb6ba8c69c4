// A site's own service worker, as it would be before engage-sdk: it answers one route itself and
// takes control at once. The delivery worker is imported into it, the way docs/service-worker.md
// describes, so one registration does both jobs. (`any`: TypeScript checks this file with the DOM's
// types, which have no worker scope.)
const worker = /** @type {any} */ (self);
worker.importScripts('/dist/engage-sw.js');

worker.addEventListener('install', () => worker.skipWaiting());
worker.addEventListener('activate', (/** @type {any} */ event) => event.waitUntil(worker.clients.claim()));
worker.addEventListener('fetch', (/** @type {any} */ event) => {
  if (new URL(event.request.url).pathname.endsWith('/site-sw-answer')) event.respondWith(new Response('from the site worker'));
});
