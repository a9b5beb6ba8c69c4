// Shared by the runtime suites: the built package installed the way a user's app has it
// (node_modules/engage-sdk in a fresh folder), one app module that every runtime imports
// unchanged, the runtime as a real process, and the checks each runtime must pass against the
// real emulator on Node.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import nodeResolve from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';
import { expect } from 'vitest';
import { experienceBody, KEYS, WORKSPACE, type Upstream } from '../proxy/support';

export const ROOT = resolve(import.meta.dirname, '../..');
export const ALLOWED_ORIGIN = 'https://shop.example';
/** Default experience-events body limit of the proxy (256 KiB); the oversized body exceeds it. */
const OVERSIZED_BYTES = 300 * 1024;

/** The app every runtime runs: nothing in it is runtime-specific. */
export const APP_MODULE = `import { createProxy } from 'engage-sdk/proxy';

export function makeProxy(sdkUrl) {
  return createProxy({
    workspaceId: ${JSON.stringify(WORKSPACE)},
    keys: { personalize: ${JSON.stringify(KEYS.personalize)} },
    sdkUrl,
    basePath: '/engage',
    allowedOrigins: [${JSON.stringify(ALLOWED_ORIGIN)}],
    upstreamTimeoutMs: 1000,
    retries: 1,
    retryBaseDelayMs: 50,
  });
}
`;

export interface AppDir {
  dir: string;
  close(): Promise<void>;
}

/** A folder with `node_modules/engage-sdk` pointing at this package's build, and app.mjs. */
export async function appDir(files: Record<string, string> = {}): Promise<AppDir> {
  if (!existsSync(join(ROOT, 'dist/proxy-web.js'))) {
    throw new Error('dist/proxy-web.js is missing: run `npm run build` first (npm test does).');
  }
  const dir = await mkdtemp(join(tmpdir(), 'engage-runtime-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(ROOT, join(dir, 'node_modules/engage-sdk'), 'dir');
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'runtime-app', private: true, type: 'module', dependencies: { 'engage-sdk': '*' } }));
  await writeFile(join(dir, 'app.mjs'), APP_MODULE);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return { dir, close: () => rm(dir, { recursive: true, force: true }) };
}

export interface BundledWorker {
  code: string;
  /** Every module rollup loaded, including re-export-only ones that leave no code behind. */
  modules: string[];
}

/**
 * What a bundled Worker took from Node or from a package other than isbot (the crawler list, plain
 * JavaScript: the one package the proxy core imports), or from the Node build: nothing, for a Worker.
 */
export const foreignModules = (modules: string[]): string[] =>
  modules.filter((id) => /node_modules|^node:|proxy\/node\/|\/dist\/proxy\.js$/.test(id) && !id.includes('/node_modules/isbot/'));

/** A Worker module bundled the way wrangler bundles one (export conditions workerd, worker, browser). */
export async function bundleWorker(input: string): Promise<BundledWorker> {
  const build = await rollup({
    input,
    plugins: [nodeResolve({ exportConditions: ['workerd', 'worker', 'browser'], preferBuiltins: false, rootDir: dirname(input) })],
    onwarn: (warning) => {
      throw new Error(`bundling the worker: ${warning.message}`);
    },
  });
  const { output } = await build.generate({ format: 'es', inlineDynamicImports: true });
  const modules = build.watchFiles;
  await build.close();
  return { code: output[0].code, modules };
}

/** A binary shipped inside an npm package (devDependency); fails loudly when absent. */
export function npmBinary(name: string): string {
  const path = join(ROOT, 'node_modules/.bin', name);
  if (!existsSync(path)) throw new Error(`${name} is not installed: run \`npm install\` (it is a devDependency of this package).`);
  return path;
}

