import { requestId } from '../../upstream/error-bodies';
import type { Operation } from '../../upstream/operations';

const ACCEPTED = 'Your request has been accepted and will be processed soon.';

export const json = (body: unknown, status = 200): Response => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The upstream's success answer for `operation`; `result` is what a file-import status query found. */
export function success(operation: Operation, result: unknown): Response {
  switch (operation) {
    case 'experienceEvents':
      return json({ status: 'success', message: ACCEPTED, req_id: requestId() });
    case 'users':
    case 'events':
      return json({ status: 'success', message: ACCEPTED });
    case 'campaignUpdate':
      return new Response(null, { status: 204 });
    case 'fileImportStatus':
      return json(result);
  }
}
