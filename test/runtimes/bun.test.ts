// createProxy from the built package, unchanged, on Bun (the `bun` npm package's binary), served
// by Bun.serve and forwarding to the emulator on Node.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../proxy/support';
import { appDir, exercise, npmBinary, report, startProcess, type AppDir, type Running } from './support';

const SERVER = `import { makeProxy } from './app.mjs';

const proxy = makeProxy(process.env.SDK_URL);
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (request, server) => proxy(request, { clientAddress: server.requestIP(request)?.address }),
});
console.log(JSON.stringify({ port: server.port, version: Bun.version, entry: import.meta.resolve('engage-sdk/proxy') }));
`;

let upstream: Upstream;
let app: AppDir;
let runtime: Running | undefined;

beforeAll(async () => {
  upstream = await startUpstream();
  app = await appDir({ 'server.mjs': SERVER });
  runtime = await startProcess(npmBinary('bun'), ['server.mjs'], { cwd: app.dir, env: { SDK_URL: upstream.url, NO_COLOR: '1' } });
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await app?.close();
  await upstream?.close();
});

it('runs createProxy unchanged on Bun: forwards with a retry, deduplicates, refuses a foreign origin and oversized bodies, times out a slow upstream', async () => {
  const result = await exercise(runtime!.url, upstream);
  report('Bun', runtime!.version, result);
  expect(runtime!.version).toMatch(/^\d+\.\d+\.\d+/);
  // Bun resolves the `bun` export condition: the Web-only build.
  expect(runtime!.entry).toMatch(/\/dist\/proxy-web\.js$/);
}, 60_000);
