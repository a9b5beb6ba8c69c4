// engage-proxy's configuration from the environment, and the built CLI end to end.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/proxy/env-config';
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

describe.runIf(existsSync(CLI))('engage-proxy (built)', () => {
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
});