export interface Running {
  url: string;
  version: string;
  /** What `engage-sdk/proxy` resolved to inside the runtime. */
  entry: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a runtime process whose script prints one JSON line `{ port, version }` once it listens.
 * Stopped by its own pid.
 */
export async function startProcess(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Running> {
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const ready = await new Promise<{ port: number; version: string; entry: string }>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start in 30 s:\n${out}`)), 30_000);
    const onData = () => {
      const line = out.split('\n').find((l) => l.startsWith('{"port"'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolveReady(JSON.parse(line));
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}:\n${out}`));
    });
  });
  return {
    url: `http://127.0.0.1:${ready.port}`,
    version: ready.version,
    entry: ready.entry,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface Exercise {
  served: number;
  refusals: string[];
}

const post = (url: string, origin: string, body: BodyInit, extra: Record<string, string> = {}) =>
  fetch(`${url}/engage/v1/experiences/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...extra },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  });

/**
 * What every runtime must do with the same app: answer a preflight, forward experience events
 * (retrying an upstream 503; the emulator stores them once), answer a re-send from the UUID
 * memory, refuse a foreign origin (403) and oversized bodies, declared and streamed (413), with
 * nothing reaching the emulator, and time out a slow upstream (504).
 */
export async function exercise(url: string, upstream: Upstream): Promise<Exercise> {
  let served = 0;
  const refusals: string[] = [];
  const upstreamRequests = async () => (await upstream.received()).length;

  const preflight = await fetch(`${url}/engage/v1/experiences/events`, {
    method: 'OPTIONS',
    headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  served++;
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);

  // The upstream fails once: the retry needs the runtime's timers (backoff) and a second fetch.
  await upstream.fault({ statuses: [503], count: 1 });
  const body = experienceBody(3);
  const uuids = body.elements[0]!.actions.map((a) => a.svc_event_uuid as string).sort();
  const first = await post(url, ALLOWED_ORIGIN, JSON.stringify(body));
  served++;
  expect(first.status, await first.clone().text()).toBe(200);
  expect((await upstream.received()).map((r) => r.status)).toEqual([503, 200]);
  expect(first.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
  const stored = await upstream.experienceEvents();
  expect(stored.unique).toBe(3);
  expect(stored.events.map((e) => e.svc_event_uuid).sort()).toEqual(uuids);

  const again = await post(url, ALLOWED_ORIGIN, JSON.stringify(body));
  served++;
  expect(again.status).toBe(200);
  expect(again.headers.get('x-engage-deduplicated')).toBe('3');
  expect(await upstreamRequests()).toBe(2);

  const foreign = await post(url, 'https://evil.example', JSON.stringify(experienceBody(1)));
  served++;
  expect(foreign.status).toBe(403);
  expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  refusals.push('foreign origin 403');

  const big = JSON.stringify({ padding: 'x'.repeat(OVERSIZED_BYTES) });
  const declared = await post(url, ALLOWED_ORIGIN, big);
  served++;
  expect(declared.status).toBe(413);
  refusals.push('declared oversized body 413');

  // No Content-Length: the proxy must stop reading at its limit.
  const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= OVERSIZED_BYTES) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const streamed = await post(url, ALLOWED_ORIGIN, stream);
  served++;
  expect(streamed.status).toBe(413);
  refusals.push('streamed oversized body 413');

  expect(await upstreamRequests(), 'no refused request may reach the emulator').toBe(2);
  expect((await upstream.experienceEvents()).unique).toBe(3);

  // An upstream slower than upstreamTimeoutMs on both attempts: the runtime's AbortController and
  // timers must end each attempt, and the page gets 504.
  await upstream.fault({ statuses: [503], latencyMs: 2500, count: 2 });
  const slow = await post(url, ALLOWED_ORIGIN, JSON.stringify(experienceBody(1)));
  served++;
  expect(slow.status).toBe(504);
  return { served, refusals };
}

/** The line CI shows for each runtime. */
export function report(runtime: string, version: string, result: Exercise): void {
  console.log(
    `[runtime] ${runtime} ${version}: ${result.served} requests served, ${result.refusals.length} refusals checked (${result.refusals.join(', ')}), 3 events forwarded (after one upstream 503 and a retry), a slow upstream timed out (504), against the emulator on Node ${process.version}`,
  );
}
