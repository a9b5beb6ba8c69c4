// A Next.js App Router app, built and started by the real Next.js, with the packed package: the
// route-handler recipe of docs/proxy-node.md, verbatim, mounts the proxy; a client component records events;
// Chromium opens the page; every event must reach the emulator once.
import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index';
import { serve, type RunningServer } from '../../src/proxy/node/serve';
import { chromiumLaunchOptions } from '../../demo/chromium.mjs';
import { prepareNextApp, runNext } from '../support/next-app';
import { installPacked } from '../support/packed';

const N = 25;

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

describe('a Next.js App Router app with the docs/proxy-node.md recipe', () => {
  it(`next build, next start: ${N} events recorded in a client component reach the emulator once through the route handler`, async () => {
    prepareNextApp(dir);
    writeFileSync(join(dir, 'app/page.tsx'), PAGE);
    writeFileSync(join(dir, 'app/layout.tsx'), LAYOUT);

    let started = performance.now();
    const built = runNext(dir, ['build']);
    expect(await built.exited, built.output()).toBe(0);
    const buildSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    const port = 19_000 + (process.pid % 900);
    const server = runNext(dir, ['start', '-p', String(port), '-H', '127.0.0.1'], {
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
