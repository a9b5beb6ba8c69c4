// engage-proxy behaves like a CLI (issue 43): --help says what it reads and exits 0, an unknown
// flag is refused by name, --port and --base-path win over the environment. The built CLI in a
// process of its own, as `npx engage-proxy` runs it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArgs, HELP } from '../../src/proxy/node/cli-args';
import { ROOT } from '../support/packed';

const CLI = join(ROOT, 'dist/proxy-cli.js');
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 15_000 });

describe('engage-proxy flags', () => {
  it('--help prints every variable it reads, with defaults, and exits 0 (no variable set)', () => {
    for (const flag of ['--help', '-h']) {
      const result = run([flag]);
      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
      expect(result.stdout).toContain('Usage: engage-proxy');
      expect(result.stdout).toContain('(default 8787)');
    }
    // Every ENGAGE_* name the environment reader knows is in the help, so a new variable without a
    // line there fails here.
    const source = readFileSync(join(ROOT, 'src/proxy/node/env-config.ts'), 'utf8');
    const names = [...new Set(source.match(/ENGAGE_[A-Z_]+/g))].sort();
    const missing = names.filter((name) => !new RegExp(`^  ${name} `, 'm').test(HELP));
    expect(names.length).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it('an unknown flag exits non-zero and names the flag; so does a stray argument', () => {
    const result = run(['--prot', '9999'], { ENGAGE_WORKSPACE_ID: 'w', ENGAGE_PERSONALIZE_KEY: 'k', ENGAGE_SDK_URL: 'http://127.0.0.1:9' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown flag '--prot'");
    expect(result.stdout).toBe('');
    const stray = run(['serve']);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toContain("'serve'");
  });

  it('a missing variable still stops it, and points at --help', () => {
    const result = run([]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('missing environment variables: ENGAGE_WORKSPACE_ID');
    expect(result.stderr).toContain('engage-proxy --help');
  });

  it('--port, --host and --base-path win over PORT, HOST and ENGAGE_BASE_PATH; nothing else is taken from argv', () => {
    const env = { PORT: '1', HOST: '0.0.0.0', ENGAGE_BASE_PATH: '/old', KEEP: 'x' };
    expect(cliArgs(['--port', '9999', '--host=127.0.0.1', '--base-path', '/engage'], env)).toEqual({
      help: false,
      env: { PORT: '9999', HOST: '127.0.0.1', ENGAGE_BASE_PATH: '/engage', KEEP: 'x' },
    });
    expect(cliArgs([], env)).toEqual({ help: false, env });
    expect(cliArgs(['--data-key', 'secret'], env)).toEqual({ error: "unknown flag '--data-key' (engage-proxy --help lists the flags)" });
    expect(cliArgs(['--port'], env)).toMatchObject({ error: expect.stringContaining("'--port") });
  });
});
