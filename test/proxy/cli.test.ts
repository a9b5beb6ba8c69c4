// engage-proxy's configuration from the environment, and the built CLI end to end.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/proxy/node/env-config';
import { experienceBody, KEYS, startUpstream, WORKSPACE, type Upstream } from './support';

const CLI = resolve(import.meta.dirname, '../../dist/proxy-cli.js');

describe('configFromEnv', () => {
  it('names every missing variable at once', () => {
    const result = configFromEnv({});
    expect(result).toEqual({ errors: ['missing environment variables: ENGAGE_WORKSPACE_ID, ENGAGE_PERSONALIZE_KEY, ENGAGE_SDK_URL'] });
  });

  it('asks for the keys and URLs of each enabled operation, and an admin token for administrative ones', () => {
    const result = configFromEnv({ ENGAGE_WORKSPACE_ID: 'W', ENGAGE_OPERATIONS: 'users,fileImportStatus', ENGAGE_DATA_KEY: 'k' });
    expect(result).toEqual({ errors: ['missing environment variables: ENGAGE_BASE_URL, ENGAGE_ADMIN_TOKEN, ENGAGE_FILEIMPORTS_URL'] });
  });

  it('refuses an unknown operation and a bad port, without echoing any key', () => {
    const result = configFromEnv({
      ENGAGE_WORKSPACE_ID: 'W',
      ENGAGE_PERSONALIZE_KEY: 'secret-personalize',
      ENGAGE_SDK_URL: 'http://127.0.0.1:1',
      ENGAGE_OPERATIONS: 'experienceEvents,deleteEverything',
      PORT: 'eighty',
    });
    expect('errors' in result && result.errors).toEqual([
      "ENGAGE_OPERATIONS: 'deleteEverything' is not one of experienceEvents, users, events, campaignUpdate, fileImportStatus",
      "PORT must be a port number (got 'eighty')",
    ]);
    expect(JSON.stringify(result)).not.toContain('secret-personalize');
  });

  it('builds options, with the admin token checked as a bearer token', async () => {
    const result = configFromEnv({
      ENGAGE_WORKSPACE_ID: 'W',
      ENGAGE_DATA_KEY: 'd',
      ENGAGE_FILEIMPORTS_URL: 'http://127.0.0.1:1',
      ENGAGE_OPERATIONS: 'fileImportStatus',
      ENGAGE_ADMIN_TOKEN: 'let-me-in',
      ENGAGE_ALLOWED_ORIGINS: 'https://a.example, https://b.example',
      ENGAGE_BASE_PATH: '/engage',
      PORT: '9000',
    });
    if ('errors' in result) throw new Error(result.errors.join());
    expect(result.port).toBe(9000);
    expect(result.options.allowedOrigins).toEqual(['https://a.example', 'https://b.example']);
    const request = (auth: string) => new Request('http://x/', { headers: { authorization: auth } });
    expect(await result.options.authorize!(request('Bearer let-me-in'), 'fileImportStatus')).toBe(true);
    expect(await result.options.authorize!(request('Bearer let-me-i'), 'fileImportStatus')).toBe(false);
  });
});

