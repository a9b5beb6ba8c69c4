// Types of the typed client: the request bodies of the four operations (upstream-shaped, with a
// few conveniences such as `Date` values), their answers and the client's options. Type-only
// module: it adds nothing to a bundle.

/** One attribute value: `Date` values are sent as ISO 8601 strings (the upstream stores them as dates). */
export type AttributeScalar = string | number | boolean | Date;
/** An attribute value: one scalar or a JSON array of scalars. */
export type AttributeValue = AttributeScalar | readonly AttributeScalar[];

// ---------------------------------------------------------------------------------------------
// Users

/** `platforms[].platform` values (case-sensitive upstream). */
export type UserPlatformName = 'ANDROID' | 'iOS' | 'web';

/** A platform the user is reachable on. */
export interface UserPlatform {
  platform: UserPlatformName;
  /** The **string** `"true"` or `"false"` (the upstream's rule); a boolean is refused. */
  active?: 'true' | 'false';
}

/** Attribute name → values to add to (or remove from) that array attribute. */
export type ArrayFieldEdit = Readonly<Record<string, readonly AttributeScalar[]>>;

/**
 * User attributes: the documented standard keys are typed; any other name is a custom attribute.
 * Names `id`, `_id` and `""` are blocked and names starting with `svc_` are reserved (except the
 * documented system attributes below): the client refuses them before sending.
 */
export interface UserAttributes {
  /** Full name. */
  u_n?: string;
  /** First name. */
  u_fn?: string;
  /** Last name. */
  u_ln?: string;
  /** Gender. */
  u_gd?: string;
  /** E-mail address. */
  u_em?: string;
  /** Mobile number, digits with the country code. */
  u_mb?: string;
  /** Birthday. */
  u_bd?: string | Date;
  uid?: string;
  /** `"lat lon"`. */
  geo?: string;
  push_preference?: boolean;
  svc_wa_subscription?: boolean;
  svc_em_unsub_categories?: string;
  svc_sub_w?: boolean;
  svc_spam?: boolean;
  svc_unsubscribe?: boolean;
  svc_hard_bounce?: boolean;
  svc_sms_subscription?: string;
  svc_email_optin_status?: 'DOUBLE_OPTED_IN' | 'OPTED_OUT' | 'OPT_IN_PENDING';
  /** Adds values to array attributes (must not name an attribute also in `removeValueFromArrayField`). */
  addValueToArrayField?: ArrayFieldEdit;
  /** Removes values from array attributes. */
  removeValueFromArrayField?: ArrayFieldEdit;
  /** The upstream's examples nest `platforms` here; the top-level `platforms` is the schema's place. */
  platforms?: readonly UserPlatform[];
  [name: string]: AttributeValue | ArrayFieldEdit | readonly UserPlatform[] | undefined;
}

interface UserFields {
  /** Filled in by the client. */
  type?: 'customer';
  attributes?: UserAttributes;
  platforms?: readonly UserPlatform[];
  /**
   * `true`: only update a user whose `customer_id` already exists, never create one.
   * @default false
   */
  update_existing_only?: boolean;
}

/**
 * The body of `users.upsert`. `customer_id` is required, unless the client was created with
 * `identityResolution` (then the attributes must carry at least one of its identifiers).
 */
export type UserUpsert<IdentityResolved extends boolean = false> = IdentityResolved extends true
  ? UserFields & { customer_id?: string }
  : UserFields & { customer_id: string };

/** The upstream's acceptance (users, events): processed asynchronously. */
export interface AcceptedResponse {
  status: 'success';
  message: string;
}

// ---------------------------------------------------------------------------------------------
// Events

/** `actions[].platform` values (matched case-insensitively upstream). */
export type EventPlatform = 'ANDROID' | 'iOS' | 'web' | 'TV' | 'unknown';
/** `svc_os_type` values, with platform `TV`. */
export type TvOsType = 'ROKU' | 'WebOS' | 'AndroidTV' | 'tvOS' | 'Tizen' | 'FireOS' | 'VizioTV' | 'Xbox';
/** An event time: a `Date`, an ISO 8601 string, or epoch **seconds**. */
export type EventTime = Date | string | number;

/** One event. Names starting with `svc_` are reserved; times in the future are refused. */
export interface EventAction {
  /** Event name, e.g. `Added to Cart`. */
  action: string;
  attributes?: Readonly<Record<string, AttributeValue>>;
  platform?: EventPlatform;
  svc_os_type?: TvOsType;
  app_version?: string;
  /** Local time of the event. */
  user_time?: EventTime;
  /** UTC time of the event. @default the upstream's receive time */
  current_time?: EventTime;
  /** Seconds east of UTC (IST = 19800), within ±54000. */
  user_timezone_offset?: number;
}

