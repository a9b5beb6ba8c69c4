// `engage-sdk/inspect`: the inspection mode for bundled apps, an entry of its own so that no other
// bundle carries any of it. Re-exports only.
export { inspect } from './inspect';
export type { InspectOptions } from './inspect';
