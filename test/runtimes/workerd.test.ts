// createProxy from the built package, unchanged, on workerd (Cloudflare's runtime, run by
// miniflare from npm) without the nodejs_compat flag: a Worker bundled the way wrangler bundles
// one (export conditions workerd, worker, browser), forwarding to the emulator on Node.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../proxy/support';
import { appDir, bundleWorker, exercise, foreignModules, report, ROOT, type AppDir, type BundledWorker } from './support';

const WORKER = `import { makeProxy } from './app.mjs';

let proxy;
export default {
  fetch(request, env) {
    proxy ??= makeProxy(env.SDK_URL);
    return proxy(request, { clientAddress: request.headers.get('cf-connecting-ip') ?? undefined });
  },
};
`;

let upstream: Upstream;
let app: AppDir;
let mf: Miniflare | undefined;
let url: string;
let bundled: BundledWorker;

beforeAll(async () => {
  upstream = await startUpstream();
  app = await appDir({ 'worker.mjs': WORKER });
  bundled = await bundleWorker(join(app.dir, 'worker.mjs'));
  mf = new Miniflare({
    modules: true,
    script: bundled.code,
    // No compatibility flags: no nodejs_compat, so a Node built-in in the bundle would fail to load.
    compatibilityDate: '2025-09-01',
    bindings: { SDK_URL: upstream.url },
    host: '127.0.0.1',
    port: 0,
  });
  url = (await mf.ready).origin;
}, 60_000);

afterAll(async () => {
  await mf?.dispose();
  await app?.close();
  await upstream?.close();
});

it('runs createProxy unchanged on workerd: forwards with a retry, deduplicates, refuses a foreign origin and oversized bodies, times out a slow upstream', async () => {
  expect(
    bundled.modules.some((id) => id.endsWith('/dist/proxy-web.js')),
    'the worker bundles the Web-only build',
  ).toBe(true);
  expect(foreignModules(bundled.modules), 'and nothing from Node or another package but isbot').toEqual([]);
  const result = await exercise(url, upstream);
  const version = JSON.parse(readFileSync(join(ROOT, 'node_modules/workerd/package.json'), 'utf8')).version as string;
  report('workerd', `${version} (miniflare, compatibility date 2025-09-01, no nodejs_compat)`, result);
}, 60_000);
