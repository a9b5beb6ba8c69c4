import { isSafeCampaignId, matchProxyPath, OPERATION_NAMES, OPERATIONS, upstreamPathFor, type Operation } from '../../upstream/operations';

export { OPERATION_NAMES };

/** Which configured upstream origin serves each operation (the rest of the route is shared data). */
export const UPSTREAM_ORIGIN: Readonly<Record<Operation, 'baseUrl' | 'sdkUrl' | 'fileImportsUrl'>> = {
  experienceEvents: 'sdkUrl',
  users: 'baseUrl',
  events: 'baseUrl',
  campaignUpdate: 'baseUrl',
  fileImportStatus: 'fileImportsUrl',
};

export interface Route {
  operation: Operation;
  method: 'POST' | 'PATCH';
  tile: 'data' | 'personalize' | 'campaign';
  origin: 'baseUrl' | 'sdkUrl' | 'fileImportsUrl';
  /** Upstream path with the workspace and campaign IDs in place; undefined for an unsafe campaign ID. */
  upstreamPath: string | undefined;
}

/**
 * Matches a path relative to `basePath` (dot segments already resolved by the URL parser).
 * A campaign ID that could steer the upstream URL (`%2F`, `\`, CR/LF, ...) is refused, never
 * escaped: `upstreamPath` is then undefined.
 */
export function matchRoute(path: string, workspaceId: string): Route | undefined {
  const match = matchProxyPath(path);
  if (!match) return undefined;
  const { operation } = match;
  const spec = OPERATIONS[operation];
  const unsafe = operation === 'campaignUpdate' && !isSafeCampaignId(match.campaignId ?? '');
  return {
    operation,
    method: spec.method,
    tile: spec.keyTile,
    origin: UPSTREAM_ORIGIN[operation],
    upstreamPath: unsafe ? undefined : upstreamPathFor(operation, { workspaceId, campaignId: match.campaignId }),
  };
}
