// Vitest global set-up of the browser suites: the single-page apps built once, from the packed
// package, as their users build them — Vite for the React Router and the Vue Router apps, `next
// build` for the Next.js one, nothing for a site with the script tag and its own history router —
// into one directory that each engine's suite then serves. The build runs while the suites start
// (builtApps() in ready.ts waits for it).
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import react from '@vitejs/plugin-react';
import vue from '@vitejs/plugin-vue';
import { build, type PluginOption } from 'vite';
import type { TestProject } from 'vitest/node';
import { prepareNextApp, runNext } from '../../support/next-app';
import { installPacked } from '../../support/packed';
import { BUILT, FAILED } from './markers';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where build-apps.ts built the apps: `<dir>/react-router/dist`, `<dir>/react-consent/dist`, `<dir>/vue-router/dist`, `<dir>/next`, `<dir>/script-tag`. */
    appsDir: string;
  }
}

const SOURCES = import.meta.dirname;

/** The app's own files and the shared ones: placements and styles beside the code, the rest where static files go. */
function copyApp(name: string, dir: string, code = dir, statics = join(dir, 'public')): void {
  cpSync(join(SOURCES, name), dir, { recursive: true });
  cpSync(join(SOURCES, 'shared/placements.js'), join(code, 'placements.js'));
  cpSync(join(SOURCES, 'shared/app.css'), join(code, 'app.css'));
  mkdirSync(statics, { recursive: true });
  cpSync(join(SOURCES, 'shared/about.html'), join(statics, 'about.html'));
  // What the page said and whether it came back from the back/forward cache, as for every page under test.
  cpSync(join(SOURCES, '../pages/spy.js'), join(statics, 'spy.js'));
}

async function buildVite(name: string, dir: string, plugin: PluginOption, mode: 'development' | 'production'): Promise<void> {
  const root = join(dir, name);
  copyApp(name, root);
  // Development React (unminified, with its checks) is large; that is not the app's size.
  await build({ root, mode, logLevel: 'warn', configFile: false, plugins: [plugin], build: { outDir: 'dist', chunkSizeWarningLimit: 2_000 } });
}

async function buildApps(dir: string): Promise<void> {
  const started = performance.now();
  // The script tag needs no build: the site's files as they are, and engage.iife.js and the
  // engage.delivery.js it loads from beside itself, from the package.
  const site = join(dir, 'script-tag');
  copyApp('script-tag', site, site, site);
  for (const file of ['engage.iife.js', 'engage.delivery.js']) cpSync(join(dir, 'node_modules/engage-sdk/dist', file), join(site, file));
  // React runs StrictMode's effects twice in development only, where a double impression would show.
  await buildVite('react-router', dir, react(), 'development');
  // The consent scenarios' React page (test/browsers/consent.ts).
  await buildVite('react-consent', dir, react(), 'production');
  await buildVite('vue-router', dir, vue(), 'production');
  const next = join(dir, 'next');
  copyApp('next', next, join(next, 'app'));
  prepareNextApp(next);
  const built = runNext(next, ['build']);
  if ((await built.exited) !== 0) throw new Error(`next build failed:\n${built.output()}`);
  console.log(`[apps] React Router (Vite), Vue Router (Vite), Next.js and script-tag apps built from the packed package in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Starts the build and returns at once: the engines' suites start beside it (their first
 * scenarios need no app), and the suites that serve an app wait for it with `builtApps()`
 * (test/browsers/apps/ready.ts). The build takes 40 s alone, more on a loaded machine; waiting
 * for it here held every engine back that long.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const { dir } = installPacked('apps');
  project.provide('appsDir', dir);
  const building = buildApps(dir).then(
    () => writeFileSync(join(dir, BUILT), ''),
    (error: Error) => writeFileSync(join(dir, FAILED), error.stack ?? String(error)),
  );
  return async () => {
    await building;
    rmSync(dir, { recursive: true, force: true });
  };
}
