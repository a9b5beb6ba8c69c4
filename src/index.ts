// The browser entry: tracker, client, errors and their types. Re-exports only, each name listed.
export { createTracker } from './tracker/create-tracker';
export type {
  AttributeValue,
  ExperienceContext,
  ExtraAttributes,
  Tracker,
  TrackerOptions,
} from './tracker/types';
export {
  EngageError,
  ValidationError,
  HttpError,
  NetworkError,
  TimeoutError,
  AbortedError,
  StorageError,
  DroppedEventsError,
  isEngageError,
  isValidationError,
  isHttpError,
  isNetworkError,
  isTimeoutError,
  isAbortedError,
  isStorageError,
  isDroppedEventsError,
} from './errors';
export type { EngageErrorCode, UpstreamErrorDetail } from './errors';
