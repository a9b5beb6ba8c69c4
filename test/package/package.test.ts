// The package as users install it: `npm pack`, then the ecosystem's own checks on the tarball
// (@arethetypeswrong, publint) and consumer projects compiled by tsc, skipLibCheck off, under
// TypeScript's node16, nodenext and bundler resolutions. `npm test` builds dist first.
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, ROOT } from '../support/packed';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
let work: string;
let tarball: Uint8Array;

beforeAll(() => {
  ({ dir: work, tarball } = installPacked('package'));
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed tarball', () => {
  // What remains is deliberate, each for one reason:
  // - node10 (`moduleResolution: node`) predates `exports`; subpaths cannot resolve there, and
  //   TypeScript itself calls it legacy. The root entry still resolves (`types`).
  // - node16 from CommonJS: the package is ESM only; `require` of it is dynamic-import-only for
  //   TypeScript, while Node ≥ 20.19 (our `engines`) loads it with require(esm).
  const DELIBERATE: Record<string, string> = {
    'NoResolution:node10': 'node10 predates the exports map',
    'CJSResolvesToESM:node16-cjs': 'ESM only; Node >= 20.19 has require(esm)',
  };

  it('@arethetypeswrong: every entry green under node16 (from ESM) and bundler; only the deliberate findings elsewhere', async () => {
    const result = await checkPackage(createPackageFromTarballData(tarball));
    if (!('problems' in result)) throw new Error('attw could not analyse the package');
    const entrypoints = Object.keys(result.entrypoints);
    expect(entrypoints.sort(), 'attw checked every entry of the exports map').toEqual(Object.keys(pkg.exports).sort());
    const findings = result.problems.map((problem) => {
      const where = 'resolutionKind' in problem ? problem.resolutionKind : 'any';
      return `${problem.kind}:${where}`;
    });
    const unexpected = findings.filter((finding) => !(finding in DELIBERATE));
    expect(unexpected, 'findings beyond the deliberate ones').toEqual([]);
    for (const [entry, info] of Object.entries(result.entrypoints)) {
      for (const kind of ['node16-esm', 'bundler'] as const) {
        const resolution = info.resolutions[kind]?.resolution;
        expect(resolution?.fileName, `${entry} resolves under ${kind}`).toBeTruthy();
        expect(resolution?.isTypeScript || resolution?.fileName.endsWith('.json'), `${entry} has types under ${kind}`).toBe(true);
      }
    }
  });

  it('holds dist/, ops/ (alert rules and dashboard), the guides, the pre-load snippet, README.md, LICENSE, CHANGELOG.md and package.json, nothing else', () => {
    expect(readdirSync(join(work, 'node_modules/engage-sdk')).sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'demo', 'dist', 'docs', 'ops', 'package.json']);
    // The guides travel with the package (issue 43); their screenshots (0.9 MB) do not.
    expect(readdirSync(join(work, 'node_modules/engage-sdk/demo'))).toEqual(['engage-preload.js']);
    expect(readdirSync(join(work, 'node_modules/engage-sdk/docs')).filter((file) => !file.endsWith('.md'))).toEqual([]);
    expect(readdirSync(join(work, 'node_modules/engage-sdk/ops')).sort()).toEqual(['engage-alerts.test.yml', 'engage-alerts.yml', 'engage-dashboard.json']);
  });

  it('publint finds nothing in the package as installed from the tarball', async () => {
    const { messages } = await publint({ pkgDir: join(work, 'node_modules/engage-sdk'), pack: false, strict: true });
    expect(messages).toEqual([]);
  });
});

const APP = `import { createClient, createTracker, isEngageError, observe, type ExperienceContext } from 'engage-sdk';
import { createMemoryStore, createProxy, withProbes } from 'engage-sdk/proxy';
import { createMetrics, createNodeMiddleware, serve } from 'engage-sdk/proxy/node';
import { connectRedisStore } from 'engage-sdk/proxy/redis';
import { createDurableObjectStore, EngageStore, type EngageStoreNamespace } from 'engage-sdk/proxy/cloudflare';
import { createEmulator } from 'engage-sdk/emulator';

const context: ExperienceContext = { cid: 'c', experience: 'Hero', svc_locale_id: '0', svc_variation_id: '1', audience_name: 'All', audience_id: 'a' };
const tracker = createTracker({ endpoint: '/engage', customerId: 'u-1', onError: (error) => void (isEngageError(error) && error.code) });
const id: string | undefined = tracker.shown(context, { b_id: 'hero' });
await tracker.flush();
export const stop: () => void = observe(tracker, {} as Element, context);
const client = createClient({ endpoint: '/engage' });
await client.events.track('u-1', { action: 'Purchased', attributes: { amount: 12 } });
const emulator = createEmulator({});
const store = createMemoryStore({ maxKeys: 1000 });
const proxy = createProxy({ workspaceId: emulator.workspaceId, keys: emulator.keys, sdkUrl: 'http://127.0.0.1:1', store });
const response: Response = await proxy(new Request('http://x/v1/experiences/events'));
const server = await serve(withProbes(proxy, { options: { keys: emulator.keys }, metrics: createMetrics() }), { port: 0 });
export const middleware = createNodeMiddleware(proxy);
const redis = await connectRedisStore('redis://127.0.0.1:6379');
const edgeStore = createDurableObjectStore({} as EngageStoreNamespace, { shards: 4 });
export { EngageStore };
export const all = [id, response.status, server.url, redis.store, edgeStore];
`;
const WRONG = `import { createTracker } from 'engage-sdk';
createTracker({ endpoint: '/engage' }).notAMethod();
`;
// A page that loads dist/engage.iife.js with a script tag: no import, the global only.
const PAGE = `/// <reference types="engage-sdk/global" />
const context = { cid: 'c', experience: 'Hero', svc_locale_id: '0', svc_variation_id: '1', audience_name: 'All', audience_id: 'a' };
const uuid: string | undefined = Engage.shown(context);
window.Engage.clicked(context, { b_id: 'cta' });
const stopObserving: () => void = Engage.observe(document.body);
addEventListener('engage:error', (event) => console.warn(event.detail.code, event.detail.message, uuid, stopObserving));
Engage.shwon(context);
`;

