// Types of the built `dist/react.js` (rollup input src/react/index.ts, see rollup.config.mjs), for the JavaScript that imports it.
export * from '../../../src/react/index.ts';
