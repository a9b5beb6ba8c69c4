// Proof that the proxy handler needs nothing but Web globals: bundle src/proxy (without the Node
// adapter) into one script and run it in a fresh `node:vm` context holding only Request,
// Response, fetch, crypto, URL and TextEncoder. No `process`, `Buffer`, `require`, timers or
// `node:` modules are in reach there.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { rollup } from 'rollup';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createProxy as CreateProxy } from '../../src/proxy/create-proxy';
import { experienceBody, KEYS, startUpstream, WORKSPACE, type Upstream, PAGE_HEADERS } from './support';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = '\0web-entry';

async function bundle(): Promise<{ code: string; imports: string[] }> {
  const build = await rollup({
    input: ENTRY,
    plugins: [
      {
        name: 'ts-only',
        resolveId(source, importer) {
          if (source === ENTRY) return ENTRY;
          // The one package the core imports, the crawler list: bundled, so it too runs on Web globals alone.
          if (source === 'isbot') return resolve(root, 'node_modules/isbot/index.mjs');
          if (!importer || !source.startsWith('.')) return { id: source, external: true };
          const base = importer === ENTRY ? root : dirname(importer);
          return resolve(base, source.endsWith('.ts') ? source : `${source}.ts`);
        },
        async load(id) {
          if (id.endsWith('.mjs')) return readFile(id, 'utf8');
          if (id === ENTRY) return "export { createProxy } from './src/proxy/create-proxy';\nexport { createMemoryStore } from './src/proxy/stores/memory-store';";
          return ts.transpileModule(await readFile(id, 'utf8'), {
            compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false },
          }).outputText;
        },
      },
    ],
  });
  const { output } = await build.generate({ format: 'iife', name: 'EngageProxy' });
  await build.close();
  return { code: output[0].code, imports: output[0].imports };
}

let upstream: Upstream;
let context: vm.Context;
let createProxy: typeof CreateProxy;

beforeAll(async () => {
  upstream = await startUpstream();
  const { code, imports } = await bundle();
  expect(imports, 'the proxy core must import nothing (no node: modules, no packages but isbot, bundled)').toEqual([]);
  context = vm.createContext({ Request, Response, fetch, crypto, URL, TextEncoder });
  vm.runInContext(code, context);
  createProxy = vm.runInContext('EngageProxy.createProxy', context);
});
afterAll(() => upstream?.close());

describe('the proxy with only Web globals in reach', () => {
  it('really has nothing else in reach', () => {
    const probe = vm.runInContext(
      "[typeof process, typeof Buffer, typeof require, typeof setTimeout, typeof TextDecoder, typeof Headers, typeof fetch, typeof crypto].join(',')",
      context,
    );
    expect(probe).toBe('undefined,undefined,undefined,undefined,undefined,undefined,function,object');
  });

  it('forwards, deduplicates and refuses', async () => {
    const proxy = createProxy({
      workspaceId: WORKSPACE,
      keys: () => KEYS,
      sdkUrl: upstream.url,
      basePath: '/engage',
      allowedOrigins: ['https://www.example.com'],
    });
    const body = experienceBody(2);
    const send = (origin?: string) =>
      proxy(
        new Request('https://shop.example/engage/v1/experiences/events', {
          method: 'POST',
          headers: { ...PAGE_HEADERS, ...(origin ? { origin } : {}) },
          body: JSON.stringify(body),
        }),
        { clientAddress: '203.0.113.7' },
      );
    const first = await send('https://www.example.com');
    expect(first.status).toBe(200);
    expect(first.headers.get('access-control-allow-origin')).toBe('https://www.example.com');
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.headers.get('x-engage-deduplicated')).toBe('2');
    expect((await send('https://evil.example')).status).toBe(403);
    // The emulator accepted it (so Basic auth and SVC-APPKEY were right) and stored both events once.
    expect(await upstream.received()).toMatchObject([{ path: '/v1/experiences/events', status: 200 }]);
    const stored = await upstream.experienceEvents();
    expect(stored.unique).toBe(2);
    expect(stored.events.map((e) => e.svc_event_uuid).sort()).toEqual(body.elements[0]!.actions.map((a) => a.svc_event_uuid).sort());
  });

  it('answers a bad body in the upstream shape', async () => {
    const proxy = createProxy({ workspaceId: WORKSPACE, keys: KEYS, sdkUrl: upstream.url });
    const res = await proxy(new Request('https://shop.example/v1/experiences/events', { method: 'POST', headers: PAGE_HEADERS, body: '{"elements":[]}' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ title: 'Invalid Field Value' });
  });
});
