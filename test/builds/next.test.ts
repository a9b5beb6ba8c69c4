// A Next.js App Router app, built and started by the real Next.js, with the packed package: the
// README's route-handler recipe, verbatim, mounts the proxy; a client component records events;
// Chromium opens the page; every event must reach the emulator once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index';
import { serve, type RunningServer } from '../../src/proxy/node/serve';
import { chromiumLaunchOptions } from '../e2e/support/chromium';
import { installPacked, ROOT } from '../support/packed';

const N = 25;
const NEXT = join(ROOT, 'node_modules/next/dist/bin/next');

/** The README's Next.js recipe, as a reader copies it. */
function recipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const match = /```ts\n(\/\/ Next\.js route handler: app\/engage\/\[\.\.\.path\]\/route\.ts[\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('README.md has no Next.js route-handler recipe');
  return match[1]!;
}

const PAGE = `'use client';
import { useEffect, useState } from 'react';
import { createTracker } from 'engage-sdk';

const context = { cid: 'c-1', experience: 'Next hero', svc_locale_id: '0', svc_variation_id: '1', audience_name: 'All', audience_id: 'a' };

export default function Home() {
  const [state, setState] = useState('recording');
  useEffect(() => {
    const tracker = createTracker({ endpoint: '/engage', customerId: 'next-user' });
    for (let i = 0; i < ${N}; i++) tracker.shown(context, { b_id: 'slot-' + i });
    tracker.flush().then(() => setState('delivered'), (error) => setState('failed: ' + String(error)));
    return () => tracker.destroy();
  }, []);
  return <main id="state">{state}</main>;
}
`;
const LAYOUT = `export default function RootLayout({ children }: { children: React.ReactNode }) {
  return <html lang="en"><body>{children}</body></html>;
}
`;

let dir: string;
let upstream: RunningServer | undefined;
let emulator: ReturnType<typeof createEmulator> | undefined;
let app: ChildProcess | undefined;
let browser: Browser | undefined;
beforeAll(async () => {
  ({ dir } = installPacked('next'));
  emulator = createEmulator({});
  upstream = await serve(emulator.handler);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  app?.kill('SIGTERM');
  await upstream?.close();
  emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string> = {}): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [NEXT, ...args], { cwd: dir, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  return { child, output: () => out, exited: new Promise((done) => child.once('exit', done)) };
}

describe('a Next.js App Router app with the README recipe', () => {
  it(`next build, next start: ${N} events recorded in a client component reach the emulator once through the route handler`, async () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'engage-next-app', private: true }));
    // Next's own tsconfig, written here: otherwise \`next build\` runs an npm install of its type
    // packages, which prunes the extracted engage-sdk and reaches the registry mid-test.
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2017', lib: ['dom', 'dom.iterable', 'esnext'], strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler', jsx: 'react-jsx', isolatedModules: true, esModuleInterop: true, skipLibCheck: false, plugins: [{ name: 'next' }] },
        include: ['next-env.d.ts', '.next/types/**/*.ts', '**/*.ts', '**/*.tsx'],
        exclude: ['node_modules'],
      }),
    );
    mkdirSync(join(dir, 'app/engage/[...path]'), { recursive: true });
    writeFileSync(join(dir, 'app/engage/[...path]/route.ts'), recipe());
    writeFileSync(join(dir, 'app/page.tsx'), PAGE);
    writeFileSync(join(dir, 'app/layout.tsx'), LAYOUT);

    let started = performance.now();
    const built = run(['build']);
    expect(await built.exited, built.output()).toBe(0);
    const buildSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    const port = 19_000 + (process.pid % 900);
    const server = run(['start', '-p', String(port), '-H', '127.0.0.1'], {
      ENGAGE_WORKSPACE_ID: emulator!.workspaceId,
      ENGAGE_PERSONALIZE_KEY: emulator!.keys.personalize,
      ENGAGE_SDK_URL: upstream!.url,
    });
    app = server.child;
    await expect.poll(server.output, { timeout: 30_000 }).toMatch(/Ready|started server/i);

    browser = await chromium.launch(chromiumLaunchOptions());
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => document.getElementById('state')?.textContent !== 'recording', undefined, { timeout: 30_000 });
    expect(await page.textContent('#state')).toBe('delivered');
    const received = (await (await fetch(`${upstream!.url}/_emulator/experience-events`)).json()) as { unique: number; duplicates: number };
    expect({ unique: received.unique, duplicates: received.duplicates }).toEqual({ unique: N, duplicates: 0 });
    console.log(`[next] next build ${buildSeconds.toFixed(1)} s; start to ${N}/${N} delivered once ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 300_000);
});
