// Types of the built `dist/proxy-cloudflare.js` (rollup input src/proxy/cloudflare.ts, see rollup.config.mjs), for the JavaScript that imports it.
export * from '../../../src/proxy/cloudflare.ts';
