// The browser entry: tracker, client, errors and their types. Re-exports only, each name listed.
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
