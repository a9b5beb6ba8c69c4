// Types of the built `dist/emulator.js` (rollup input src/emulator/index.ts, see rollup.config.mjs), for the JavaScript that imports it.
export * from '../../../src/emulator/index.ts';
