import { ValidationError } from '../errors';
import { validateCampaignUpdate } from '../upstream/campaign-update';
import { isSafeCampaignId } from '../upstream/operations';
import { checkJsonShape } from '../upstream/problem';
import { uuidV4 } from '../uuid';
import type { Transport } from './transport';
import type { CampaignsApi } from './types';
import { toWire } from './wire';

// The upstream's own example writes campaign times as UTC without an offset suffix.
const utcSeconds = (date: Date): string => date.toISOString().slice(0, 19);

/**
 * `client.campaigns`: `update` fills `request_id` with a fresh UUID v4 when none is given, writes
 * `Date` times as UTC `YYYY-MM-DDTHH:mm:ss`, checks the body (complete objects, push/email field
 * sets, enums) and the campaign id (no path characters), then sends
 * `PATCH {endpoint}/core-services/v1/campaigns/{id}`. Resolves with nothing on the upstream's 204.
 *
 * @example
 * await client.campaigns.update('camp_abc123xyz', { channel: 'EMAIL', updated_by: 'ops@example.com', scheduling_details: { expiry_time: new Date('2026-07-20T13:55:00Z') } });
 */
export function createCampaignsApi(transport: Transport): CampaignsApi {
  return {
    async update(campaignId, update, call) {
      if (typeof campaignId !== 'string' || !isSafeCampaignId(campaignId)) {
        throw new ValidationError('campaignId', 'must be 1 to 128 letters, digits, "_" or "-" (no path characters)');
      }
      if (typeof update !== 'object' || update === null || Array.isArray(update)) throw new ValidationError('update', 'must be an object');
      const body = toWire({ ...update, request_id: update.request_id ?? uuidV4() }, 'body', utcSeconds) as Record<string, unknown>;
      const channel = update.channel === 'PUSH' || update.channel === 'EMAIL' ? update.channel : undefined;
      const problem = checkJsonShape(body) ?? validateCampaignUpdate(body, channel ? { channel } : {});
      if (problem) throw new ValidationError(problem.field, problem.rule);
      await transport.send('campaignUpdate', 'PATCH', `/core-services/v1/campaigns/${encodeURIComponent(campaignId)}`, body, call);
    },
  };
}
