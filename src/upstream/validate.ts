import { validateCampaignUpdate, type CampaignChannel } from './campaign-update';
import { validateEvents } from './events';
import { validateExperienceEvents } from './experience-events';
import { validateFileImportStatus } from './file-import-status';
import type { Operation } from './operations';
import { checkJsonShape, type Problem, type ValidateOptions } from './problem';
import { validateUser } from './users';

/** Options of `validate`: the shared ones plus the campaign's channel when known. */
export interface ValidateOperationOptions extends ValidateOptions {
  /** Channel of the campaign being updated (campaign update only). */
  channel?: CampaignChannel;
  /** `content_type` of the email campaign being updated, when known (campaign update only). */
  contentType?: string;
}

/**
 * Runs the structural guard (`__proto__`, nesting depth) and then the operation's validator on
 * a parsed body. The first problem, or undefined when the upstream would accept the body.
 *
 * @example
 * const p = validate('events', body, { now: Date.now() });
 * if (p) return errorResponse('events', p);
 */
export function validate(operation: Operation, body: unknown, options: ValidateOperationOptions = {}): Problem | undefined {
  const shape = checkJsonShape(body);
  if (shape) return shape;
  switch (operation) {
    case 'experienceEvents':
      return validateExperienceEvents(body, options);
    case 'users':
      return validateUser(body, options);
    case 'events':
      return validateEvents(body, options);
    case 'campaignUpdate':
      return validateCampaignUpdate(body, options);
    case 'fileImportStatus':
      return validateFileImportStatus(body);
  }
}
