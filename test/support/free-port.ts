import { createServer } from 'node:net';

/**
 * A free loopback port, for a server that must be told its port before it starts (redis-server,
 * WebKitWebDriver, `next start`, a Vite dev server, nginx, Prometheus). Suites run side by side
 * (the engines, the Node suite a file per core), so no port is ever fixed or derived.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
