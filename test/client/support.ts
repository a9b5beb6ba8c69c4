// The real stack for the client tests: the emulator (upstream stand-in) and the proxy, each
// served on 127.0.0.1 port 0; the client talks to the proxy only, as a browser would.
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index';
import { createProxy } from '../../src/proxy/create-proxy';
import type { ProxyOptions } from '../../src/proxy/types';
import { serve } from '../../src/proxy/node/serve';

export const ADMIN_TOKEN = 'test-admin-token';

export interface Stack {
  /** The proxy's base URL: the client's `endpoint`. */
  endpoint: string;
  emulator: Emulator;
  emulatorUrl: string;
  /** Emulator request log entries for one operation. */
  requests(operation: string): Array<{ status: number | 'reset'; path: string }>;
  close(): Promise<void>;
}

/**
 * @param options.emulator createEmulator options
 * @param options.proxy extra createProxy options
 */
export async function startStack(options: { emulator?: EmulatorOptions; proxy?: Partial<ProxyOptions> } = {}): Promise<Stack> {
  const emulator = createEmulator(options.emulator ?? {});
  const upstream = await serve(emulator.handler, { port: 0 });
  const proxy = createProxy({
    workspaceId: emulator.workspaceId,
    keys: { ...emulator.keys },
    baseUrl: upstream.url,
    sdkUrl: upstream.url,
    fileImportsUrl: upstream.url,
    basePath: '/engage',
    operations: ['users', 'events', 'campaignUpdate', 'fileImportStatus'],
    // Administrative operations need a caller the app trusts: here, a bearer token.
    authorize: (request) => request.headers.get('authorization') === `Bearer ${ADMIN_TOKEN}`,
    ...options.proxy,
  });
  const site = await serve(proxy, { port: 0 });
  return {
    endpoint: `${site.url}/engage`,
    emulator,
    emulatorUrl: upstream.url,
    requests: (operation) => emulator.getRequests().requests.filter((r) => r.operation === operation),
    async close() {
      await Promise.all([site.close(), upstream.close()]);
      emulator.close();
    },
  };
}

/** Waits for a promise to reject and returns the reason (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}