describe('configFromEnv: CORS headers and log format', () => {
  const base = { ENGAGE_WORKSPACE_ID: 'W', ENGAGE_PERSONALIZE_KEY: 'p', ENGAGE_SDK_URL: 'http://127.0.0.1:1' };
  const headers = (env: Record<string, string>) => {
    const result = configFromEnv({ ...base, ...env });
    if ('errors' in result) throw new Error(result.errors.join());
    return result.options.allowedHeaders;
  };

  it('allows Content-Type, and Authorization as soon as an admin token is set', () => {
    expect(headers({})).toEqual(['Content-Type']);
    expect(headers({ ENGAGE_ADMIN_TOKEN: 't' })).toEqual(['Content-Type', 'Authorization']);
  });

  it('adds ENGAGE_ALLOWED_HEADERS, once each whatever the case', () => {
    expect(headers({ ENGAGE_ADMIN_TOKEN: 't', ENGAGE_ALLOWED_HEADERS: 'X-CSRF-Token, authorization,content-type' })).toEqual([
      'Content-Type',
      'Authorization',
      'X-CSRF-Token',
    ]);
  });

  it('refuses a header name that is not a token and an unknown log format, naming the variable', () => {
    const result = configFromEnv({ ...base, ENGAGE_ALLOWED_HEADERS: 'X-Ok,Bad Header', ENGAGE_LOG_FORMAT: 'xml' });
    expect('errors' in result && result.errors).toEqual([
      "ENGAGE_ALLOWED_HEADERS: 'Bad Header' is not a header name (letters, digits and !#$%&'*+.^_`|~-)",
      "ENGAGE_LOG_FORMAT must be one of text, json (got 'xml')",
    ]);
  });

  it('reads ENGAGE_LOG_FORMAT (text by default)', () => {
    const text = configFromEnv(base);
    const json = configFromEnv({ ...base, ENGAGE_LOG_FORMAT: 'JSON' });
    expect('logFormat' in text && text.logFormat).toBe('text');
    expect('logFormat' in json && json.logFormat).toBe('json');
  });

  it('reads ENGAGE_STORE_FAILURE (forward by default) and ENGAGE_REQUEST_TIMEOUT_MS (10 s by default), refusing others naming the variable and the rule', () => {
    const defaults = configFromEnv(base);
    const chosen = configFromEnv({ ...base, ENGAGE_STORE_FAILURE: 'Retry', ENGAGE_REQUEST_TIMEOUT_MS: '3000' });
    expect('options' in defaults && [defaults.options.storeFailure, defaults.requestTimeoutMs]).toEqual(['forward', 10_000]);
    expect('options' in chosen && [chosen.options.storeFailure, chosen.requestTimeoutMs]).toEqual(['retry', 3_000]);
    const wrong = configFromEnv({ ...base, ENGAGE_STORE_FAILURE: 'drop', ENGAGE_REQUEST_TIMEOUT_MS: '500' });
    expect('errors' in wrong && wrong.errors).toEqual([
      "ENGAGE_STORE_FAILURE must be forward (events go on without a claim while the store fails) or retry (503 + Retry-After: the tracker re-sends) (got 'drop')",
      "ENGAGE_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 300000 (got '500')",
    ]);
    const words = configFromEnv({ ...base, ENGAGE_REQUEST_TIMEOUT_MS: '10s' });
    expect('errors' in words && words.errors).toEqual(["ENGAGE_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1000 to 300000 (got '10s')"]);
  });

  it('reads ENGAGE_PROBE_PORT (none by default), refusing one that is not a port or is PORT itself', () => {
    const none = configFromEnv(base);
    const set = configFromEnv({ ...base, PORT: '8787', ENGAGE_PROBE_PORT: '9090' });
    expect('options' in none && none.probePort).toBeUndefined();
    expect('options' in set && set.probePort).toBe(9090);
    const words = configFromEnv({ ...base, ENGAGE_PROBE_PORT: 'ninety' });
    expect('errors' in words && words.errors).toEqual(["ENGAGE_PROBE_PORT must be a port number (got 'ninety')"]);
    const same = configFromEnv({ ...base, PORT: '8787', ENGAGE_PROBE_PORT: '8787' });
    expect('errors' in same && same.errors).toEqual(["ENGAGE_PROBE_PORT must differ from PORT (both 8787): the probes' port is a second one"]);
  });
});

