// createEmulator: options → the emulator's parts → the pipeline, and the in-code twins of the
// admin routes over the same parts.
import type { Keys } from './auth';
import { campaignSummary } from './campaigns';
import { Faults } from './faults';
import { Limits } from './pipeline/limits';
import { createPipeline } from './pipeline/pipeline';
import { RequestLog } from './request-log';
import { EmulatorState } from './state';
import type { Emulator, EmulatorControls, EmulatorOptions } from './types';

/**
 * A faithful local stand-in for the upstream API: all five operations on one origin, with the
 * upstream's rules and error bodies, key rotation, rate limits, fault injection and an admin API
 * under `/_emulator/`. Works with no options at all.
 *
 * @example
 * const emulator = createEmulator();
 * const server = await serve(emulator.handler, { port: 0 });
 * // baseUrl = sdkUrl = fileImportsUrl = server.url; Basic auth 'ENGAGEDEMO01' : emulator.keys.personalize
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const workspaceId = options.workspaceId ?? 'ENGAGEDEMO01';
  const keys: Keys = {
    data: options.keys?.data ?? 'emulator-data-key',
    personalize: options.keys?.personalize ?? 'emulator-personalize-key',
    campaign: options.keys?.campaign ?? 'emulator-campaign-key',
  };
  const clock = options.now ?? Date.now;
  const seed = options.seed ?? 1;
  const faults = new Faults(clock, seed);
  if (options.faults) faults.set(options.faults);
  const limits = new Limits(options.limits);
  const requests = new RequestLog(options.requestLogSize ?? 10_000, clock);
  // Replays the journal before serving anything, then keeps appending to it.
  const state = new EmulatorState(keys, { seed, clock, identityResolution: options.identityResolution, dataFile: options.dataFile });

  const controls: EmulatorControls = {
    workspaceId,
    get keys() {
      return { ...keys };
    },
    rotateKey: (tile) => state.rotateKey(tile),
    setFaults: (spec) => faults.set(spec),
    clearFaults: () => faults.clear(),
    getFaults: () => faults.current() ?? null,
    reset() {
      state.reset();
      requests.clear();
      faults.clear();
      limits.clear();
    },
    getExperienceEvents: () => ({ unique: state.store.experience.size, duplicates: state.store.duplicates, events: [...state.store.experience.values()] }),
    getUsers: () => ({ count: state.store.users.size, skipped_updates: state.store.skippedUserUpdates, users: [...state.store.users.values()] }),
    getEvents: () => ({ count: state.store.events.length, events: [...state.store.events] }),
    getCampaigns: () => ({ campaigns: [...state.store.campaigns.values()].map(campaignSummary) }),
    getCampaign: (id) => state.store.campaigns.get(id),
    getRequests: () => ({ requests: requests.list() }),
    createFileImport: (spec) => state.createFileImport(spec),
    close: () => state.close(),
  };
  const handler = createPipeline(
    { workspaceId, clock, state, faults, limits, requests, futureSkewSeconds: options.futureSkewSeconds ?? 60, identityResolution: options.identityResolution },
    controls,
  );
  return Object.assign(controls, { handler });
}
