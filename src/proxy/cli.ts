// engage-proxy: the proxy on Node, configured from ENGAGE_* environment variables (see env-config.ts).
import process from 'node:process';
import { serve } from '../serve-node';
import { createProxy } from './create-proxy';
import { configFromEnv } from './env-config';
import type { ProxyLogEntry } from './types';

async function main(): Promise<void> {
  const config = configFromEnv(process.env);
  if ('errors' in config) {
    for (const error of config.errors) console.error(`engage-proxy: ${error}`);
    process.exitCode = 1;
    return;
  }
  let proxy;
  try {
    proxy = createProxy({ ...config.options, logger: print });
  } catch (error) {
    // createProxy's messages name options and never carry a key.
    console.error(`engage-proxy: ${(error as Error).message}`);
    process.exitCode = 1;
    return;
  }
  const server = await serve(proxy, { port: config.port, host: config.host });
  const ops = config.options.operations!.join(', ');
  console.log(`engage-proxy: listening on ${server.url}${config.options.basePath} for workspace ${config.options.workspaceId} (${ops})`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

// One line per request; entries carry no keys, bodies or header values by construction.
function print(entry: ProxyLogEntry): void {
  const extras = [
    entry.operation && `op=${entry.operation}`,
    entry.upstreamStatus !== undefined && `upstream=${entry.upstreamStatus}`,
    entry.attempts !== undefined && entry.attempts > 1 && `attempts=${entry.attempts}`,
    entry.deduplicated && `dedup=${entry.deduplicated}`,
    entry.clientAddress && `client=${entry.clientAddress}`,
  ].filter(Boolean);
  const line = `${entry.status} ${entry.method} ${entry.path} ${entry.durationMs}ms ${extras.join(' ')}${entry.level === 'info' ? '' : ` ${entry.level}: ${entry.message}`}`;
  (entry.level === 'info' ? console.log : console.error)(line.trimEnd());
}

main().catch((error: unknown) => {
  console.error(`engage-proxy: could not start: ${(error as Error)?.message ?? 'unknown error'}`);
  process.exitCode = 1;
});