describe('engage-proxy (built)', () => {
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('dist/proxy-cli.js is missing: run `npm run build` first (npm test does).');
  });
  let upstream: Upstream | undefined;
  let child: ReturnType<typeof spawn> | undefined;
  afterEach(async () => {
    child?.kill('SIGTERM');
    await upstream?.close();
  });

  function run(env: Record<string, string>) {
    child = spawn(process.execPath, [CLI], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child!.once('exit', r));
    return { output: () => out, exited };
  }

  it('exits 1 naming each missing variable', async () => {
    const { output, exited } = run({ ENGAGE_PERSONALIZE_KEY: 'top-secret-value' });
    expect(await exited).toBe(1);
    expect(output()).toContain('missing environment variables: ENGAGE_WORKSPACE_ID, ENGAGE_SDK_URL');
    expect(output()).not.toContain('top-secret-value');
  });

  it('serves the proxy and logs requests without keys', async () => {
    upstream = await startUpstream();
    const { output } = run({
      ENGAGE_WORKSPACE_ID: WORKSPACE,
      ENGAGE_PERSONALIZE_KEY: KEYS.personalize,
      ENGAGE_SDK_URL: upstream.url,
      ENGAGE_BASE_PATH: '/engage',
      PORT: '0',
    });
    await expect.poll(output, { timeout: 10_000 }).toContain('listening on');
    const url = /listening on (\S+)/.exec(output())![1]!;
    const res = await fetch(`${url}/v1/experiences/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(experienceBody()) });
    expect(res.status).toBe(200);
    await expect.poll(output, { timeout: 10_000 }).toContain('200 POST /engage/v1/experiences/events');
    expect(await upstream.received()).toHaveLength(1);
    expect(output()).not.toContain(KEYS.personalize);
  });

  it('answers the probes and metrics on ENGAGE_PROBE_PORT too, and nothing else there', async () => {
    upstream = await startUpstream();
    const { output } = run({
      ENGAGE_WORKSPACE_ID: WORKSPACE,
      ENGAGE_PERSONALIZE_KEY: KEYS.personalize,
      ENGAGE_SDK_URL: upstream.url,
      PORT: '0',
      ENGAGE_PROBE_PORT: '0',
    });
    await expect.poll(output, { timeout: 10_000 }).toContain('probes on');
    const url = /listening on (\S+)/.exec(output())![1]!;
    const probes = /probes on (\S+)/.exec(output())![1]!;
    expect(new URL(probes).port).not.toBe(new URL(url).port);
    expect(
      (await fetch(`${url}/v1/experiences/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(experienceBody()) })).status,
    ).toBe(200);

    const health = await fetch(`${probes}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${probes}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: { keys: 'ok', store: 'ok' } }]);
    // The same registry as the proxy's port: the request above is counted.
    expect(await (await fetch(`${probes}/metrics`)).text()).toContain('engage_proxy_requests_total{operation="experienceEvents",status="200"} 1');
    // The proxy's routes are not served there, and the upstream never hears of them.
    const event = await fetch(`${probes}/v1/experiences/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(experienceBody()),
    });
    expect(event.status).toBe(404);
    expect(await event.json()).toMatchObject({ title: 'Not Found', description: 'Only /healthz, /readyz and /metrics are served on this port' });
    expect(await upstream.received()).toHaveLength(1);
    // On the proxy's port as before.
    expect((await fetch(`${new URL(url).origin}/healthz`)).status).toBe(200);
  });

  it('exits 1 naming ENGAGE_PROBE_PORT when that port is taken', async () => {
    upstream = await startUpstream();
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    try {
      const { output, exited } = run({
        ENGAGE_WORKSPACE_ID: WORKSPACE,
        ENGAGE_PERSONALIZE_KEY: KEYS.personalize,
        ENGAGE_SDK_URL: upstream.url,
        PORT: '0',
        ENGAGE_PROBE_PORT: String((taken.address() as { port: number }).port),
      });
      expect(await exited).toBe(1);
      expect(output()).toMatch(/engage-proxy: ENGAGE_PROBE_PORT: probe port \d+: listen EADDRINUSE/);
    } finally {
      taken.close();
    }
  });

  it('answers /healthz, /readyz and /metrics outside basePath, and logs JSON lines without keys or bodies', async () => {
    upstream = await startUpstream();
    const { output } = run({
      ENGAGE_WORKSPACE_ID: WORKSPACE,
      ENGAGE_PERSONALIZE_KEY: KEYS.personalize,
      ENGAGE_SDK_URL: upstream.url,
      ENGAGE_BASE_PATH: '/engage',
      ENGAGE_LOG_FORMAT: 'json',
      PORT: '0',
    });
    await expect.poll(output, { timeout: 10_000 }).toContain('listening on');
    const url = /listening on (\S+)/.exec(output())![1]!;
    const origin = new URL(url).origin;

    const health = await fetch(`${origin}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${origin}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: { keys: 'ok', store: 'ok' } }]);
    // Under basePath the probes are not there: they are the operator's, not the browser's.
    expect((await fetch(`${url}/healthz`)).status).toBe(404);

    const body = experienceBody(2);
    const send = () => fetch(`${url}/v1/experiences/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await send()).status).toBe(200);
    expect((await send()).headers.get('x-engage-deduplicated')).toBe('2');

    const metrics = await fetch(`${origin}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await metrics.text();
    expect(text).toContain('engage_proxy_requests_total{operation="experienceEvents",status="200"} 2');
    expect(text).toContain('engage_proxy_events_forwarded_total{operation="experienceEvents"} 2');
    expect(text).toContain('engage_proxy_events_deduplicated_total 2');
    expect(text).toContain('engage_proxy_upstream_duration_seconds_count{operation="experienceEvents"} 1');
    expect(text).toContain('engage_proxy_store_errors_total 0');
    // Probes are not proxy traffic; the probe path under basePath was (no route).
    expect(text).toContain('engage_proxy_requests_total{operation="none",status="404"} 1');
    expect(text).not.toContain('operation="none",status="200"');

    await expect
      .poll(
        () =>
          output()
            .split('\n')
            .filter((l) => l.startsWith('{')).length,
        { timeout: 10_000 },
      )
      .toBe(3);
    const lines = output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ status: 404, path: '/engage/healthz' });
    expect(lines[1]).toMatchObject({
      level: 'info',
      method: 'POST',
      path: '/engage/v1/experiences/events',
      operation: 'experienceEvents',
      status: 200,
      upstreamStatus: 200,
      forwarded: 2,
    });
    expect(lines[2]).toMatchObject({ status: 200, deduplicated: 2 });
    expect(Object.keys(lines[1]).sort()).toEqual(
      [
        'attempts',
        'clientAddress',
        // An accepted delivery (issue 47): what loss reports and late deliveries are a share of.
        'delivered',
        'durationMs',
        // Each accepted event's delay (issue 41): the figure a runtime without /metrics reads.
        'eventDelaySeconds',
        'forwarded',
        'level',
        'message',
        'method',
        'operation',
        'path',
        'status',
        'time',
        'upstreamMs',
        'upstreamStatus',
      ].sort(),
    );
    expect(output()).not.toContain(KEYS.personalize);
    expect(output()).not.toContain(body.elements[0]!.actions[0]!.svc_event_uuid as string);
  });
});