/** Who did the events: a `customer_id`, or identifiers (identity-resolution workspaces). */
export interface EventUser {
  customer_id?: string;
  /** e.g. `{ svc_mobile: '+919999999999' }`. */
  user_identifiers?: Readonly<Record<string, string | number>>;
  /** @default the `customer_id` (as the upstream does) */
  device_id?: string;
}

// ---------------------------------------------------------------------------------------------
// Campaign update (V1)

export type PushPlatform = 'ANDROID' | 'IOS' | 'WEB';
export type ClickAction = 'DEEPLINKING' | 'NAVIGATE_TO_A_SCREEN' | 'RICH_LANDING';
export type ButtonClickAction = ClickAction | 'CALL' | 'SHARE' | 'COPY' | 'SET_USER_ATTRIBUTE' | 'TRACK_EVENT' | 'CUSTOM_ACTION' | 'SNOOZE' | 'REMIND_LATER';

/** A push button. */
export interface PushButton {
  button_name?: string;
  click_action_type?: ButtonClickAction;
  click_action_value?: string;
  [key: string]: unknown;
}

/** Android push content. `custom_template_id` is required when `template_type` is `Custom`. */
export interface AndroidPushContent {
  template_type: 'BASIC' | 'STYLIZED_BASIC' | 'SIMPLE_IMAGE_CAROUSEL' | 'IMAGE_BANNER_WITH_TEXT' | 'TIMER' | 'TIMER_WITH_PROGRESS_BAR' | 'Custom';
  custom_template_id?: string;
  basic_details: {
    notification_channel: string;
    title: string;
    message: string;
    default_click_action: ClickAction;
    default_click_action_value: string;
    summary?: string;
    image_url?: string;
    [key: string]: unknown;
  };
  buttons?: readonly PushButton[];
  /** V1 Android spells it lowercase. */
  slider_transition?: 'manual' | 'automatic';
  [key: string]: unknown;
}

/** iOS push content. */
export interface IosPushContent {
  template_type: 'BASIC' | 'STYLIZED_BASIC' | 'SIMPLE_IMAGE_CAROUSEL' | 'Custom';
  custom_template_id?: string;
  basic_details: {
    title: string;
    message: string;
    subtitle?: string;
    rich_media_type?: 'Image' | 'Video' | 'GIF';
    default_click_action?: ClickAction;
    default_click_action_value?: string;
    [key: string]: unknown;
  };
  buttons?: readonly PushButton[];
  slider_transition?: 'MANUAL' | 'AUTOMATIC';
  [key: string]: unknown;
}

/** Web push content. */
export interface WebPushContent {
  template_type: 'BASIC';
  basic_details: { title: string; message: string; redirect_url: string; image_url?: string; [key: string]: unknown };
  buttons?: readonly PushButton[];
  [key: string]: unknown;
}

/** A/B variations. MANUAL needs `manual_distribution_percentage`; SHERPA the duration and metric. */
export type VariationDetails =
  | { distribution_type: 'MANUAL'; no_of_variations: number; manual_distribution_percentage: Readonly<Record<string, string>> }
  | {
      distribution_type: 'SHERPA';
      no_of_variations: number;
      sherpa_campaign_duration: number;
      sherpa_distribution_metric: 'OPEN RATE' | 'CLICK RATE' | 'BOTH';
    };

/**
 * Push `campaign_content`. Sent whole: to change one title, send the complete object with every
 * platform's content (what is left out is removed).
 */
export interface PushCampaignContent {
  content: { push: { android?: AndroidPushContent; ios?: IosPushContent; web?: WebPushContent } };
  locales?: readonly string[];
  variation_details?: VariationDetails;
}

/** Email `campaign_content`. Sent whole, like every object of an update. */
export interface EmailCampaignContent {
  content: {
    email: {
      subject: string;
      sender_name: string;
      from_address: string;
      reply_to_address: string;
      preview_text?: string;
      cc_ids?: readonly string[];
      bcc_ids?: readonly string[];
      html_content?: string;
      email_editor?: 'Froala Editor' | 'Ace Editor';
      custom_template_id?: string;
      custom_template_version?: number;
      attachments?: ReadonlyArray<{ file_type: 'URL' | 'PERSONALIZED_ATTACHMENT'; url: string }>;
      [key: string]: unknown;
    };
  };
  locales?: readonly string[];
  variation_details?: VariationDetails;
}

