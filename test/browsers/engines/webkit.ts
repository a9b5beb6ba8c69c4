// WebKit (Safari's engine) as WebKitGTK: Debian's WebKitWebDriver driving MiniBrowser over W3C
// WebDriver (selenium-webdriver's plain client, on the driver we start ourselves, so
// selenium-manager never runs or downloads anything). MiniBrowser has no headless mode, so it gets
// its own Xvfb display; the driver and Xvfb are our child processes and are stopped by pid on close.
import { type ChildProcess, spawn } from 'node:child_process';
import { By, Capabilities, WebDriver } from 'selenium-webdriver';
import { Executor, HttpClient } from 'selenium-webdriver/http';
import { freePort } from '../../support/free-port';
import { type Engine, type EnginePage, reapOnExit, requireBinary, until } from '../engine';

const DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.WEBKIT_MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const INSTALL = 'apt-get update && apt-get install -y --no-install-recommends webkit2gtk-driver xvfb';

/** @param args more MiniBrowser arguments (say, `--user-agent=…`, one of the WebKitGTK settings it takes). */
export async function launchWebKit(args: string[] = []): Promise<Engine> {
  requireBinary(DRIVER, 'WebKitWebDriver', INSTALL);
  requireBinary(MINIBROWSER, 'MiniBrowser (WebKitGTK)', INSTALL);
  requireBinary('/usr/bin/Xvfb', 'Xvfb', INSTALL);
  const children: ChildProcess[] = [];
  const stop = () => children.forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
  try {
    const display = await startXvfb(children);
    const port = await freePort();
    // As root, WebKit's bubblewrap sandbox cannot start and the session hangs instead of failing.
    const env = { ...process.env, DISPLAY: display, WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS: '1' };
    const driver = reapOnExit(spawn(DRIVER, [`--port=${port}`, '--host=127.0.0.1'], { env, stdio: 'ignore' }));
    children.push(driver);
    await waitForDriver(port);
    // No browserName: WebKitWebDriver then fails to match the capabilities.
    const capabilities = new Capabilities({
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', '--javascript-can-open-windows-automatically=true', ...args] },
    });
    const browser = WebDriver.createSession(new Executor(new HttpClient(`http://127.0.0.1:${port}`)), capabilities);
    const caps = await browser.getCapabilities();
    // One current window per WebDriver session: tab commands are serialized and switch first.
    let chain: Promise<unknown> = Promise.resolve();
    // The window the session opened with is never used nor closed: closing a session's last
    // window ends the session. Each page is a window of its own (a background tab is hidden).
    const home = await browser.getWindowHandle();
    let current = home;
    const serial = <T>(handle: string, work: () => Promise<T>): Promise<T> => {
      const next = chain.then(async () => {
        if (current !== handle) {
          await browser.switchTo().window(handle);
          current = handle;
        }
        return work();
      });
      chain = next.catch(() => {});
      return next;
    };
    return {
      name: 'webkit',
      version: `WebKitGTK ${caps.getBrowserVersion() ?? '?'} (${caps.getBrowserName() ?? 'MiniBrowser'})`,
      async newPage(): Promise<EnginePage> {
        // Opened by script, so that the page may close itself later (WebKit lets only such
        // windows call window.close()): the close a user makes, with pagehide and keepalive
        // requests. WebDriver's Close Window tears the page down without either.
        const h = await serial(home, async () => {
          const before = await browser.getAllWindowHandles();
          await browser.executeScript(() => void window.open('about:blank', '_blank'));
          const handles = await until(
            () => browser.getAllWindowHandles(),
            (all) => all.length > before.length,
            10_000,
            'the new window',
          );
          return handles.find((handle) => !before.includes(handle))!;
        });
        return {
          goto: (url) => serial(h, () => browser.get(url)),
          evaluate: (fn, arg) => serial(h, () => browser.executeScript(fn as never, arg)) as never,
          reload: () => serial(h, () => browser.navigate().refresh()),
          back: () => serial(h, () => browser.navigate().back()),
          forward: () => serial(h, () => browser.navigate().forward()),
          click: (selector) => serial(h, () => browser.findElement(By.css(selector)).click()),
          close: () =>
            serial(h, async () => {
              await browser.executeScript(() => void setTimeout(() => window.close()));
              await until(
                () => browser.getAllWindowHandles(),
                (all) => !all.includes(h),
                10_000,
                'window.close()',
              );
              current = '';
            }),
        };
      },
      async close() {
        await browser.quit().catch(() => {});
        stop();
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * Xvfb on the first free display (it writes the number to fd 3 once it accepts clients). Xvfb
 * claims a display by its lock file (/tmp/.X<n>-lock, created exclusively), so suites starting
 * side by side each get their own display, never a fixed `:99`.
 */
function startXvfb(children: ChildProcess[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const xvfb = reapOnExit(
      spawn('/usr/bin/Xvfb', ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x1024x24'], {
        stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      }),
    );
    children.push(xvfb);
    let out = '';
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready`)));
  });
}

async function waitForDriver(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/status`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`WebKitWebDriver did not answer on 127.0.0.1:${port}`);
}
