// The built CLI (dist/emulator-cli.js, made by `npm run build`): prints the workspace ID, the
// three keys and the URL; flags and ENGAGE_* variables set them; fault flags apply.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { basic, xpBody } from './helpers.ts';

const cli = fileURLToPath(new URL('../../dist/emulator-cli.js', import.meta.url));
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGTERM');
});

function launch(args: string[], env: Record<string, string> = {}): Promise<{ out: string; url: string }> {
  const child = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out);
      if (url && out.includes('data file')) resolve({ out, url: url[1]! });
    });
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

describe.skipIf(!existsSync(cli))('engage-emulator CLI', () => {
  it('prints the workspace ID and the three keys it accepts', async () => {
    const { out, url } = await launch(['--port', '0']);
    expect(out).toMatch(/workspace ID\s+ENGAGEDEMO01/);
    expect(out).toMatch(/data key\s+emulator-data-key/);
    expect(out).toMatch(/personalize key\s+emulator-personalize-key/);
    expect(out).toMatch(/campaign key\s+emulator-campaign-key/);
    const res = await fetch(`${url}/_emulator/campaigns`);
    expect(res.status).toBe(200);
  });

  it('takes the workspace and keys from flags, or the same ENGAGE_* variables as the proxy', async () => {
    const { out, url } = await launch(['--port', '0', '--workspace-id', 'WSFLAG', '--personalize-key', 'pk-flag'], {
      ENGAGE_DATA_KEY: 'dk-env',
      ENGAGE_WORKSPACE_ID: 'WSENV',
    });
    expect(out).toMatch(/workspace ID\s+WSFLAG/);
    expect(out).toMatch(/data key\s+dk-env/);
    const res = await fetch(`${url}/v1/experiences/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic('pk-flag', 'WSFLAG'), 'svc-appkey': 'WSFLAG' },
      body: JSON.stringify(xpBody()),
    });
    expect(res.status).toBe(200);
  });

  it('applies fault flags', async () => {
    const { url } = await launch(['--port', '0', '--fault-ratio', '1', '--fault-statuses', '503', '--fault-retry-after', '4', '--seed', '9']);
    const res = await fetch(`${url}/v1/experiences/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic('emulator-personalize-key'), 'svc-appkey': 'ENGAGEDEMO01' },
      body: JSON.stringify(xpBody()),
    });
    expect([res.status, res.headers.get('retry-after')]).toEqual([503, '4']);
  });

  it('--data: every acknowledged write survives SIGKILL of the process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engage-cli-'));
    try {
      const file = join(dir, 'state.jsonl');
      const first = await launch(['--port', '0', '--data', file]);
      const headers = { 'content-type': 'application/json', authorization: basic('emulator-personalize-key'), 'svc-appkey': 'ENGAGEDEMO01' };
      const acknowledged: string[] = [];
      for (let i = 0; i < 20; i++) {
        const body = xpBody();
        const res = await fetch(`${first.url}/v1/experiences/events`, { method: 'POST', headers, body: JSON.stringify(body) });
        if (res.status === 200) acknowledged.push((body.elements[0]!.actions[0] as { svc_event_uuid: string }).svc_event_uuid);
      }
      const child = running.pop()!;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const second = await launch(['--port', '0', '--data', file]);
      const stored = await (await fetch(`${second.url}/_emulator/experience-events`)).json();
      expect(acknowledged).toHaveLength(20);
      expect(stored.events.map((e: { svc_event_uuid: string }) => e.svc_event_uuid)).toEqual(acknowledged);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad flags with a clear message and exit code 2', async () => {
    await expect(launch(['--fault-ratio', '3'])).rejects.toThrow(/exited 2: engage-emulator: --fault-ratio must be a number from 0 to 1/);
  });
});
