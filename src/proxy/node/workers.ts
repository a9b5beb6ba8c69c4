// ENGAGE_WORKERS: several processes of engage-proxy on one port (node:cluster), every core busy.
// Only with a shared store: each process's memory would know only its own forwards.
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { ProxyMetrics } from './metrics';

const ASK = 'engage-proxy:metrics';
const ANSWER = 'engage-proxy:metrics-answer';
type Message = { type?: unknown; id?: number; text?: string };

/**
 * The primary: forks `count` workers of this script, calls `onListening` once all of them
 * listen, starts another when one dies (after 100 ms, doubling to 10 s while they keep dying
 * young), answers their requests for the metrics of all workers, and stops them on SIGTERM/SIGINT.
 */
export function runPrimary(count: number, onListening: (where: { address: string; port: number }) => void): void {
  const aggregator = new AggregatorRegistry();
  const born = new Map<Worker, number>();
  let stopping = false;
  let listening = 0;
  let delay = 100;
  const fork = () => born.set(cluster.fork(), Date.now());
  for (let i = 0; i < count; i++) fork();

  const listened = new WeakSet<Worker>();
  cluster.on('listening', (worker, address) => {
    // A worker's first port is the proxy's (ENGAGE_PROBE_PORT's, when set, comes after it).
    if (listened.has(worker)) return;
    listened.add(worker);
    if (++listening === count) onListening(address);
  });
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (born.get(worker) ?? 0);
    born.delete(worker);
    if (stopping) {
      if (born.size === 0) process.exit(0);
      return;
    }
    delay = lived > 10_000 ? 100 : Math.min(delay * 2, 10_000);
    console.error(`engage-proxy: worker ${worker.process.pid} exited (${signal ?? code}); starting another in ${delay} ms`);
    setTimeout(fork, delay);
  });
  cluster.on('message', (worker, message: Message) => {
    if (message?.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      () => worker.send({ type: ANSWER, id: message.id }),
    );
  });
  const stop = () => {
    stopping = true;
    for (const worker of born.keys()) worker.process.kill('SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * In a worker: `/metrics` as the sum over every worker (prom-client aggregates counters and
 * histograms in the primary), whichever worker a scrape reaches.
 */
export function clusterMetrics(local: ProxyMetrics): Pick<ProxyMetrics, 'contentType' | 'render'> {
  AggregatorRegistry.setRegistries([local.registry]);
  // Constructed for its side effect: the worker then answers the primary's collection requests.
  void new AggregatorRegistry();
  const waiting = new Map<number, (text: string | undefined) => void>();
  let next = 0;
  process.on('message', (message: Message) => {
    if (message?.type !== ANSWER || message.id === undefined) return;
    waiting.get(message.id)?.(message.text);
    waiting.delete(message.id);
  });
  return {
    contentType: local.contentType,
    render: () =>
      new Promise((resolve, reject) => {
        const id = next++;
        const timer = setTimeout(() => waiting.delete(id) && reject(new Error('metrics: the primary did not answer')), 5_000);
        waiting.set(id, (text) => {
          clearTimeout(timer);
          if (text === undefined) reject(new Error('metrics: a worker did not answer'));
          else resolve(text);
        });
        process.send!({ type: ASK, id });
      }),
  };
}
