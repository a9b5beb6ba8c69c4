// engage-proxy's command line: `--help`, and the three flags that say where it serves. Everything
// else is read from the environment (env-config.ts). Keys are never flags: a command line is
// visible to every user of the machine (`ps`), an environment is not.
import { parseArgs } from 'node:util';

/** What `engage-proxy --help` prints: every variable it reads, with its default. */
export const HELP = `Usage: engage-proxy [--port N] [--host H] [--base-path /engage]
       engage-proxy --help

Serves the engage-sdk proxy on Node. Flags win over the environment; keys are read from the
environment only (a command line is visible to every user of the machine).

  --port N             as PORT                (default 8787)
  --host H             as HOST                (default 127.0.0.1)
  --base-path P        as ENGAGE_BASE_PATH    (default none: /v1/... at the root)
  -h, --help           print this and exit

Environment (https://github.com/engage-sdk/engage-sdk/blob/main/docs/proxy-node.md, also in
node_modules/engage-sdk/docs/proxy-node.md):
  ENGAGE_WORKSPACE_ID          workspace ID (required)
  ENGAGE_PERSONALIZE_KEY       key for experience events (required by experienceEvents)
  ENGAGE_DATA_KEY              key for users, events, file imports (when enabled)
  ENGAGE_CAMPAIGN_KEY          key for campaign updates (when enabled)
  ENGAGE_SDK_URL               upstream origin of experience events (required by experienceEvents)
  ENGAGE_BASE_URL              upstream origin of users, events, campaigns (when enabled)
  ENGAGE_FILEIMPORTS_URL       upstream origin of file imports (when enabled)
  ENGAGE_OPERATIONS            comma-separated operations served (default experienceEvents)
  ENGAGE_ADMIN_TOKEN           bearer token of campaignUpdate, fileImportStatus (default none)
  ENGAGE_BASE_PATH             mount prefix, e.g. /engage (default none)
  ENGAGE_ALLOWED_ORIGINS       comma-separated origins allowed besides the proxy's own
                               (default none: same origin only; a dev server's proxy with
                               changeOrigin needs its origin here, e.g. http://localhost:5173)
  ENGAGE_ALLOWED_HEADERS       extra request headers a cross-origin page may send (default none)
  ENGAGE_TRUSTED_PROXIES       comma-separated addresses whose X-Forwarded-* are believed (default none)
  ENGAGE_RATE_LIMITS           off, or rules like experienceEvents.client=600/min (default: built-in)
  ENGAGE_REDIS_URL             redis://... store shared by several instances (default: memory)
  ENGAGE_WORKERS               processes, or auto (default 1; more needs ENGAGE_REDIS_URL)
  ENGAGE_STORE_FAILURE         forward or retry (default forward)
  ENGAGE_REQUEST_TIMEOUT_MS    headers and body within it, else 408 (default 10000)
  ENGAGE_UPSTREAM_CONCURRENCY  upstream requests in flight per origin (default 512)
  ENGAGE_UPSTREAM_QUEUE        requests waiting for one (default 512)
  ENGAGE_RETRY_BUDGET          share of requests retried upstream, 0-1 (default 0.2)
  ENGAGE_BOTS                  drop or forward crawlers' experience events (default drop)
  ENGAGE_LOG_FORMAT            text or json (default text)
  ENGAGE_LOG_LEVEL             info, warn, error or off (default info)
  ENGAGE_PROBE_PORT            a second port for /healthz, /readyz, /metrics (default none)
  PORT                         port (default 8787)
  HOST                         address (default 127.0.0.1)

Outside the base path it answers GET /healthz, /readyz and /metrics.`;

export type CliArgs = { help: true } | { help: false; env: Record<string, string | undefined> } | { error: string };

/**
 * Reads `engage-proxy`'s arguments over `env`: `--help`, or the environment with the flags written
 * into it (`--port` → PORT, `--host` → HOST, `--base-path` → ENGAGE_BASE_PATH), so env-config.ts
 * stays the one place values are checked. Anything else is refused by name.
 *
 * @example
 * cliArgs(['--port', '9999'], process.env); // { help: false, env: { ...process.env, PORT: '9999' } }
 */
export function cliArgs(argv: string[], env: Record<string, string | undefined>): CliArgs {
  let values: { port?: string; host?: string; 'base-path'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { port: { type: 'string' }, host: { type: 'string' }, 'base-path': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    const message = (error as Error).message;
    // Node's messages quote the flag: "Unknown option '--prot'. To specify a positional…".
    const flag = /'([^']+)'/.exec(message)?.[1];
    if (/unknown option/i.test(message)) return { error: `unknown flag '${flag}' (engage-proxy --help lists the flags)` };
    if (/unexpected argument/i.test(message)) return { error: `unexpected argument '${flag}': engage-proxy takes flags only (engage-proxy --help)` };
    return { error: `${message.split('. ')[0]} (engage-proxy --help)` };
  }
  if (values.help) return { help: true };
  const flags: Record<string, string> = {};
  if (values.port !== undefined) flags.PORT = values.port;
  if (values.host !== undefined) flags.HOST = values.host;
  if (values['base-path'] !== undefined) flags.ENGAGE_BASE_PATH = values['base-path'];
  return { help: false, env: { ...env, ...flags } };
}
