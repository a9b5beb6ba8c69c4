import { errorResponse } from '../../upstream/error-bodies';
import type { Operation } from '../../upstream/operations';
import { json } from './answer';

/** The admin API's prefix, which no upstream path starts with. */
export const isAdminPath = (pathname: string): boolean => pathname === '/_emulator' || pathname.startsWith('/_emulator/');

/** Unknown paths still get the error shape of the API family their prefix belongs to. */
export function familyOf(pathname: string): Operation | undefined {
  if (pathname.startsWith('/v1.0/data/fileimports')) return 'fileImportStatus';
  if (pathname.startsWith('/core-services/')) return 'campaignUpdate';
  if (pathname.startsWith('/v1/customer')) return 'users';
  if (pathname.startsWith('/v1/event')) return 'events';
  if (pathname.startsWith('/v1/experiences')) return 'experienceEvents';
  return undefined;
}

/** The 404 for a path that matches no operation. */
export function notFound(pathname: string): Response {
  const operation = familyOf(pathname);
  if (operation) return errorResponse(operation, { status: 404 });
  return json({ title: 'Not Found', description: 'Resource not found' }, 404);
}
