// Node entry for the emulator (engage-sdk/emulator). Lists every public name explicitly.
export { createEmulator } from './create-emulator';
export { DEFAULT_LIMITS } from './pipeline/limits';
export type { Emulator, EmulatorOptions, EmulatorLimits, RequestLogEntry } from './types';
export type { Keys } from './auth';
export type { FaultSpec, FaultState, FaultStatus } from './faults';
export type { Campaign, CampaignOrigin, CampaignStatus, SchedulingType } from './seed-campaigns';
export type { ImportRecord, LiveImportSpec } from './file-imports';
export type { ExperienceEventRecord, UserProfile, EventRecord } from './store';
export { serve } from '../proxy/node/serve';
export type { Handler, ConnectionInfo, ServeOptions, RunningServer } from '../proxy/node/serve';
