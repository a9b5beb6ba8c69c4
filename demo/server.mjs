// `npm run demo`: the emulator, the proxy and a small storefront on one origin, with demo-only
// controls under /demo-api/. Prints one URL. Works with no configuration; PORT and EMULATOR_PORT
// move it. Every page is served with a strict Content-Security-Policy, as a careful site would.
import { rollup } from 'rollup';
import resolve from '@rollup/plugin-node-resolve';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, startStack } from './stack.mjs';

/** The policy every demo page is served with: no inline script or style, no eval, same origin only. */
export const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:";

const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });

/**
 * The ESM build as an app's bundler splits it, served from /demo/build/: dist/index.js as
 * engage.js, engage-sdk/inspect as inspect.js (the ESM page loads it lazily), the chunk of the
 * tracker's queue and delivery (loaded after its start), and what they share; idb-keyval resolved
 * into them. (An inline import map would need 'unsafe-inline' or a hash.)
 * @returns {Promise<Map<string, string>>} file name → code
 */
async function bundleEsm() {
  const build = await rollup({
    input: { engage: join(repoRoot, 'dist/index.js'), inspect: join(repoRoot, 'dist/inspect.js') },
    plugins: [resolve({ browser: true })],
    onwarn: () => {},
  });
  const { output } = await build.generate({ format: 'es', entryFileNames: '[name].js' });
  await build.close();
  return new Map(output.flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file.code]] : [])));
}

/**
 * Starts the demo. Tests pass `port: 0, emulatorPort: 0`.
 *
 * @param {object} [options]
 * @param {number} [options.port] default 8080 (env PORT)
 * @param {number} [options.emulatorPort] default 8788 (env EMULATOR_PORT)
 * @param {object} [options.proxy] extra createProxy options
 * @param {(request: Request) => Promise<Response|undefined>|Response|undefined} [options.intercept] tried before
 *   everything (a test's outage switch or request log); undefined lets the request through
 * @example
 * const demo = await startDemo({ port: 0, emulatorPort: 0 });
 * console.log(demo.url); await demo.close();
 */
export async function startDemo(options = {}) {
  const esm = await bundleEsm();
  let offline = false;
  let newKey; // the emulator's rotated personalization key, held here until "given" to the proxy
  let importCount = 0;

  const admin = async (path, init = {}) => {
    const response = await fetch(`${stack.emulatorUrl}/_emulator/${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: init.body === undefined ? undefined : { 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  };

  const state = async () => {
    const { unique, duplicates, events } = stack.emulator.getExperienceEvents();
    const experiences = {};
    for (const event of events) {
      const experience = event.attributes?.experience;
      const name = typeof experience === 'string' ? experience : '(none)';
      const row = (experiences[name] ??= { impressions: 0, clicks: 0, ctr: 0 });
      if (event.action.endsWith('_SHOWN')) row.impressions++;
      else if (event.action.endsWith('_CLICKED')) row.clicks++;
    }
    for (const row of Object.values(experiences)) row.ctr = row.impressions ? row.clicks / row.impressions : 0;
    const faults = (await admin('faults')).body?.faults ?? null;
    return {
      delivered: unique,
      duplicates,
      experiences,
      recent: events
        .slice(-8)
        .reverse()
        .map((e) => ({ action: e.action, experience: e.attributes?.experience, b_id: e.attributes?.b_id, uuid: e.svc_event_uuid })),
      offline,
      upstreamFailures: faults && !offline ? faults.ratio : 0,
      keyRotated: newKey !== undefined,
    };
  };

  // Demo controls. Bodies are tiny; anything unreadable is a 400, never a crash.
  const routes = async (request) => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/demo-api/')) {
      const code = url.pathname.startsWith('/demo/build/') && esm.get(url.pathname.slice('/demo/build/'.length));
      if (code) {
        return new Response(code, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' } });
      }
      if (url.pathname === '/') return Response.redirect(new URL('/demo/', url), 302);
      return undefined;
    }
    const route = `${request.method} ${url.pathname}`;
    let body = {};
    if (request.method === 'POST') {
      try {
        const text = await request.text();
        body = text ? JSON.parse(text) : {};
      } catch {
        return json({ error: 'body must be JSON' }, 400);
      }
      if (typeof body !== 'object' || body === null) return json({ error: 'body must be a JSON object' }, 400);
    }
    switch (route) {
      case 'GET /demo-api/state':
        return json(await state());
      case 'POST /demo-api/offline':
        if (typeof body.offline !== 'boolean') return json({ error: 'offline must be a boolean' }, 400);
        offline = body.offline;
        return json(await state());
      case 'POST /demo-api/upstream-failures': {
        const ratio = body.ratio;
        if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1)) return json({ error: 'ratio must be a number from 0 to 1' }, 400);
        if (ratio === 0) await admin('faults', { method: 'DELETE' });
        else await admin('faults', { body: { ratio, statuses: [500, 503, 429], retryAfterSeconds: 1, operations: ['experienceEvents'] } });
        return json(await state());
      }
      case 'POST /demo-api/rotate-key':
        // The new key stays on the server: the page only learns that there is one.
        newKey = stack.emulator.rotateKey('personalize');
        return json(await state());
      case 'POST /demo-api/give-proxy-key':
        if (newKey === undefined) return json({ error: 'no rotated key to give: rotate first' }, 409);
        stack.setProxyKeys({ personalize: newKey });
        newKey = undefined;
        return json(await state());
      case 'POST /demo-api/imports': {
        importCount++;
        const name = `demo_import_${String(importCount).padStart(2, '0')}`;
        const created = await admin('file-imports', {
          body: { import_name: name, total_files: 3 + (importCount % 4), total_rows: 5_000 * importCount, duration_ms: 6_000 + 2_000 * (importCount % 3) },
        });
        return json({ import_name: name, status: created.body?.status ?? null }, created.status === 201 ? 201 : 502);
      }
      case 'POST /demo-api/reset':
        offline = false;
        await admin('faults', { method: 'DELETE' });
        await admin('reset', { body: {} });
        return json(await state());
    }
    return json({ error: `no demo route ${route}` }, 404);
  };

  const stack = await startStack({
    port: options.port ?? Number(process.env.PORT ?? 8080),
    emulatorPort: options.emulatorPort ?? Number(process.env.EMULATOR_PORT ?? 8788),
    proxy: {
      operations: ['experienceEvents', 'fileImportStatus'],
      // The import panel is an operator's view. A real site checks its admin session here; the
      // demo lets this origin's own pages through (browsers set Sec-Fetch-Site, pages cannot).
      authorize: (request, operation) => operation === 'fileImportStatus' && request.headers.get('sec-fetch-site') === 'same-origin',
      ...options.proxy,
    },
    // "Offline": the proxy path drops the connection, so the browser sees exactly a network failure.
    // A test's own intercept (its `down` switch, a request log) comes first.
    intercept: async (request) =>
      (await options.intercept?.(request)) ?? (offline && new URL(request.url).pathname.startsWith('/engage/') ? Response.error() : undefined),
    routes,
    headers: (url) => (url.pathname.endsWith('.html') || url.pathname.endsWith('/') ? { 'content-security-policy': STRICT_CSP } : undefined),
  });
  return { ...stack, url: `${stack.url}/demo/`, siteUrl: stack.url };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const demo = await startDemo();
  console.log(`engage-sdk demo: ${demo.url}`);
  const stop = () => void demo.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
