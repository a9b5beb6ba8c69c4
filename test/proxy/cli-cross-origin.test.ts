// The cross-origin admin check: a back-office page on another origin, in a real Chromium, uses
// the typed client (the built dist/index.js) with a bearer token against `engage-proxy` started as
// a real process and configured from the environment only. Users, events, a campaign update and
// three pages of file-import status must all reach the emulator — each after a CORS preflight
// that asks for `authorization`.
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../demo/chromium.mjs';
import { KEYS, startUpstream, WORKSPACE, type Upstream } from './support';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/proxy-cli.js');
const TOKEN = 'back-office-token-7f3a';

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>back office</title>
<script type="importmap">{ "imports": { "idb-keyval": "/node_modules/idb-keyval/dist/index.js" } }</script>
<script type="module">
  import { createClient } from '/dist/index.js';
  // Errors come back as data: a rejection thrown out of the page carries page URLs in its stack,
  // which the test runner cannot map to files.
  window.run = async (endpoint, token) => {
    const client = createClient({ endpoint, headers: { authorization: 'Bearer ' + token } });
    const out = { errors: [], pages: [] };
    const step = async (name, fn) => {
      try {
        out[name] = (await fn()) ?? 'no content';
      } catch (error) {
        out.errors.push(name + ': ' + error.name + ' ' + error.message);
      }
    };
    await step('user', () => client.users.upsert({ customer_id: 'bo-user-1', attributes: { u_fn: 'Ada', svc_mobile: '+919876500000' } }));
    await step('event', () => client.events.track({ customer_id: 'bo-user-1' }, { action: 'Refunded', attributes: { amount: 12 } }));
    await step('campaign', () => client.campaigns.update('camp_push_onetime', { channel: 'PUSH', updated_by: 'ops@example.com' }));
    await step('fileImports', async () => {
      for await (const page of client.fileImports.pages()) {
        out.pages.push({ offset: page.offset, count: page.data.length, more: page.more_files });
        if (out.pages.length === 3) break;
      }
    });
    return out;
  };
  window.ready = true;
</script>`;

let upstream: Upstream;
let site: Server;
let siteOrigin: string;
let proxy: ChildProcess | undefined;
let proxyOutput = '';
let proxyUrl: string;
let browser: Browser | undefined;

/** The back-office origin: the page and the built client, nothing else. */
async function startSite(): Promise<void> {
  site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      return;
    }
    const file = normalize(join(ROOT, path));
    const servable = (file.startsWith(join(ROOT, 'dist/')) || file.startsWith(join(ROOT, 'node_modules/idb-keyval/'))) && existsSync(file);
    if (!servable) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': extname(file) === '.js' ? 'text/javascript' : 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const address = site.address();
  siteOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/proxy-cli.js is missing: run `npm run build` first (npm test does).');
  upstream = await startUpstream();
  await startSite();
  // The environment only: no ENGAGE_ALLOWED_HEADERS, so Authorization must be allowed by default.
  proxy = spawn(process.execPath, [CLI], {
    env: {
      PATH: process.env.PATH,
      ENGAGE_WORKSPACE_ID: WORKSPACE,
      ENGAGE_DATA_KEY: KEYS.data,
      ENGAGE_PERSONALIZE_KEY: KEYS.personalize,
      ENGAGE_CAMPAIGN_KEY: KEYS.campaign,
      ENGAGE_BASE_URL: upstream.url,
      ENGAGE_SDK_URL: upstream.url,
      ENGAGE_FILEIMPORTS_URL: upstream.url,
      ENGAGE_OPERATIONS: 'experienceEvents,users,events,campaignUpdate,fileImportStatus',
      ENGAGE_ADMIN_TOKEN: TOKEN,
      ENGAGE_ALLOWED_ORIGINS: siteOrigin,
      ENGAGE_BASE_PATH: '/engage',
      PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proxy.stdout!.on('data', (d) => (proxyOutput += d));
  proxy.stderr!.on('data', (d) => (proxyOutput += d));
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`engage-proxy did not start:\n${proxyOutput}`)), 10_000);
    const check = () => {
      if (!proxyOutput.includes('listening on')) return;
      clearTimeout(timer);
      ready();
    };
    proxy!.stdout!.on('data', check);
    proxy!.once('exit', () => fail(new Error(`engage-proxy exited:\n${proxyOutput}`)));
  });
  proxyUrl = /listening on (\S+)/.exec(proxyOutput)![1]!;
  browser = await chromium.launch(chromiumLaunchOptions());
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (proxy && proxy.exitCode === null) {
    const exited = new Promise((r) => proxy!.once('exit', r));
    proxy.kill('SIGTERM');
    await exited;
  }
  await new Promise((r) => site?.close(r));
  await upstream?.close();
});

it('a page on another origin reaches users, events, campaign update and three pages of file-import status', async () => {
  expect(new URL(proxyUrl).origin).not.toBe(siteOrigin);
  const page = await browser!.newPage();
  const failures: string[] = [];
  page.on('requestfailed', (request) => failures.push(`${request.method()} ${request.url()} ${request.failure()?.errorText}`));
  await page.goto(`${siteOrigin}/`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
  const out = await page.evaluate(([endpoint, token]) => (window as unknown as { run(e: string, t: string): Promise<any> }).run(endpoint!, token!), [proxyUrl, TOKEN]);
  expect(out.errors).toEqual([]);
  expect(failures).toEqual([]);

  expect(out.user).toMatchObject({ status: 'success' });
  expect(out.event).toMatchObject({ status: 'success' });
  expect(out.pages).toHaveLength(3);
  expect(out.pages.map((p: { offset: number }) => p.offset)).toEqual([1, 2, 3]);
  expect(out.pages.every((p: { count: number }) => p.count > 0)).toBe(true);

  // What the emulator received, by operation: every request made it through the proxy with a 2xx.
  const received = await upstream.received();
  const byOperation = (operation: string) => received.filter((r) => r.operation === operation).map((r) => r.status);
  expect(byOperation('users')).toEqual([200]);
  expect(byOperation('events')).toEqual([200]);
  expect(byOperation('campaignUpdate')).toEqual([204]);
  expect(byOperation('fileImportStatus')).toEqual([200, 200, 200]);
  expect(upstream.emulator.getCampaign('camp_push_onetime')).toMatchObject({ update_count: 1, updated_by: 'ops@example.com' });

  // Chromium preflighted each path (Playwright does not surface preflights; the proxy's log does,
  // in writes that may come up to 250 ms after the answers) and the answer allows Authorization,
  // which the environment never named.
  const preflights = () => proxyOutput.split('\n').filter((line) => line.startsWith('204 OPTIONS /engage/'));
  await expect.poll(() => new Set(preflights().map((line) => line.split(' ')[2])).size).toBe(4);
  const pagePreflights = preflights().length;
  const answer = await fetch(`${proxyUrl}/v1/customer`, {
    method: 'OPTIONS',
    headers: { origin: siteOrigin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  });
  expect(answer.status).toBe(204);
  expect(answer.headers.get('access-control-allow-headers')).toBe('Content-Type, Authorization');
  // Every line written, up to this last request's, before looking for secrets in them.
  await expect.poll(() => preflights().length).toBe(pagePreflights + 1);
  expect(proxyOutput).not.toContain(TOKEN);
  expect(proxyOutput).not.toContain(KEYS.data);
  console.log(
    `[cross-origin admin] page ${siteOrigin} → engage-proxy ${proxyUrl}: users 1, events 1, campaign update 1, file-import status pages ${out.pages.length}; ${pagePreflights} preflights answered, Authorization allowed from the environment`,
  );
}, 60_000);
