// Types of the built `dist/proxy-web.js` (rollup input src/proxy/index.ts, see rollup.config.mjs), for the JavaScript that imports it.
export * from '../../../src/proxy/index.ts';