export interface FilterGroup {
  filter_operator: 'and' | 'or';
  filters: ReadonlyArray<
    | { filter_type: 'user_attributes'; data_type: 'string' | 'double' | 'datetime' | 'bool'; name: string; operator: string; [key: string]: unknown }
    | { filter_type: 'actions'; action_name: string; [key: string]: unknown }
    | { filter_type: 'custom_segments'; id: string | number; [key: string]: unknown }
  >;
}

export interface SchedulingDetails {
  delivery_type?: 'ASAP' | 'AT_FIXED_TIME' | 'SEND_IN_BTS' | 'SEND_IN_USER_TIMEZONE';
  /** UTC. A `Date` is sent as `YYYY-MM-DDTHH:mm:ss` (UTC, the upstream's example form). */
  start_time?: string | Date;
  /** UTC, as `start_time`. */
  expiry_time?: string | Date;
  periodic_details?: { sending_frequency?: 'DAILY' | 'WEEKLY' | 'MONTHLY'; [key: string]: unknown };
  [key: string]: unknown;
}

export interface TriggerCondition {
  trigger_delay_type?: 'DELAY' | 'ASAP' | 'INTELLIGENT_DELAY';
  trigger_delay_value?: number;
  trigger_delay_granularity?: 'MINUTES' | 'HOURS' | 'DAYS';
  trigger_relation?: 'BEFORE' | 'AFTER';
  included_filters?: FilterGroup;
  excluded_filters?: FilterGroup;
  [key: string]: unknown;
}

interface CampaignUpdateCommon {
  /**
   * The caller's id for this request. @default a fresh UUID v4, made by the client (the V1 API
   * requires one but documents no deduplication on it).
   */
  request_id?: string;
  /** E-mail address of who made the change (required). */
  updated_by: string;
  trigger_condition?: TriggerCondition;
  segmentation_details?: { included_filters?: FilterGroup; excluded_filters?: FilterGroup; [key: string]: unknown };
  scheduling_details?: SchedulingDetails;
  delivery_controls?: { campaign_throttle_rpm?: number; [key: string]: unknown };
  conversion_goal_details?: Readonly<Record<string, unknown>>;
  control_group_details?: { is_campaign_control_group_enabled?: boolean; campaign_control_group_percentage?: number; [key: string]: unknown };
  /** `utm_source` and `utm_medium` are required when the object is sent; at most 5 custom params. */
  utm_params?: { utm_source: string; utm_medium: string; [key: string]: unknown };
}

/**
 * Update of a push campaign (V1). Partial at the top level — fields not sent keep their values —
 * but **every object sent replaces the stored object whole**: to change a nested value (a push
 * title) send the complete parent object (`campaign_content` with all of its content).
 */
export interface PushCampaignUpdate extends CampaignUpdateCommon {
  channel: 'PUSH';
  basic_details?: {
    name: string;
    platforms: readonly PushPlatform[];
    platform_specific_details: {
      android?: { push_amp_plus_enabled?: boolean; [key: string]: unknown };
      ios?: {
        send_to_all_eligible_device?: boolean;
        exclude_provisional_push_devices?: boolean;
        send_to_only_provisional_push_enabled_devices?: boolean;
        [key: string]: unknown;
      };
      web?: Readonly<Record<string, unknown>>;
    };
    tags?: readonly string[];
    team?: string;
    business_event?: string;
    send_to_triggered_platform_only?: boolean;
  };
  campaign_content?: PushCampaignContent;
  advanced?: {
    expire_notification_after_type?: 'HOUR' | 'DAY';
    remove_from_inbox_after_type?: 'DAY';
    apns_priority?: '1' | '5' | '10';
    interruption_level?: 'Passive' | 'Active' | 'Time sensitive' | 'Critical';
    relevance_score?: 0 | 0.5 | 1;
    [key: string]: unknown;
  };
}

/**
 * Update of an email campaign (V1). Same merge rule as push: top-level fields not sent keep their
 * values; an object sent replaces the stored one whole.
 */
export interface EmailCampaignUpdate extends CampaignUpdateCommon {
  channel: 'EMAIL';
  basic_details?: {
    name: string;
    content_type: 'PROMOTIONAL' | 'TRANSACTIONAL';
    /** Required when `content_type` is `PROMOTIONAL`. */
    subscription_category?: string;
    /** @default 'SVC_EMAIL_ID' */
    user_attribute_identifier?: string;
    send_only_double_opt_in_users?: boolean;
    deduplication_attribute?: string;
    tags?: readonly string[];
    team?: string;
  };
  campaign_content?: EmailCampaignContent;
  connector?: Readonly<Record<string, unknown>>;
  campaign_audience_limit?: { limit?: number; metrics?: string; frequency?: string };
}

