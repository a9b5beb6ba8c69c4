// `engage-sdk/react`: the React binding (React 18 and 19, an optional peer dependency). Re-exports
// only, each name listed. Nothing of React is in any other entry.
export { EngageProvider, useTracker } from './tracker-context';
export type { EngageProviderProps } from './tracker-context';
export { useExperience } from './use-experience';
export { Experience } from './experience';
export type { ExperienceProps } from './experience';
