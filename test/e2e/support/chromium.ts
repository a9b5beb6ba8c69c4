import { existsSync } from 'node:fs';

/** Launch options for Debian's Chromium; fails loudly (never skips) when it is missing. */
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
    ],
  };
}
