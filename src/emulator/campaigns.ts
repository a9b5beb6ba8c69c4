import { isObject, own, problem, type Problem } from '../upstream/problem';
import type { Campaign } from './seed-campaigns';

const SCHEDULING_TYPE_PATHS: Array<[string, string | undefined]> = [
  ['campaign_delivery_type', undefined],
  ['basic_details', 'campaign_delivery_type'],
  ['scheduling_details', 'scheduling_type'],
];
/** Fields an active periodic or event-triggered campaign (an instance was sent) keeps. */
const LOCKED_WHEN_SENT = ['trigger_condition', 'segmentation_details', 'conversion_goal_details'] as const;

/**
 * The editing rules that depend on the stored campaign (the body itself was validated before):
 * dashboard campaigns are refused; stopped and archived campaigns take no update; the scheduling
 * type never changes; once an instance of a periodic or event-triggered campaign was sent, its
 * trigger condition, segmentation, conversion goals and scheduling start date are locked.
 * All refusals are 400: V1 declares no other client-error status.
 */
export function checkCampaignEdit(campaign: Campaign, body: Record<string, unknown>): Problem | undefined {
  if (campaign.origin === 'DASHBOARD') {
    return problem('campaign_id', 'was created in the dashboard; only campaigns created through the API can be updated');
  }
  if (campaign.status === 'STOPPED' || campaign.status === 'ARCHIVED') {
    return problem('campaign_id', `is ${campaign.status} and cannot be updated`);
  }
  for (const [key, child] of SCHEDULING_TYPE_PATHS) {
    const parent = own(body, key);
    const value = child === undefined ? parent : isObject(parent) ? own(parent, child) : undefined;
    if (value !== undefined && value !== campaign.scheduling_type) {
      return problem(child ? `${key}.${child}` : key, `cannot be edited: the scheduling type of this campaign is ${campaign.scheduling_type}`);
    }
  }
  if (campaign.instance_sent && campaign.scheduling_type !== 'ONE_TIME') {
    for (const key of LOCKED_WHEN_SENT) {
      if (own(body, key) !== undefined) return problem(key, 'cannot be edited after an instance of this campaign was sent');
    }
    const scheduling = own(body, 'scheduling_details');
    if (isObject(scheduling)) {
      const start = own(scheduling, 'start_time');
      const stored = (campaign.fields.scheduling_details as Record<string, unknown> | undefined)?.start_time;
      if (start !== undefined && start !== stored) {
        return problem('scheduling_details.start_time', 'cannot be edited after an instance of this campaign was sent');
      }
    }
  }
  return undefined;
}

const META = ['request_id', 'updated_by', 'channel', 'campaign_delivery_type'];

/** Applies an accepted update: each object sent replaces the stored object whole. */
export function applyCampaignUpdate(campaign: Campaign, body: Record<string, unknown>, at: string): void {
  for (const key of Object.keys(body)) {
    if (!META.includes(key)) campaign.fields[key] = body[key];
  }
  campaign.updated_by = body.updated_by as string;
  campaign.last_request_id = body.request_id as string;
  campaign.update_count++;
  campaign.updated_at = at;
}

/** The admin list view of a campaign. */
export function campaignSummary(campaign: Campaign) {
  const basic = campaign.fields.basic_details as { name?: unknown } | undefined;
  return {
    id: campaign.id,
    name: typeof basic?.name === 'string' ? basic.name : campaign.id,
    channel: campaign.channel,
    scheduling_type: campaign.scheduling_type,
    origin: campaign.origin,
    instance_sent: campaign.instance_sent,
    status: campaign.status,
  };
}