/** A campaign update: push or email, told apart by `channel`. */
export type CampaignUpdate = PushCampaignUpdate | EmailCampaignUpdate;

// ---------------------------------------------------------------------------------------------
// File imports

export type ImportType = 'USERS' | 'EVENTS' | 'AUX_DATA';
export type ScheduleType = 'PERIODIC' | 'ONETIME';
export type FileSource = 'SFTP' | 'S3' | 'CSV';
export type ImportStatus = 'SUCCESSFUL' | 'FAILED' | 'PARTIAL_SUCCESS' | 'SCHEDULED' | 'PROCESSING' | 'QUEUED' | 'ARCHIVED';
/** Statuses after which an import no longer changes. */
export type TerminalImportStatus = 'SUCCESSFUL' | 'FAILED' | 'PARTIAL_SUCCESS' | 'ARCHIVED';
/** The eight layouts `date.format` may name. */
export type ImportDateFormat =
  'YYYY-MM-DD' | 'YYYY/MM/DD' | 'DD/MM/YYYY' | 'DD-MM-YYYY' | 'DD-MM-YYYY hh:mm:ss' | 'DD/MM/YYYY hh:mm:ss' | 'YYYY-MM-DD hh:mm:ss' | 'YYYY/MM/DD hh:mm:ss';

type OneOrMany<T> = T | readonly T[];

/** Filter of `fileImports.status`. `{}` lists every import. */
export interface FileImportFilter {
  import_name?: string;
  import_type?: OneOrMany<ImportType>;
  schedule_type?: OneOrMany<ScheduleType>;
  file_source?: OneOrMany<FileSource>;
  schedule_status?: OneOrMany<ImportStatus>;
  /**
   * Range of at most 30 days, in the layout `format` names. A `Date` is written in that layout
   * (UTC) by the client.
   */
  date?: { start_date: string | Date; end_date: string | Date; format: ImportDateFormat };
  /** 1-based page number (50 imports per page). @default 1 */
  offset?: number;
}

/** One import, as the upstream lists it. */
export interface FileImport {
  import_id: string;
  import_name: string;
  last_run_status?: ImportStatus;
  import_type: ImportType;
  schedule_type: ScheduleType;
  import_source: FileSource;
  status: ImportStatus;
  total_files: number;
  processed_files: number;
  total_rows: number;
  processed_rows: number;
  created_at?: string | number;
  last_run_at?: string | null;
  next_scheduled_at?: string | null;
  created_by_email?: string;
  time_zone?: string;
  custom_segment_config?: unknown;
  aux_data_config?: unknown;
  [key: string]: unknown;
}

/** One page of `fileImports.status`. `more_files` is normalised to a boolean (the upstream declares a string). */
export interface FileImportPage {
  status: 'success';
  total_count: number;
  data: FileImport[];
  offset: number;
  more_files: boolean;
}

/** What `fileImports.watch` yields on each poll. */
export interface ImportProgress {
  import_name: string;
  status: ImportStatus;
  /** True once the status is terminal (the last value yielded). */
  done: boolean;
  processed_files: number;
  total_files: number;
  processed_rows: number;
  total_rows: number;
  /** processed_rows / total_rows (files when there are no rows), 0..1. */
  fraction: number;
  /** The full record of the import. */
  record: FileImport;
}

// ---------------------------------------------------------------------------------------------
// Options

/** Per-call options. */
export interface CallOptions {
  /**
   * Aborts the call (and its retries); it rejects with `AbortedError`.
   * @default undefined (not abortable)
   * @example { signal: AbortSignal.timeout(5000) }
   */
  signal?: AbortSignal;
  /**
   * Time limit of each attempt, in ms.
   * @default the client's `timeoutMs`
   * @example { timeoutMs: 2000 }
   */
  timeoutMs?: number;
}

/** Options of `fileImports.watch`. */
export interface WatchOptions {
  /**
   * Stops the watch; the iterator then rejects with `AbortedError`. (Leaving a `for await` loop
   * with `break` stops it too, without an error.)
   * @default undefined
   * @example { signal: controller.signal }
   */
  signal?: AbortSignal;
  /**
   * Time between two polls, in ms. Clamped to at least 1,200 ms, so one watch stays under the
   * upstream's 50 requests per minute.
   * @default 5000
   * @example { intervalMs: 2000 }
   */
  intervalMs?: number;
}

