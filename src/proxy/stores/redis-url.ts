// Printing a Redis URL without its secret. Kept apart from the client code so the CLI can use
// it without loading `redis`.

/**
 * The URL with its password replaced by `***` (user name, host, port and database kept), for
 * start-up lines and logs. Works on any string, even one that is not a valid URL, and hides a
 * `password=` query parameter too.
 *
 * @example
 * redactRedisUrl('redis://app:s3cret@cache.internal:6379/2'); // 'redis://app:***@cache.internal:6379/2'
 */
export function redactRedisUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
  let rest = url.slice(scheme.length);
  // The last '@' ends the user info: a password may itself hold '@' or '/' when not encoded.
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const info = rest.slice(0, at);
    const colon = info.indexOf(':');
    const user = colon >= 0 ? info.slice(0, colon) : info;
    // `redis://secret@host` is read by some clients as a password alone: hide a lone value too.
    rest = `${colon >= 0 || scheme === '' ? `${user}:***` : '***'}@${rest.slice(at + 1)}`;
  }
  return scheme + rest.replace(/([?&]password=)[^&#]*/gi, '$1***');
}
