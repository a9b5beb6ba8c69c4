// The browser entry: tracker, client, errors and their types. Re-exports only, each name listed.
export { createTracker } from './tracker/create-tracker';
// Viewability is its own export that takes the tracker, so a bundle importing only createTracker
// does not carry it, nor the page views it counts impressions in. (impressionKey stays private: an
// implementation detail of a page view's memory.)
export { autoObserve, observe } from './tracker/observe';
export type { ObserveOptions, Recorder } from './tracker/observe';
export { followPageViews, startPageView } from './tracker/page-view';
export type { PageViewFollow } from './tracker/page-view';
// What happens to a tracker's events and placements, for inspectors and dashboards (tap.ts, the
// wire the tracker reports on, stays private: its numbers are not a contract).
export { onLifecycle, trackerState } from './tracker/lifecycle';
export type { LifecycleEvent, LifecycleListener, LifecycleRecord, LossReason, NotSeen, TrackerState } from './tracker/lifecycle';
export type { AttributeValue, ConsentState, ExperienceContext, ExtraAttributes, Tracker, TrackerOptions } from './tracker/types';
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
// Typed client (users, events, campaign update, file-import status). `createFileImports` is the
// file-import part alone, for apps that need only that. Internals (transport, wire) stay private.
export { createClient } from './client/create-client';
export { createFileImports } from './client/file-imports';
export { parseUpstreamError } from './client/parse-error';
export { RETRY_RULES } from './client/retry-policy';
export type { ClientOperation, RetryRule } from './client/retry-policy';
export type {
  AcceptedResponse,
  AndroidPushContent,
  ArrayFieldEdit,
  AttributeScalar,
  AttributeValue as ClientAttributeValue,
  ButtonClickAction,
  CallOptions,
  CampaignsApi,
  CampaignUpdate,
  ClickAction,
  Client,
  ClientOptions,
  EmailCampaignContent,
  EmailCampaignUpdate,
  EventAction,
  EventPlatform,
  EventsApi,
  EventTime,
  EventUser,
  FileImport,
  FileImportFilter,
  FileImportPage,
  FileImportsApi,
  FileSource,
  FilterGroup,
  IdentityResolutionOption,
  ImportDateFormat,
  ImportProgress,
  ImportStatus,
  ImportType,
  IosPushContent,
  PushButton,
  PushCampaignContent,
  PushCampaignUpdate,
  PushPlatform,
  ScheduleType,
  SchedulingDetails,
  TerminalImportStatus,
  TransportOptions,
  TriggerCondition,
  TvOsType,
  UserAttributes,
  UserPlatform,
  UserPlatformName,
  UsersApi,
  UserUpsert,
  VariationDetails,
  WatchOptions,
  WebPushContent,
} from './client/types';
