import { recordedPlatform } from '../upstream/experience-events';
import { isObject, own } from '../upstream/problem';
import type { Campaign } from './seed-campaigns';
import type { ImportRecord, LiveImport } from './file-imports';

/** One stored experience event, flattened from its element. */
export interface ExperienceEventRecord {
  customer_id: string;
  user_timezone_offset: number | null;
  action: string;
  svc_event_uuid: string;
  event_time: number;
  platform: string;
  attributes: Record<string, unknown>;
  /** Present when sent at action level (the schema's place; examples put it in attributes). */
  b_id?: string;
}

/** A stored user profile. */
export interface UserProfile {
  customer_id: string | null;
  attributes: Record<string, unknown>;
  platforms: unknown[];
  created_at: string;
  updated_at: string;
  update_count: number;
}

/** One stored tracked event (one per action). */
export interface EventRecord {
  customer_id: string | null;
  device_id: string | null;
  user_identifiers: Record<string, unknown> | null;
  action: string;
  attributes: Record<string, unknown>;
  platform: string | null;
  app_version: string | null;
  user_time: unknown;
  current_time: unknown;
  received_at: string;
}

// Set when the user is created and never changed by a later update, as documented.
const CREATE_ONLY = ['publisher_name', 'campaign_name', 'u_l_a', 'cr_t', 'svc_gaid', 'advertising_identifier'];
const ARRAY_OPS = ['addValueToArrayField', 'removeValueFromArrayField'];

// Fair-use limits of the data tracking policy: longer values are truncated, attributes past the
// cap are dropped (not refused), as the upstream documents.
const MAX_VALUE_LENGTH = 512;
const MAX_EVENT_ATTRIBUTES = 100;
const fit = (value: unknown): unknown => (typeof value === 'string' && value.length > MAX_VALUE_LENGTH ? value.slice(0, MAX_VALUE_LENGTH) : value);

/** Null-prototype copy, so no stored key can reach Object.prototype. */
const dict = (source?: Record<string, unknown>): Record<string, unknown> => Object.assign(Object.create(null) as Record<string, unknown>, source);

/** Everything the emulator received and holds: the part a reset clears. */
export class Store {
  readonly experience = new Map<string, ExperienceEventRecord>();
  duplicates = 0;
  readonly users = new Map<string, UserProfile>();
  private readonly identifierIndex = new Map<string, string>();
  /** Updates skipped because `update_existing_only` named an unknown user. */
  skippedUserUpdates = 0;
  readonly events: EventRecord[] = [];
  campaigns = new Map<string, Campaign>();
  imports: ImportRecord[] = [];
  readonly live: LiveImport[] = [];

  /** Stores each new `svc_event_uuid` once and counts the rest as duplicates. */
  applyExperience(body: Record<string, unknown>, at: number): void {
    for (const element of body.elements as Array<Record<string, unknown>>) {
      const customerId = element.customer_id as string;
      const offset = own(element, 'user_timezone_offset');
      const userAttributes = own(element, 'user_attributes');
      // The upstream creates an unknown customer_id as a new user, with user_attributes if given.
      this.upsertUser(customerId, isObject(userAttributes) ? userAttributes : {}, undefined, at, false);
      for (const action of element.actions as Array<Record<string, unknown>>) {
        const uuid = (action.svc_event_uuid as string).toLowerCase();
        if (this.experience.has(uuid)) {
          this.duplicates++;
          continue;
        }
        const record: ExperienceEventRecord = {
          customer_id: customerId,
          user_timezone_offset: typeof offset === 'number' ? offset : null,
          action: action.action as string,
          svc_event_uuid: action.svc_event_uuid as string,
          event_time: action.event_time as number,
          platform: recordedPlatform(own(action, 'platform')),
          // Kept as parsed: JSON.parse objects have no setters, and __proto__ keys were refused
          // before this point. A copy would double the memory of the largest store.
          attributes: action.attributes as Record<string, unknown>,
        };
        const bId = own(action, 'b_id');
        if (typeof bId === 'string') record.b_id = bId;
        this.experience.set(uuid, record);
      }
    }
  }

  /** Track user: upsert with merge semantics (sent attributes overwrite, others stay). */
  applyUser(body: Record<string, unknown>, at: number, identifiers: readonly string[] = []): void {
    const attributes = own(body, 'attributes');
    const customerId = own(body, 'customer_id');
    const updateOnly = own(body, 'update_existing_only') === true;
    const profile = this.upsertUser(typeof customerId === 'string' ? customerId : undefined, isObject(attributes) ? attributes : {}, identifiers, at, updateOnly);
    const platforms = own(body, 'platforms');
    if (!profile) this.skippedUserUpdates++;
    else if (Array.isArray(platforms)) profile.platforms = mergePlatforms(profile.platforms, platforms);
  }

