// Types of /demo/build/engage.js: dist/index.js bundled for the browser by demo/server.mjs.
export * from '../../../../src/index.ts';
