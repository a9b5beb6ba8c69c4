// engage-emulator: serves the emulator on a port and prints what a proxy needs to talk to it.
import { parseArgs } from 'node:util';
import { serve } from '../proxy/node/serve';
import { createEmulator } from './create-emulator';
import type { FaultSpec, FaultStatus } from './faults';
import type { EmulatorOptions } from './types';

const USAGE = `Usage: engage-emulator [--port N] [--host H] [--workspace-id ID] [--data-key K]
       [--personalize-key K] [--campaign-key K] [--data FILE] [--identity-resolution a,b]
       [--fault-ratio R] [--fault-statuses 500,503,429,reset] [--fault-latency MS]
       [--fault-retry-after S] [--seed N] [--no-limits]
Environment: PORT, ENGAGE_WORKSPACE_ID, ENGAGE_DATA_KEY, ENGAGE_PERSONALIZE_KEY, ENGAGE_CAMPAIGN_KEY,
             ENGAGE_EMULATOR_DATA (flags win over the environment).`;

function fail(message: string): never {
  console.error(`engage-emulator: ${message}\n${USAGE}`);
  process.exit(2);
}

function number(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) fail(`--${name} must be a number from ${min} to ${max}`);
  return n;
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'workspace-id': { type: 'string' },
        'data-key': { type: 'string' },
        'personalize-key': { type: 'string' },
        'campaign-key': { type: 'string' },
        data: { type: 'string' },
        'identity-resolution': { type: 'string' },
        'fault-ratio': { type: 'string' },
        'fault-statuses': { type: 'string' },
        'fault-latency': { type: 'string' },
        'fault-retry-after': { type: 'string' },
        seed: { type: 'string' },
        'no-limits': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const str = (key: string) => values[key] as string | undefined;
  const env = process.env;
  const port = number('port', str('port') ?? env.PORT ?? '8790', 0, 65535)!;

  let faults: FaultSpec | undefined;
  const ratio = number('fault-ratio', str('fault-ratio'), 0, 1);
  const latency = number('fault-latency', str('fault-latency'), 0, 60_000);
  const retryAfter = number('fault-retry-after', str('fault-retry-after'), 0, 86_400);
  const statusesFlag = str('fault-statuses');
  if (ratio !== undefined || latency !== undefined || statusesFlag !== undefined) {
    faults = {};
    if (ratio !== undefined) faults.ratio = ratio;
    if (latency !== undefined) faults.latencyMs = latency;
    if (retryAfter !== undefined) faults.retryAfterSeconds = retryAfter;
    if (statusesFlag !== undefined) {
      faults.statuses = statusesFlag.split(',').map((part): FaultStatus => {
        const token = part.trim();
        if (token === 'reset' || token === 'reset-after') return token;
        const status = Number(token);
        if (!Number.isInteger(status) || status < 400 || status > 599) fail(`--fault-statuses: "${token}" is not a status from 400 to 599, reset or reset-after`);
        return status;
      });
    }
  }
  const identifiers = str('identity-resolution');
  const options: EmulatorOptions = {
    workspaceId: str('workspace-id') ?? env.ENGAGE_WORKSPACE_ID,
    keys: {
      data: str('data-key') ?? env.ENGAGE_DATA_KEY,
      personalize: str('personalize-key') ?? env.ENGAGE_PERSONALIZE_KEY,
      campaign: str('campaign-key') ?? env.ENGAGE_CAMPAIGN_KEY,
    },
    seed: number('seed', str('seed'), 0, 2 ** 32 - 1),
    dataFile: str('data') ?? env.ENGAGE_EMULATOR_DATA,
    identityResolution: identifiers
      ? {
          identifiers: identifiers
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        }
      : undefined,
    faults,
    limits: values['no-limits'] ? false : undefined,
  };
  const emulator = createEmulator(options);
  const server = await serve(emulator.handler, { port, host: str('host') ?? '127.0.0.1' });
  const keys = emulator.keys;
  // Printing the keys is this command's purpose: they are local emulator keys, to paste into a proxy's env.
  console.log(`engage-emulator listening on ${server.url}
  workspace ID     ${emulator.workspaceId}
  data key         ${keys.data}
  personalize key  ${keys.personalize}
  campaign key     ${keys.campaign}
  admin API        ${server.url}/_emulator/
  data file        ${options.dataFile ?? '(memory only)'}${faults ? `\n  faults           ${JSON.stringify(emulator.getFaults())}` : ''}`);
  const stop = () => {
    void server.close().then(() => {
      emulator.close();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main().catch((error: unknown) => {
  console.error(`engage-emulator: ${(error as Error).message}`);
  process.exit(1);
});
