// Servers as separate processes for the benches, and the CPU time the kernel charged them.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

const TICK_US = 10_000; // USER_HZ is 100 on Linux

/** Starts `command` and resolves once `port` on 127.0.0.1 accepts connections. */
export async function start(command, args, { port, env = {}, quiet = true } = {}) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`bench: ${command} ${args.join(' ')} did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    pid: child.pid,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const accepts = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('error', () => resolve(false));
  });

/** CPU time (user + system, µs) of `pid` and every process below it (cluster workers, nginx's). */
export function cpuOfTree(pid) {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return 0;
  const fields = readFileSync(stat, 'utf8').split(') ')[1].split(' ');
  let total = (Number(fields[11]) + Number(fields[12])) * TICK_US;
  const children = `/proc/${pid}/task/${pid}/children`;
  if (existsSync(children)) for (const child of readFileSync(children, 'utf8').trim().split(/\s+/).filter(Boolean)) total += cpuOfTree(Number(child));
  return total;
}

let nextPort = 19_100 + (process.pid % 500) * 8;
/** A port for the next server, unlikely to collide with another run. */
export const freePort = () => nextPort++;
