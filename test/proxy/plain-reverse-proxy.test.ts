// DESIGN.md's promise, kept with the tracker's new rule that only the upstream's (or the proxy's)
// answer is delivery (issue 40): a plain reverse proxy that adds the two headers our proxy adds
// (Authorization: Basic base64(workspace:personalizeKey) and SVC-APPKEY: workspace) in front of
// the upstream still delivers. nginx (Debian's nginx-light) serves one origin: `/` from the demo
// stack's static site, `/engage/` proxied to the emulator's `/`. Real Chromium records 3 events on
// the tracker harness page → 3/3 at the emulator, 0 twice, nothing left queued, no onError.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { chromiumLaunchOptions } from '../../demo/chromium.mjs';
import { startStack } from '../../demo/stack.mjs';
import { until } from '../browsers/engine';
import { emulatorAdmin, type Received } from '../browsers/stack';
import { queuedEvents } from '../support/queued-events';
import { freePort } from '../support/free-port';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

type Win = Window & {
  harnessReady?: boolean;
  startTracker(options: unknown): void;
  record(count: number): string[];
  engageErrors: Array<{ message: string }>;
};

/** The whole config: a plain reverse proxy, nothing of ours in it but the two headers. */
function nginxConf(prefix: string, port: number, site: string, emulator: string, workspace: string, personalizeKey: string): string {
  const basic = Buffer.from(`${workspace}:${personalizeKey}`).toString('base64');
  return `daemon off;
master_process on;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  server {
    listen 127.0.0.1:${port};
    location /engage/ {
      proxy_pass ${emulator}/;
      proxy_http_version 1.1;
      proxy_set_header Authorization "Basic ${basic}";
      proxy_set_header SVC-APPKEY "${workspace}";
    }
    location / {
      proxy_pass ${site};
      proxy_http_version 1.1;
    }
  }
}
`;
}

let stack: Awaited<ReturnType<typeof startStack>>;
let nginx: ChildProcess | undefined;
let prefix = '';
let origin = '';
let nginxLog = '';

beforeAll(async () => {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx not found at ${NGINX}. Install it with \`apt-get install -y --no-install-recommends nginx-light\` (or run \`bash scripts/ensure-test-deps.sh\` as root), or set NGINX_PATH.`,
    );
  }
  stack = await startStack();
  prefix = await mkdtemp(join(tmpdir(), 'engage-nginx-'));
  await mkdir(join(prefix, 'tmp'));
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const conf = join(prefix, 'nginx.conf');
  await writeFile(conf, nginxConf(prefix, port, stack.url, stack.emulatorUrl, stack.emulator.workspaceId, stack.emulator.keys.personalize));
  nginx = spawn(NGINX, ['-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  nginx.stderr!.on('data', (chunk: Buffer) => (nginxLog += chunk.toString()));
  const exited = new Promise<never>((_, reject) => nginx!.once('exit', (code) => reject(new Error(`nginx exited (${code}): ${nginxLog}`))));
  await Promise.race([
    exited,
    until(
      () =>
        fetch(`${origin}/test/browsers/pages/tracker.html`).then(
          (r) => r.status,
          () => 0,
        ),
      (status) => status === 200,
      15_000,
      'nginx serving the tracker page',
    ),
  ]);
  exited.catch(() => {});
}, 30_000);

afterAll(async () => {
  // Stopped by its pid, whatever happened above (SIGTERM: the master stops its worker and exits).
  if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
    const gone = new Promise((resolve) => nginx!.once('exit', resolve));
    nginx.kill('SIGTERM');
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (nginx.exitCode === null && nginx.signalCode === null) nginx.kill('SIGKILL');
  }
  await stack?.close();
  if (prefix) await rm(prefix, { recursive: true, force: true });
});

test('nginx adding the two headers in front of the emulator: 3/3 delivered from real Chromium, 0 twice, queue empty, no onError', async () => {
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/test/browsers/pages/tracker.html`);
    await page.waitForFunction(() => (window as unknown as Win).harnessReady === true);
    await page.evaluate(() => (window as unknown as Win).startTracker({ namespace: 'nginx', flushInterval: 200 }));
    const ids = await page.evaluate(() => (window as unknown as Win).record(3));
    const received = () => emulatorAdmin<Received>(stack.emulatorUrl, 'experience-events');
    await until(received, (r) => r.unique >= 3, 20_000, '3 events at the emulator');
    const queued = () => page.evaluate(queuedEvents);
    await until(queued, (n) => n === 0, 15_000, 'an empty queue');
    const { events, duplicates } = await received();
    expect(events.map((event) => event.svc_event_uuid).sort()).toEqual([...ids].sort());
    expect(duplicates).toBe(0);
    const errors = await page.evaluate(() => (window as unknown as Win).engageErrors.map((error) => error.message));
    expect(errors).toEqual([]);
    // They went through nginx (the stack's own proxy never saw them): its access log has the POSTs.
    const posts = (await readFile(join(prefix, 'access.log'), 'utf8')).split('\n').filter((line) => line.includes('"POST /engage/v1/experiences/events'));
    expect(posts.length).toBeGreaterThanOrEqual(1);
    console.log(
      `[plain-proxy] chromium ${browser.version()} | nginx (${NGINX}) + the two headers → emulator | ${events.length}/3 delivered in ${posts.length} POST(s) through nginx, ${duplicates} dup, 0 left queued, onError ×${errors.length}`,
    );
  } finally {
    await browser.close();
  }
});
