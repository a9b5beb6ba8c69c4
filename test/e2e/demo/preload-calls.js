// Runs before dist/engage.iife.js has loaded: these calls are queued by the pre-load snippet.
window.engageErrors = [];
addEventListener('engage:error', (event) =>
  window.engageErrors.push({ name: event.detail.name, field: /** @type {{ field?: string }} ValidationError's */ (event.detail).field }),
);
(function () {
  var context = {
    cid: 'c-9',
    experience: 'Preload Test',
    svc_locale_id: '0',
    svc_variation_id: '1',
    audience_name: 'All',
    audience_id: '9Z',
    type: 'Web Personalization',
  };
  window.Engage.clicked(context, { b_id: 'first' });
  window.Engage.clicked(context, { b_id: 'second' });
  window.Engage.shown(context, { slot: 'queued' });
  window.beforeLoad = typeof window.Engage.createTracker;
})();
