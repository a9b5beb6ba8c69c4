/** The five upstream operations, by the names the SDK, the proxy and the emulator share. */
export type Operation = 'experienceEvents' | 'users' | 'events' | 'campaignUpdate' | 'fileImportStatus';

/** Which API key tile of the workspace an operation authenticates with. */
export type KeyTile = 'data' | 'personalize' | 'campaign';

/** One row of the routing table: how an operation is called upstream and on the proxy. */
export interface OperationSpec {
  name: Operation;
  method: 'POST' | 'PATCH';
  /** Path on the upstream; `{workspaceId}` and `{campaignId}` are placeholders. */
  upstreamPath: string;
  /** Path the browser calls on the proxy (after the proxy's base path). */
  proxyPath: string;
  /** Key used as the Basic-auth password. */
  keyTile: KeyTile;
  /** Whether the upstream refuses a request without the `SVC-APPKEY` header. */
  appKeyRequired: boolean;
  /**
   * Largest body the upstream takes, in bytes (413 above it). Users and events: 128 KB as
   * documented; the others are undocumented and set generously so no valid request is refused.
   */
  maxBodyBytes: number;
}

const KB = 1024;

/**
 * The routing table of DESIGN.md, as data.
 *
 * @example
 * const spec = OPERATIONS.users; // { method: 'POST', upstreamPath: '/v1/customer/{workspaceId}', keyTile: 'data', ... }
 */
export const OPERATIONS: Readonly<Record<Operation, OperationSpec>> = {
  experienceEvents: {
    name: 'experienceEvents',
    method: 'POST',
    upstreamPath: '/v1/experiences/events',
    proxyPath: '/v1/experiences/events',
    keyTile: 'personalize',
    appKeyRequired: true,
    maxBodyBytes: 1024 * KB,
  },
  users: {
    name: 'users',
    method: 'POST',
    upstreamPath: '/v1/customer/{workspaceId}',
    proxyPath: '/v1/customer',
    keyTile: 'data',
    appKeyRequired: false,
    maxBodyBytes: 128 * KB,
  },
  events: {
    name: 'events',
    method: 'POST',
    upstreamPath: '/v1/event/{workspaceId}',
    proxyPath: '/v1/event',
    keyTile: 'data',
    appKeyRequired: false,
    maxBodyBytes: 128 * KB,
  },
  campaignUpdate: {
    name: 'campaignUpdate',
    method: 'PATCH',
    upstreamPath: '/core-services/v1/campaigns/{campaignId}',
    proxyPath: '/core-services/v1/campaigns/{campaignId}',
    keyTile: 'campaign',
    appKeyRequired: true,
    maxBodyBytes: 1024 * KB,
  },
  fileImportStatus: {
    name: 'fileImportStatus',
    method: 'POST',
    upstreamPath: '/v1.0/data/fileimports/import/status',
    proxyPath: '/v1.0/data/fileimports/import/status',
    keyTile: 'data',
    appKeyRequired: true,
    maxBodyBytes: 64 * KB,
  },
};

/** All operation names, in a stable order. */
export const OPERATION_NAMES: readonly Operation[] = ['experienceEvents', 'users', 'events', 'campaignUpdate', 'fileImportStatus'];

/** Where a request path points: the operation and the path parameters it carried. */
export interface RouteMatch {
  operation: Operation;
  /** Workspace ID from the path (users, events). */
  workspaceId?: string;
  /** Campaign ID from the path (campaign update), percent-decoded. */
  campaignId?: string;
}

// A campaign id is an opaque token (`camp_abc123xyz`, 24-hex ObjectIds). Anything that could
// walk the path (`/`, `..`, `%2F`, control characters) is refused by this pattern.
const CAMPAIGN_ID = /^[A-Za-z0-9_-]{1,128}$/;
/**
 * True for a campaign id that is safe to put in a URL path as is.
 *
 * @example
 * isSafeCampaignId('camp_abc123xyz'); // true
 * isSafeCampaignId('../admin');       // false
 */
export const isSafeCampaignId = (id: string): boolean => CAMPAIGN_ID.test(id);

/**
 * Matches an upstream path to its operation, whatever the method (so callers can answer 405
 * in the operation's own error shape). Returns undefined for an unknown path.
 *
 * @example
 * matchUpstreamPath('/v1/customer/ENGAGEDEMO01'); // { operation: 'users', workspaceId: 'ENGAGEDEMO01' }
 */
export function matchUpstreamPath(pathname: string): RouteMatch | undefined {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (path === '/v1/experiences/events') return { operation: 'experienceEvents' };
  if (path === '/v1.0/data/fileimports/import/status') return { operation: 'fileImportStatus' };
  let m = /^\/v1\/customer\/([^/]+)$/.exec(path);
  if (m) return { operation: 'users', workspaceId: decode(m[1]!) };
  m = /^\/v1\/event\/([^/]+)$/.exec(path);
  if (m) return { operation: 'events', workspaceId: decode(m[1]!) };
  m = /^\/core-services\/v1\/campaigns\/([^/]+)$/.exec(path);
  if (m) return { operation: 'campaignUpdate', campaignId: decode(m[1]!) };
  return undefined;
}

/**
 * Matches a proxy path (relative to the proxy's base path) to its operation.
 *
 * @example
 * matchProxyPath('/v1/customer'); // { operation: 'users' }
 */
export function matchProxyPath(pathname: string): RouteMatch | undefined {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (path === '/v1/customer') return { operation: 'users' };
  if (path === '/v1/event') return { operation: 'events' };
  const match = matchUpstreamPath(path);
  return match && match.operation !== 'users' && match.operation !== 'events' ? match : undefined;
}

/**
 * The upstream path for an operation, with its parameters encoded.
 *
 * @example
 * upstreamPathFor('events', { workspaceId: 'ENGAGEDEMO01' }); // '/v1/event/ENGAGEDEMO01'
 */
export function upstreamPathFor(operation: Operation, params: { workspaceId?: string; campaignId?: string } = {}): string {
  return OPERATIONS[operation].upstreamPath
    .replace('{workspaceId}', encodeURIComponent(params.workspaceId ?? ''))
    .replace('{campaignId}', encodeURIComponent(params.campaignId ?? ''));
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape is kept raw; the id check downstream then refuses it.
    return segment;
  }
}
