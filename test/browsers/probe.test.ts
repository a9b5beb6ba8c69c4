import { test } from 'vitest';
import { launchEngine } from './engine';
import { startStack } from '../../demo/stack.mjs';
test('probe', async () => {
  const seen: string[] = [];
  const stack = await startStack({ intercept: (r: Request) => { const u = new URL(r.url); if (u.pathname.startsWith('/probe')) { seen.push(u.pathname + u.search); return new Response('ok'); } return undefined; } });
  const engine = await launchEngine(process.env.PROBE as 'webkit');
  const page = await engine.newPage();
  await page.goto(`${stack.url}/test/browsers/pages/tracker.html`);
  await page.evaluate(() => {
    for (const type of ['pagehide', 'visibilitychange', 'beforeunload', 'unload', 'freeze']) {
      addEventListener(type, () => {
        navigator.sendBeacon(`/probe/beacon?${type}-${document.visibilityState}`, 'x');
        fetch(`/probe/keepalive?${type}`, { method: 'POST', body: 'x', keepalive: true }).catch(() => {});
        fetch(`/probe/plain?${type}`, { method: 'POST', body: 'x' }).catch(() => {});
      }, true);
    }
    document.addEventListener('visibilitychange', () => fetch(`/probe/doc-keepalive?vis-${document.visibilityState}`, { method: 'POST', body: 'x', keepalive: true }));
  });
  await page.close();
  await new Promise((r) => setTimeout(r, 2000));
  console.log('after close:', seen);
  seen.length = 0;
  const p2 = await engine.newPage();
  await p2.goto(`${stack.url}/test/browsers/pages/tracker.html`);
  await p2.evaluate(() => {
    addEventListener('pagehide', () => { fetch(`/probe/keepalive?pagehide`, { method: 'POST', body: 'x', keepalive: true }); navigator.sendBeacon('/probe/beacon?pagehide', 'x'); });
  });
  await p2.goto(`${stack.url}/test/browsers/pages/tracker.html?2`);
  await new Promise((r) => setTimeout(r, 1000));
  console.log('after navigate:', seen);
  await engine.close();
  await stack.close();
});