// A Cloudflare Worker typed by @cloudflare/workers-types (its own globals, no DOM, no Node): the
// binding and the state fit the store's and the object's parameters as they are.
const WORKER = `import { createDurableObjectStore, EngageStore } from 'engage-sdk/proxy/cloudflare';
import { createProxy } from 'engage-sdk/proxy';

interface Env { ENGAGE_STORE: DurableObjectNamespace; ENGAGE_PERSONALIZE_KEY: string }
export class Store extends EngageStore {
  constructor(state: DurableObjectState, env: Env) {
    super(state, env);
  }
}
export default {
  fetch(request, env, ctx) {
    const store = createDurableObjectStore(env.ENGAGE_STORE, { shards: 4 });
    const proxy = createProxy({ workspaceId: 'W', keys: { personalize: env.ENGAGE_PERSONALIZE_KEY }, sdkUrl: 'https://sdk.example', store });
    return proxy(request, { waitUntil: (work) => ctx.waitUntil(work) });
  },
} satisfies ExportedHandler<Env>;
createDurableObjectStore({} as DurableObjectNamespace, { shards: 'four' });
`;

it('a Cloudflare Worker typed by @cloudflare/workers-types compiles with the Durable Object store; only the deliberate mistake fails', () => {
  const dir = join(work, 'consumer-worker');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer-worker', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'esnext',
        moduleResolution: 'bundler',
        target: 'ES2022',
        lib: ['ES2022'],
        types: ['@cloudflare/workers-types'],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      },
      files: ['worker.ts'],
    }),
  );
  writeFileSync(join(dir, 'worker.ts'), WORKER);
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir, '--pretty', 'false'], { encoding: 'utf8' });
  const errors = tsc.stdout
    .split('\n')
    .filter((line) => /error TS\d+/.test(line))
    .map((line) => line.replace(/^.*?([\w.-]+\.ts)\((\d+),\d+\): error (TS\d+).*$/, '$1:$2 $3'));
  expect(errors, tsc.stdout).toEqual(['worker.ts:17 TS2322']);
  // A time limit against a hang, not a speed: this compile (20 s alone) shares the 2 cores with the
  // browser engines in npm test (issue 42) and took up to 108 s on a loaded machine.
}, 240_000);

describe.each([
  ['node16', 'node16'],
  ['nodenext', 'nodenext'],
  ['esnext', 'bundler'],
])('a consumer compiled with --module %s --moduleResolution %s (strict, skipLibCheck off)', (module, moduleResolution) => {
  it('compiles every entry and the script-tag global; only the two deliberate mistakes fail, as expected', () => {
    const dir = join(work, `consumer-${moduleResolution}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `consumer-${moduleResolution}`, private: true, type: 'module' }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module, moduleResolution, target: 'ES2022', lib: ['ES2022', 'DOM'], types: ['node'], strict: true, skipLibCheck: false, noEmit: true },
        files: ['app.ts', 'wrong.ts', 'page.ts'],
      }),
    );
    writeFileSync(join(dir, 'app.ts'), APP);
    writeFileSync(join(dir, 'wrong.ts'), WRONG);
    writeFileSync(join(dir, 'page.ts'), PAGE);
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir, '--pretty', 'false'], { encoding: 'utf8' });
    const errors = tsc.stdout
      .split('\n')
      .filter((line) => /error TS\d+/.test(line))
      .map((line) => line.replace(/^.*?([\w.-]+\.ts)\(\d+,\d+\): error (TS\d+).*$/, '$1 $2'));
    expect(errors, tsc.stdout).toEqual(['page.ts TS2551', 'wrong.ts TS2339']);
    expect(readdirSync(join(work, 'node_modules/engage-sdk/dist')).includes('global.d.ts')).toBe(true);
    // As above: a time limit against a hang, not a speed.
  }, 240_000);
});
