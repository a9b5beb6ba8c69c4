// Two builds: ESM + declarations for bundlers and Node (one chunk graph, so `engage-sdk` never
// pulls server code), and the self-contained, minified classic scripts: the script tag
// `dist/engage.iife.js`, its inspection mode and the delivery service worker `dist/engage-sw.js`.
import typescript from '@rollup/plugin-typescript';
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import constToLet from './scripts/const-to-let.mjs';
import dtsExtensions from './scripts/dts-extensions.mjs';
import mangleProps from './scripts/mangle-props.mjs';

// `noCheck`: the build emits, `npm run typecheck` (tsc over src and everything else) checks. Each of
// the four builds checking the sources again took the build from 15 s to 54 s (issue 42).
const ts = (declarations) =>
  typescript({
    tsconfig: './tsconfig.build.json',
    compilerOptions: {
      noCheck: true,
      ...(declarations
        ? { noEmit: false, declaration: true, declarationDir: 'dist', outDir: 'dist', rootDir: 'src' }
        : { noEmit: false, declaration: false, outDir: 'dist', rootDir: 'src', target: IIFE_TARGET }),
    },
  });

// The script tag is compiled for ES2021, not ES2020: `Engage ||= {}` and `db ??= open()` stay as
// written instead of being spelled out (13 B gzip). It narrows no support: the tracker already
// needs `addEventListener(…, { signal })`, which came after logical assignment in every engine.
export const IIFE_TARGET = 'ES2021';

// Our own minification of the script tag (apps minify the ESM build with their own settings):
// a third and fourth pass (the fourth: 19 B gzip of the script tag, 13 B of the worker, once the
// internals were named objects, issue 48; a fifth finds nothing more), arrows for functions that
// use no `this` (none of ours is a constructor), and 1/0 for true/false (no boolean of ours
// reaches a public value or a strict comparison): 14 B gzip. Function declarations hoisted to the
// top of their scope, where the language puts them anyway (issue 51 §3): −37 B gzip of the script
// tag, −7 B of its inspector, but +5 B of the worker, which goes without.
const COMPRESS = { passes: 4, unsafe_arrows: true, booleans_as_integers: true };
/** @type {import('@rollup/plugin-terser').Options} */
export const IIFE_TERSER = { ecma: 2020, compress: { ...COMPRESS, hoist_funs: true } };
/** @type {import('@rollup/plugin-terser').Options} */
const WORKER_TERSER = { ecma: 2020, compress: COMPRESS };

// Internal members (`_` names) are renamed in every build through mangle.json, the ESM build too: a
// site's bundler takes it as it is. `npm run build:mangle` pins a name for a new one (issue 48).
const mangle = () => mangleProps({ update: process.env.MANGLE === 'update' });

// The script tag loads its queue and delivery as a second file, dist/engage.delivery.js (issue 51
// §3): its build takes tracker/load-durable-script.ts wherever the tracker imports load-durable.ts.
export const scriptTagLoadsDurable = () => ({
  name: 'script-tag-loads-durable',
  resolveId: (source, importer) => (source === './load-durable' && importer ? new URL('src/tracker/load-durable-script.ts', import.meta.url).pathname : null),
});

export default [
  {
    input: {
      index: 'src/index.ts',
      // `engage-sdk/proxy`: the Web-only build for workerd, Deno, Bun and bundlers, and the Node
      // build (adapter, middleware, metrics) under the `node` condition and `./proxy/node`.
      'proxy-web': 'src/proxy/index.ts',
      proxy: 'src/proxy/node.ts',
      // Its own entry: the only module importing `redis` (optional peer), never in a browser bundle.
      'proxy-redis': 'src/proxy/redis.ts',
      // Its own entry: the Durable Object store, for Cloudflare Workers only.
      'proxy-cloudflare': 'src/proxy/cloudflare.ts',
      emulator: 'src/emulator/index.ts',
      // `engage-sdk/react`: the only module importing `react` (optional peer).
      react: 'src/react/index.ts',
      // `engage-sdk/inspect`: the inspection mode's UI, in no other entry.
      inspect: 'src/inspect/index.ts',
      'proxy-cli': 'src/proxy/node/cli.ts',
      'emulator-cli': 'src/emulator/cli.ts',
    },
    output: {
      dir: 'dist',
      format: 'es',
      chunkFileNames: 'chunks/[name]-[hash].js',
      // The retry policy is delivery's (a chunk an app loads after the start, load-durable.ts) and
      // the lifecycle's: a chunk of its own, or an app's bundler would find it in the one with
      // onLifecycle, which the entry imports, and load it first (−180 B of a tracker-only entry).
      manualChunks: (id) => (id.endsWith('/tracker/retry-policy.ts') ? 'retry-policy' : undefined),
      // The CLIs run as programs; the React binding's components are client components to a React
      // Server Components bundler (Next.js App Router), which reads the directive from the entry.
      banner: (chunk) => (!chunk.isEntry ? '' : chunk.name.endsWith('-cli') ? '#!/usr/bin/env node' : chunk.name === 'react' ? "'use client';" : ''),
    },
    external: (id) => id.startsWith('node:') || ['idb-keyval', 'isbot', 'pino', 'prom-client', 'react', 'redis', 'undici'].includes(id),
    plugins: [ts(true), mangle(), constToLet(), dtsExtensions()],
  },
  {
    input: 'src/iife.ts',
    // No "use strict" prologue (8 B gzip): TypeScript already refuses what strict mode forbids,
    // class bodies are strict anyway, and no function of ours reads `this`.
    output: { file: 'dist/engage.iife.js', format: 'iife', strict: false },
    plugins: [resolve({ browser: true }), scriptTagLoadsDurable(), ts(false), mangle(), constToLet(), terser(IIFE_TERSER)],
  },
  {
    // The script tag's queue and delivery, loaded by engage.iife.js from beside itself as it starts.
    input: 'src/delivery-script.ts',
    output: { file: 'dist/engage.delivery.js', format: 'iife', strict: false },
    plugins: [resolve({ browser: true }), ts(false), mangle(), constToLet(), terser(IIFE_TERSER)],
  },
  {
    // The inspection mode for script-tag pages, loaded by engage.iife.js from beside itself only
    // when the URL asks for it (`?engage-inspect`).
    input: 'src/inspect-script.ts',
    output: { file: 'dist/engage.inspect.js', format: 'iife', strict: false },
    plugins: [resolve({ browser: true }), ts(false), mangle(), constToLet(), terser(IIFE_TERSER)],
  },
  {
    // The delivery service worker: a classic script, so that a site's own worker can importScripts it.
    input: 'src/engage-sw.ts',
    output: { file: 'dist/engage-sw.js', format: 'iife', strict: false },
    plugins: [resolve({ browser: true }), ts(false), mangle(), constToLet(), terser(WORKER_TERSER)],
  },
];
