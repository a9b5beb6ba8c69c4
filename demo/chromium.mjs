// Debian's Chromium for everything here that drives a browser through Playwright: the tests, the
// benches, the demo's screenshots. One list of launch flags (../shared TOOLCHAIN: they are what
// works headless as root on these machines), and a loud failure, never a download, when it is missing.
import { existsSync } from 'node:fs';

/**
 * A person's desktop Chrome, for every page these tests and scripts open: headless Chromium's own
 * user agent says `HeadlessChrome`, which the proxy's crawler check (isbot) rightly takes for
 * automation, and its events would be answered but never forwarded.
 */
export const PERSON_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/**
 * Launch options for Debian's Chromium (or CHROMIUM_PATH); throws with the install command when it is missing.
 * @returns {{ executablePath: string, args: string[] }}
 */
export function chromiumLaunchOptions() {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium not found at ${executablePath}. Install it with ` +
        '`apt-get update && apt-get install -y --no-install-recommends chromium` ' +
        'or set CHROMIUM_PATH. (Never `playwright install`: no browser downloads here.)',
    );
  }
  return {
    executablePath,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-agent=${PERSON_USER_AGENT}`,
    ],
  };
}
