// Types of the built `dist/index.js` (rollup input src/index.ts, see rollup.config.mjs), for the JavaScript that imports it.
export * from '../../../src/index.ts';
