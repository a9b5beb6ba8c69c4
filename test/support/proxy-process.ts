// `engage-proxy` as users run it: the built CLI in its own process, configured from the
// environment only. For tests that need several real instances.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const CLI = resolve(import.meta.dirname, '../../dist/proxy-cli.js');

export interface ProxyProcess {
  /** `http://127.0.0.1:PORT` (routes under the configured ENGAGE_BASE_PATH). */
  url: string;
  /** Everything the process printed so far, stdout and stderr. */
  output: string[];
  stop(): Promise<void>;
}

/** Starts the built CLI on an ephemeral port and resolves once it says it is listening. */
export async function startProxyProcess(env: Record<string, string>): Promise<ProxyProcess> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const child: ChildProcess = spawn(process.execPath, [CLI], { env: { PATH: process.env.PATH, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`engage-proxy did not start:\n${output.join('\n')}`)), 15_000);
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        output.push(line);
        const match = /listening on (http:\/\/[\d.:]+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolveUrl(match[1]!);
        }
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`engage-proxy exited with ${code}:\n${output.join('\n')}`));
    });
  });
  return {
    url,
    output,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
