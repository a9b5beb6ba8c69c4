// The Node suites' requests stand for a browser's, but Node's fetch says `User-Agent: node`, which
// the proxy's crawler check (isbot) rightly takes for a script: every fetch of these suites that
// names no user agent carries a person's. A test about crawlers sets the crawler's own.
import { PERSON_USER_AGENT } from '../../demo/chromium.mjs';

const nodeFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  if (headers.has('user-agent')) return nodeFetch(input, init);
  headers.set('user-agent', PERSON_USER_AGENT);
  return nodeFetch(input, { ...init, headers });
};
