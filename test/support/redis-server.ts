// A real redis-server (Debian's, or REDIS_SERVER_PATH) for the tests and benches that claim Redis
// behaviour: on a free 127.0.0.1 port, nothing persisted, stopped by its pid. Never a mock, never
// skipped: a missing binary fails with the command that installs it (scripts/ensure-redis.sh
// runs it for `npm test`).
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export const REDIS_SERVER_PATH = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
const INSTALL = 'apt-get update && apt-get install -y --no-install-recommends redis-server (or set REDIS_SERVER_PATH)';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The running process's id (changes on each start). */
  pid(): number | undefined;
  /** Stops the server (SIGTERM, then SIGKILL after 2 s); resolves once it exited. */
  stop(): Promise<void>;
  /** Kills the server (SIGKILL, a crash); resolves once it exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  start(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** Sends one command over a fresh connection and returns the raw RESP reply (for INFO, MEMORY…). */
  command(...args: string[]): Promise<string>;
}

const running = new Set<ChildProcess>();
const tempDirs: string[] = [];
let exitHookInstalled = false;

export interface RedisServerOptions {
  /** The redis-server binary. @default REDIS_SERVER_PATH or /usr/bin/redis-server */
  binary?: string;
  /** More redis-server arguments, e.g. `['--requirepass', 'secret']`. */
  args?: string[];
}

/** Starts a redis-server on a free loopback port and waits until it answers (PING, or NOAUTH). */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = options.binary ?? REDIS_SERVER_PATH;
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    throw new Error(`redis-server not found at ${binary}. Install it: ${INSTALL}`);
  }
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A crashed test run must not leave servers behind.
    process.once('exit', () => {
      for (const child of running) child.kill('SIGKILL');
      for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
    });
  }
  const dir = mkdtempSync(join(tmpdir(), 'engage-redis-'));
  tempDirs.push(dir);
  let port = await freePort();
  let child: ChildProcess | undefined;

  async function launch(): Promise<void> {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning', ...(options.args ?? [])];
    const proc = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    running.add(proc);
    let output = '';
    proc.stdout.on('data', (chunk) => (output += chunk));
    proc.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<never>((_, reject) => {
      proc.once('exit', (code, signal) => reject(new Error(`redis-server exited (${code ?? signal}) before answering:\n${output.slice(-2000)}`)));
      proc.once('error', reject);
    });
    exited.catch(() => {});
    const deadline = Date.now() + 10_000;
    for (;;) {
      const answer = await Promise.race([send(port, ['PING']).catch(() => ''), exited]);
      if (answer.startsWith('+PONG') || answer.startsWith('-NOAUTH')) return;
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within 10 s:\n${output.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async function stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGCONT'); // a paused server cannot handle SIGTERM
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 2_000);
    await gone;
    clearTimeout(timer);
    running.delete(proc);
  }

  // The free port is picked before redis binds it: if another process took it meanwhile, try
  // another (only on the first start; a restart must keep its port).
  for (let attempt = 0; ; attempt++) {
    try {
      await launch();
      break;
    } catch (error) {
      await stop();
      if (attempt === 4 || !/in use/i.test(String((error as Error).message))) throw error;
      port = await freePort();
    }
  }

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => child?.pid,
    stop: () => stop('SIGTERM'),
    kill: () => stop('SIGKILL'),
    start: async () => {
      if (child) return;
      await launch();
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    command: (...args) => send(port, args),
  };
}

/** One RESP command over a fresh connection; resolves with the first complete reply. */
function send(port: number, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    socket.setTimeout(2_000, () => socket.destroy(new Error('no reply within 2 s')));
    socket.on('connect', () => {
      socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
    });
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (complete(reply)) {
        socket.end();
        resolve(reply);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('connection closed before a reply')));
  });
}

// Enough of RESP for PING, INFO (bulk string) and integer/simple/error replies.
function complete(reply: string): boolean {
  if (/^[+\-:]/.test(reply)) return reply.endsWith('\r\n');
  const bulk = /^\$(-?\d+)\r\n/.exec(reply);
  if (!bulk) return false;
  const length = Number(bulk[1]);
  return length < 0 || Buffer.byteLength(reply) >= bulk[0].length + length + 2;
}
