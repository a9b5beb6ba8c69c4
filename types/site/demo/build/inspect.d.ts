// Types of /demo/build/inspect.js: src/inspect bundled for the browser by demo/server.mjs.
export * from '../../../../src/inspect/index.ts';
