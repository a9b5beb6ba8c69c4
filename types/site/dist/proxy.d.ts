// Types of the built `dist/proxy.js` (rollup input src/proxy/node.ts, see rollup.config.mjs), for the JavaScript that imports it.
export * from '../../../src/proxy/node.ts';
