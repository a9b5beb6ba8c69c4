// createProxy from the built package, unchanged, on Deno (the `deno` npm package's binary),
// served by Deno.serve and forwarding to the emulator on Node.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../proxy/support';
import { appDir, exercise, npmBinary, report, startProcess, type AppDir, type Running } from './support';

const SERVER = `import { makeProxy } from './app.mjs';

const proxy = makeProxy(Deno.env.get('SDK_URL'));
Deno.serve(
  { hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(JSON.stringify({ port, version: Deno.version.deno, entry: import.meta.resolve('engage-sdk/proxy') })) },
  (request, info) => proxy(request, { clientAddress: info.remoteAddr.hostname }),
);
`;

let upstream: Upstream;
let app: AppDir;
let runtime: Running | undefined;

beforeAll(async () => {
  upstream = await startUpstream();
  app = await appDir({ 'server.mjs': SERVER });
  // Only the network and the app folder: the handler needs no other permission.
  runtime = await startProcess(
    npmBinary('deno'),
    ['run', '--no-lock', '--no-prompt', '--allow-net=127.0.0.1', '--allow-env=SDK_URL', `--allow-read=${app.dir}`, 'server.mjs'],
    // Its cache in the app folder and no update check: nothing outside the test, no other host.
    { cwd: app.dir, env: { SDK_URL: upstream.url, NO_COLOR: '1', DENO_DIR: `${app.dir}/.deno`, DENO_NO_UPDATE_CHECK: '1' } },
  );
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await app?.close();
  await upstream?.close();
});

it('runs createProxy unchanged on Deno: forwards with a retry, deduplicates, refuses a foreign origin and oversized bodies, times out a slow upstream', async () => {
  const result = await exercise(runtime!.url, upstream);
  report('Deno', runtime!.version, result);
  expect(runtime!.version).toMatch(/^\d+\.\d+\.\d+/);
  // Deno resolves the `deno` export condition: the Web-only build, no Node built-ins.
  expect(runtime!.entry).toMatch(/\/dist\/proxy-web\.js$/);
}, 60_000);
