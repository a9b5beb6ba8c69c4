import type { ErrorInput } from '../../upstream/error-bodies';
import { parseFileImportQuery, type FileImportQuery } from '../../upstream/file-import-status';
import { isSafeCampaignId, type RouteMatch } from '../../upstream/operations';
import { checkJsonShape, isObject, type Problem, type ValidateOptions } from '../../upstream/problem';
import { validate } from '../../upstream/validate';
import { checkCampaignEdit } from '../campaigns';
import type { Campaign } from '../seed-campaigns';

/** A request the upstream would accept, with what its operation needs. */
export type Valid =
  | { operation: 'experienceEvents' | 'users' | 'events'; body: Record<string, unknown> }
  | { operation: 'campaignUpdate'; body: Record<string, unknown>; campaignId: string }
  | { operation: 'fileImportStatus'; query: FileImportQuery };

/** Why a request is refused; campaign refusals echo the caller's `request_id`. */
interface Invalid {
  problem: Problem | ErrorInput;
  requestId?: string;
}

/**
 * The shared upstream rules (the proxy and the typed client run the same ones), then, for a
 * campaign update, the rules of the stored campaign: its channel, origin, status and history.
 */
export function validateRequest(match: RouteMatch, body: unknown, campaigns: ReadonlyMap<string, Campaign>, options: ValidateOptions): Valid | Invalid {
  switch (match.operation) {
    case 'campaignUpdate':
      return validateCampaignUpdate(body, match.campaignId ?? '', campaigns);
    case 'fileImportStatus': {
      // Parsed here rather than through validate(): the operation needs the normalised query.
      const shape = checkJsonShape(body);
      if (shape) return { problem: { ...shape, type: 'Invalid Request' } };
      const parsed = parseFileImportQuery(body);
      return parsed.problem ? { problem: parsed.problem } : { operation: 'fileImportStatus', query: parsed.query };
    }
    default: {
      const problem = validate(match.operation, body, options);
      return problem ? { problem } : { operation: match.operation, body: body as Record<string, unknown> };
    }
  }
}

function validateCampaignUpdate(body: unknown, campaignId: string, campaigns: ReadonlyMap<string, Campaign>): Valid | Invalid {
  const campaign = isSafeCampaignId(campaignId) ? campaigns.get(campaignId) : undefined;
  const requestId = isObject(body) && typeof body.request_id === 'string' ? body.request_id : undefined;
  const stored = campaign?.fields.basic_details;
  const contentType = isObject(stored) && typeof stored.content_type === 'string' ? stored.content_type : undefined;
  const problem = validate('campaignUpdate', body, campaign ? { channel: campaign.channel, contentType } : {});
  if (problem) return { problem, requestId };
  if (!campaign) return { problem: { status: 404, field: 'campaign_id', message: 'No campaign exists with this campaign_id' }, requestId };
  const record = body as Record<string, unknown>;
  const refused = checkCampaignEdit(campaign, record);
  if (refused) return { problem: refused, requestId };
  return { operation: 'campaignUpdate', body: record, campaignId };
}