/** Options shared by `createClient` and `createFileImports`. */
export interface TransportOptions {
  /**
   * Where the proxy is mounted: an absolute URL, or a path on the page's origin.
   * @example '/engage'
   */
  endpoint: string;
  /**
   * The fetch to use (a wrapper that adds tracing, or a polyfill).
   * @default globalThis.fetch
   * @example fetch: (input, init) => fetch(input, { ...init, priority: 'low' })
   */
  fetch?: typeof fetch;
  /**
   * Extra request headers, or a function giving them per request (e.g. an admin bearer token the
   * proxy's `authorize` checks). Never put an API key here: keys live in the proxy.
   * @default {}
   * @example { Authorization: `Bearer ${session.token}` }
   */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>);
  /**
   * `credentials` of each fetch: the session cookie a same-origin proxy's `authorize` reads.
   * @default 'same-origin'
   * @example credentials: 'include' // proxy on another origin that allows credentials
   */
  credentials?: RequestCredentials;
  /**
   * Time limit of each attempt (request and body), in ms; `TimeoutError` past it.
   * @default 10000
   * @example timeoutMs: 3000
   */
  timeoutMs?: number;
  /**
   * How many times a failure that is safe to repeat is retried (see the retry table in
   * `retry-policy.ts`). 0 turns retries off.
   * @default 2
   * @example retries: 0 // fail fast
   */
  retries?: number;
  /**
   * First backoff delay in ms; doubled per attempt, with full jitter, capped at 8 s. A
   * `Retry-After` header replaces it.
   * @default 500
   * @example retryBaseDelayMs: 1000
   */
  retryBaseDelayMs?: number;
  /**
   * Longest `Retry-After` the client waits for; a longer one ends the retries and the error
   * carries `retryAfterMs`.
   * @default 30000
   * @example maxRetryAfterMs: 0 // never wait on Retry-After; let the caller decide
   */
  maxRetryAfterMs?: number;
}

/** The workspace's identity-resolution setting (the proxy and upstream must have it too). */
export interface IdentityResolutionOption {
  /** Attribute names that identify a user, e.g. `['svc_mobile']`. */
  identifiers: readonly string[];
}

/** Options of `createClient`. */
export interface ClientOptions extends TransportOptions {
  /**
   * Declare that the workspace resolves users by identifiers: `customer_id` then becomes optional
   * (in the types too) and at least one of `identifiers` must be given instead.
   * @default undefined (off: `customer_id` required)
   * @example { identifiers: ['svc_mobile', 'u_em'] }
   */
  identityResolution?: IdentityResolutionOption;
  /**
   * How far ahead of the device clock an event time may be before it counts as future-dated.
   * @default 60
   * @example futureSkewSeconds: 300
   */
  futureSkewSeconds?: number;
}

/** `client.users`. */
export interface UsersApi<IdentityResolved extends boolean = false> {
  /** Creates or updates one user. */
  upsert(user: UserUpsert<IdentityResolved>, options?: CallOptions): Promise<AcceptedResponse>;
}

/** `client.events`. */
export interface EventsApi {
  /** Tracks one or many events of one user (a `customer_id`, or an `EventUser`). */
  track(user: string | EventUser, actions: EventAction | readonly EventAction[], options?: CallOptions): Promise<AcceptedResponse>;
}

/** `client.campaigns`. */
export interface CampaignsApi {
  /** Updates a push or email campaign made through the API; resolves once the upstream answered 204. */
  update(campaignId: string, update: CampaignUpdate, options?: CallOptions): Promise<void>;
}

/** `client.fileImports` (also standalone: `createFileImports`). */
export interface FileImportsApi {
  /** One page of imports matching `filter`. */
  status(filter?: FileImportFilter, options?: CallOptions): Promise<FileImportPage>;
  /** Every page from `filter.offset` (default 1), following `more_files` to the end. */
  pages(filter?: FileImportFilter, options?: CallOptions): AsyncGenerator<FileImportPage, void, undefined>;
  /** Polls one import until a terminal status, yielding its progress on each poll. */
  watch(importName: string, options?: WatchOptions): AsyncGenerator<ImportProgress, void, undefined>;
}

/** What `createClient` returns. */
export interface Client<IdentityResolved extends boolean = false> {
  users: UsersApi<IdentityResolved>;
  events: EventsApi;
  campaigns: CampaignsApi;
  fileImports: FileImportsApi;
}
