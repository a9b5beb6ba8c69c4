import type { ErrorInput } from '../upstream/error-bodies';
import { OPERATIONS, type KeyTile, type Operation } from '../upstream/operations';

/** The keys a workspace accepts, one per tile. */
export interface Keys {
  data: string;
  personalize: string;
  campaign: string;
}

/** The three key tiles of a workspace, in the order the CLI prints them. */
export const KEY_TILES: readonly KeyTile[] = ['data', 'personalize', 'campaign'];

/** Reads `Authorization: Basic base64(user:password)`; undefined when absent or unreadable. */
export function readBasic(header: string | null): { user: string; password: string } | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return undefined;
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Compares secrets without an early exit, so timing does not reveal how much of a key matched. */
export function sameSecret(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/**
 * Authenticates an upstream request the way each operation does; returns the error to answer
 * with, or undefined. Messages never contain a key.
 */
export function authenticate(operation: Operation, headers: Headers, workspaceId: string, keys: Keys, pathWorkspaceId?: string): ErrorInput | undefined {
  const spec = OPERATIONS[operation];
  const basic = readBasic(headers.get('authorization'));
  const appKey = headers.get('svc-appkey');
  if (operation === 'fileImportStatus') {
    // This API family names each failure in the 401 title.
    if (appKey === null || appKey === '') return { status: 401, type: 'HeaderMissing', message: 'SVC-APPKEY is missing in Header' };
    if (!basic) return { status: 401, type: 'HeaderMissing', message: 'Authorization is missing in Header' };
    if (appKey !== basic.user) {
      return { status: 401, type: 'HeaderMismatch', message: "SVC-APPKEY doesn't match the Username (APP_KEY) used in Basic Auth authorization" };
    }
    if (basic.user !== workspaceId || !sameSecret(basic.password, keys.data)) {
      return { status: 401, type: 'AuthenticationInvalid' };
    }
    return undefined;
  }
  // Without a `message`, the body carries the upstream's own sentence for a wrong key.
  const denied: ErrorInput = { status: 401 };
  if (!basic) return operation === 'users' || operation === 'events' ? { status: 401, message: 'Authentication Header Required' } : denied;
  if (basic.user !== workspaceId || !sameSecret(basic.password, keys[spec.keyTile])) return denied;
  if (pathWorkspaceId !== undefined && pathWorkspaceId !== workspaceId) return denied;
  if (operation === 'experienceEvents') {
    // Documented as a 400, not a 401, for this operation.
    if (appKey === null || appKey === '') return { status: 400, field: 'SVC-APPKEY', message: 'SVC-APPKEY header is missing' };
    if (appKey !== workspaceId) return { status: 400, field: 'SVC-APPKEY', message: 'SVC-APPKEY header does not name this workspace' };
    return undefined;
  }
  const badAppKey: ErrorInput = { status: 401, message: 'SVC-APPKEY header is missing or does not name this workspace' };
  if (spec.appKeyRequired && (appKey === null || appKey === '')) return badAppKey;
  // Optional on users/events, but when sent it must name the workspace.
  if (appKey !== null && appKey !== '' && appKey !== workspaceId) return badAppKey;
  return undefined;
}