  /** The created or updated profile; undefined when `updateOnly` skipped an unknown user. */
  private upsertUser(
    customerId: string | undefined,
    attributes: Record<string, unknown>,
    identifiers: readonly string[] | undefined,
    at: number,
    updateOnly: boolean,
  ): UserProfile | undefined {
    const stamp = new Date(at).toISOString();
    let key = customerId !== undefined ? `c:${customerId}` : undefined;
    if (identifiers?.length) {
      // Identity resolution: any identifier value already known points at its user (merge).
      for (const name of identifiers) {
        const value = own(attributes, name);
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- identifiers are validated scalars
        const indexed = value === undefined ? undefined : this.identifierIndex.get(`${name}=${String(value)}`);
        if (indexed && (key === undefined || !this.users.has(key))) key = indexed;
      }
      if (key === undefined) {
        const first = identifiers.find((name) => own(attributes, name) !== undefined)!;
        key = `i:${first}=${String(own(attributes, first))}`;
      }
    }
    let profile = this.users.get(key!);
    const created = profile === undefined;
    if (!profile) {
      if (updateOnly) return undefined;
      profile = { customer_id: customerId ?? null, attributes: dict(), platforms: [], created_at: stamp, updated_at: stamp, update_count: 0 };
      this.users.set(key!, profile);
    }
    for (const name of Object.keys(attributes)) {
      const value = attributes[name];
      if (name === 'platforms' && Array.isArray(value)) {
        profile.platforms = mergePlatforms(profile.platforms, value);
      } else if (ARRAY_OPS.includes(name) && isObject(value)) {
        for (const target of Object.keys(value)) {
          const items = value[target] as unknown[];
          const current = Array.isArray(profile.attributes[target]) ? (profile.attributes[target] as unknown[]) : [];
          profile.attributes[target] =
            name === 'addValueToArrayField' ? [...current, ...items.filter((v) => !current.includes(v))] : current.filter((v) => !items.includes(v));
        }
      } else if (created || !CREATE_ONLY.includes(name) || !(name in profile.attributes)) {
        profile.attributes[name] = Array.isArray(value) ? value.map(fit) : fit(value);
      }
    }
    if (customerId !== undefined && profile.customer_id === null) profile.customer_id = customerId;
    for (const name of identifiers ?? []) {
      const value = profile.attributes[name];
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- identifiers are validated scalars
      if (value !== undefined) this.identifierIndex.set(`${name}=${String(value)}`, key!);
    }
    if (!created) profile.update_count++;
    profile.updated_at = stamp;
    return profile;
  }

  /** Track event: one stored record per action; `device_id` defaults to `customer_id`. */
  applyEvents(body: Record<string, unknown>, at: number): void {
    const sentCustomerId = own(body, 'customer_id');
    const customerId = typeof sentCustomerId === 'string' ? sentCustomerId : null;
    const sentDeviceId = own(body, 'device_id');
    const deviceId = typeof sentDeviceId === 'string' ? sentDeviceId : customerId;
    const sentIdentifiers = own(body, 'user_identifiers');
    const identifiers = isObject(sentIdentifiers) ? dict(sentIdentifiers) : null;
    const actions = body.actions as Array<Record<string, unknown>>;
    const receivedAt = new Date(at).toISOString();
    for (const action of actions) {
      const attributes = own(action, 'attributes');
      const platform = own(action, 'platform');
      const version = own(action, 'app_version');
      this.events.push({
        customer_id: customerId,
        device_id: deviceId,
        user_identifiers: identifiers,
        action: action.action as string,
        attributes: isObject(attributes) ? fitAttributes(attributes) : dict(),
        platform: typeof platform === 'string' ? platform : null,
        app_version: typeof version === 'string' ? version : null,
        // With no time given, the upstream takes the time it received the event.
        user_time: own(action, 'user_time') ?? null,
        current_time: own(action, 'current_time') ?? receivedAt,
        received_at: receivedAt,
      });
    }
  }
}

function fitAttributes(attributes: Record<string, unknown>): Record<string, unknown> {
  const out = dict();
  for (const name of Object.keys(attributes).slice(0, MAX_EVENT_ATTRIBUTES)) out[name] = fit(attributes[name]);
  return out;
}

function mergePlatforms(current: unknown[], sent: unknown[]): unknown[] {
  const byName = new Map<string, unknown>();
  for (const item of [...current, ...sent]) {
    if (isObject(item) && typeof item.platform === 'string') byName.set(item.platform, { platform: item.platform, active: item.active });
  }
  return [...byName.values()];
}
