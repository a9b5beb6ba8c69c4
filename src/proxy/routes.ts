import type { Operation, ProxyKeys } from './types';

/** Where each operation goes upstream, and with which key (the table in DESIGN.md). */
export interface Route {
  operation: Operation;
  method: 'POST' | 'PATCH';
  tile: keyof ProxyKeys;
  origin: 'baseUrl' | 'sdkUrl' | 'fileImportsUrl';
  /** The upstream path, given the workspace ID and (for campaigns) the campaign ID. */
  upstreamPath(workspaceId: string, campaignId: string): string;
}

export const ROUTES: Readonly<Record<Operation, Route>> = {
  experienceEvents: {
    operation: 'experienceEvents',
    method: 'POST',
    tile: 'personalize',
    origin: 'sdkUrl',
    upstreamPath: () => '/v1/experiences/events',
  },
  users: {
    operation: 'users',
    method: 'POST',
    tile: 'data',
    origin: 'baseUrl',
    upstreamPath: (workspaceId) => `/v1/customer/${encodeURIComponent(workspaceId)}`,
  },
  events: {
    operation: 'events',
    method: 'POST',
    tile: 'data',
    origin: 'baseUrl',
    upstreamPath: (workspaceId) => `/v1/event/${encodeURIComponent(workspaceId)}`,
  },
  campaignUpdate: {
    operation: 'campaignUpdate',
    method: 'PATCH',
    tile: 'campaign',
    origin: 'baseUrl',
    upstreamPath: (_workspaceId, campaignId) => `/core-services/v1/campaigns/${campaignId}`,
  },
  fileImportStatus: {
    operation: 'fileImportStatus',
    method: 'POST',
    tile: 'data',
    origin: 'fileImportsUrl',
    upstreamPath: () => '/v1.0/data/fileimports/import/status',
  },
};

export const OPERATIONS = Object.keys(ROUTES) as Operation[];

const CAMPAIGNS = '/core-services/v1/campaigns/';

/**
 * A campaign ID as it appears in the raw (still percent-encoded) path. Anything else — `%2F`,
 * `%2e`, `\`, CR/LF, a second segment — could steer the upstream URL, so it is refused, not escaped.
 */
const CAMPAIGN_ID = /^[A-Za-z0-9_-]{1,128}$/;

export type RouteMatch =
  | { route: Route; campaignId: string }
  | { route: Route; badCampaignId: true }
  | undefined;

/** Matches a path relative to `basePath` (as the URL parser left it: dot segments resolved). */
export function matchRoute(path: string): RouteMatch {
  switch (path) {
    case '/v1/experiences/events':
      return { route: ROUTES.experienceEvents, campaignId: '' };
    case '/v1/customer':
      return { route: ROUTES.users, campaignId: '' };
    case '/v1/event':
      return { route: ROUTES.events, campaignId: '' };
    case '/v1.0/data/fileimports/import/status':
      return { route: ROUTES.fileImportStatus, campaignId: '' };
  }
  if (path.startsWith(CAMPAIGNS)) {
    const campaignId = path.slice(CAMPAIGNS.length);
    return CAMPAIGN_ID.test(campaignId) ? { route: ROUTES.campaignUpdate, campaignId } : { route: ROUTES.campaignUpdate, badCampaignId: true };
  }
  return undefined;
}
