// Types of the built `dist/proxy-redis.js` (rollup input src/proxy/redis.ts, see rollup.config.mjs), for the JavaScript that imports it.
export * from '../../../src/proxy/redis.ts';
