// The script-tag page: the tracker comes from /dist/engage.iife.js (data- attributes, automatic
// [data-engage-context] observation). This module only mounts the demo's live panel beside it.
import { createPanel } from '/demo/panel.js';

const panel = createPanel({ label: 'script tag', flush: () => window.Engage.flush() });
// The script tag reports errors as `engage:error` events on window (no inline onError callback).
addEventListener('engage:error', (event) => panel.error(event.detail));

// The lifecycle of Engage lists automatic impressions and clicks with the rest.
const ready = () => {
  panel.watch(window.Engage);
  document.documentElement.dataset.demoReady = 'true';
};
if (window.Engage?.tracker) ready();
else /** @type {HTMLScriptElement} */ (document.querySelector('script[data-endpoint]')).addEventListener('load', ready, { once: true });
