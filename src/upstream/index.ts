// The upstream's rules, shared by the emulator, the proxy and the typed client. Pure and
// browser-safe: no `node:` imports, nothing runs at import time. Import from the concept's
// own file when bundle size matters; this index lists every public name for review.
export type { Problem, IdentityResolution, ValidateOptions } from './problem';
export { checkJsonShape } from './problem';
export type { Operation, KeyTile, OperationSpec, RouteMatch } from './operations';
export { OPERATIONS, OPERATION_NAMES, matchUpstreamPath, matchProxyPath, upstreamPathFor, isSafeCampaignId } from './operations';
export type { ErrorInput, ErrorResponseInit } from './error-bodies';
export {
  errorBody,
  errorResponse,
  problemMessage,
  upstreamMessage,
  MALFORMED_JSON_MESSAGE,
  FILE_IMPORT_MESSAGES,
  requestId,
  MISSING_ATTRIBUTE,
  MALFORMED_JSON,
  INVALID_ATTRIBUTE,
  FILE_IMPORT_ENUM_ERROR,
} from './error-bodies';
export {
  validateExperienceEvents,
  recordedPlatform,
  EXPERIENCE_ACTIONS,
  EXPERIENCE_PLATFORMS,
  EXPERIENCE_ATTRIBUTES,
  MAX_EXPERIENCE_ELEMENTS,
  MAX_TIMEZONE_OFFSET,
} from './experience-events';
export {
  validateUser,
  checkCustomerId,
  isDateValue,
  USER_PLATFORMS,
  BLOCKED_ATTRIBUTE_NAMES,
  SYSTEM_USER_ATTRIBUTES,
  BLOCKED_CUSTOMER_IDS,
  STANDARD_USER_ATTRIBUTES,
  EMAIL_OPTIN_STATUSES,
} from './users';
export { validateEvents, eventTimeMs, EVENT_PLATFORMS, TV_OS_TYPES, EVENTS_PER_MINUTE } from './events';
export type { CampaignChannel, CampaignUpdateOptions } from './campaign-update';
export {
  validateCampaignUpdate,
  PUSH_UPDATE_FIELDS,
  EMAIL_UPDATE_FIELDS,
  ANDROID_TEMPLATE_TYPES,
  IOS_TEMPLATE_TYPES,
  CLICK_ACTIONS,
  PUSH_PLATFORMS,
  EMAIL_CONTENT_TYPES,
  DELIVERY_TYPES,
  SHERPA_METRICS,
  BUTTON_CLICK_ACTIONS,
  RICH_MEDIA_TYPES,
  IOS_AUDIENCE_FLAGS,
  ATTACHMENT_FILE_TYPES,
  EXECUTION_TYPES,
  PUSH_ADVANCED_VALUES,
  STANDARD_UTM_KEYS,
  MAX_CUSTOM_UTM_PARAMS,
} from './campaign-update';
export type { FileImportQuery, DateFormat } from './file-import-status';
export {
  validateFileImportStatus,
  parseFileImportQuery,
  parseImportDate,
  IMPORT_TYPES,
  SCHEDULE_TYPES,
  FILE_SOURCES,
  SCHEDULE_STATUSES,
  TERMINAL_STATUSES,
  DATE_FORMATS,
  FILE_IMPORT_PAGE_SIZE,
  FILE_IMPORT_REQUESTS_PER_MINUTE,
  MAX_DATE_RANGE_DAYS,
} from './file-import-status';
export type { ValidateOperationOptions } from './validate';
export { validate } from './validate';
