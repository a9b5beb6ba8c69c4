// A new user's first hour (issue 43), from the packed package only: `npm pack`, a fresh Vite app
// with the tarball installed, and the README's quick start followed as written: its emulator and
// proxy commands (the package's own bins, the README's environment), its script-tag snippet, its
// Vite dev-proxy recipe with `changeOrigin: true` under the real `vite` dev server, then headless
// Chromium (a person's user agent: the proxy drops crawlers' events) sees the placement and
// clicks it, and the emulator's inspection route holds the impression and the click, once each.
// The only changes to what the README says: ports (0, or a free one) so parallel runs do not
// collide, and the Vite origin's port with them. Also here: the packed guides' links resolve
// inside the tarball, a refused origin is logged by name, and a tracker without a customer says
// so once on the console and in the inspection panel.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../../demo/chromium.mjs';
import { readMangleFile } from '../../scripts/mangle-props.mjs';
import { installPacked, ROOT } from '../support/packed';
import { freePort } from '../support/free-port';

let dir: string;
let pkg: string;
let readme: string;
let browser: Browser | undefined;
const children: ChildProcess[] = [];

beforeAll(() => {
  ({ dir } = installPacked('first-hour'));
  pkg = join(dir, 'node_modules/engage-sdk');
  readme = readFileSync(join(pkg, 'README.md'), 'utf8');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all(children.map(stop));
  rmSync(dir, { recursive: true, force: true });
});

/** The fenced blocks of a Markdown text, with their language. */
const blocks = (text: string) => [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang, body]) => ({ lang: lang!, body: body! }));
/** The one block of `lang` that contains `marker`. */
function block(lang: string, marker: string): string {
  const found = blocks(readme).filter((b) => b.lang === lang && b.body.includes(marker));
  expect(
    found.map((b) => b.body.slice(0, 60)),
    `one ${lang} block with ${marker} in the README`,
  ).toHaveLength(1);
  return found[0]!.body;
}

/** `A=1 B=2 npx bin --flag v` (one line, no quoting: the README's commands have none). */
function parseCommand(line: string): { env: Record<string, string>; bin: string; args: string[] } {
  const words = line.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  expect(words.shift(), `${line} runs through npx`).toBe('npx');
  return { env, bin: words.shift()!, args: words };
}

/** Runs one of the installed package's bins, as `npx <bin>` does, and waits for its URL. */
async function startBin(
  bin: string,
  args: string[],
  env: Record<string, string>,
  output: string[] = [],
): Promise<{ url: string; child: ChildProcess; output: string[] }> {
  const bins = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
  expect(Object.keys(bins)).toContain(bin);
  const child = spawn(process.execPath, [join(pkg, bins[bin]!), ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const url = await waitForLine(child, output, /listening on (http:\/\/[\d.:[\]]+)/);
  return { url, child, output };
}

// Colour codes, should a tool print them despite NO_COLOR.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function waitForLine(child: ChildProcess, output: string[], pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        output.push(line);
        const match = pattern.exec(line.replace(ANSI, ''));
        if (match) resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output.join('\n')}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** The README's emulator and proxy commands, on free ports; `withoutEnv` drops variables. */
async function startReadmeBackend(withoutEnv: string[] = []) {
  const emulatorCommand = parseCommand(block('sh', 'npx engage-emulator'));
  const proxyCommand = parseCommand(block('sh', 'npx engage-proxy'));
  expect(emulatorCommand.bin).toBe('engage-emulator');
  expect(proxyCommand.bin).toBe('engage-proxy');
  const emulator = await startBin(
    'engage-emulator',
    emulatorCommand.args.map((arg) => (arg === '8790' ? '0' : arg)),
    {},
  );
  const vitePort = await freePort();
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(proxyCommand.env)) {
    if (withoutEnv.includes(name)) continue;
    env[name] = value.replace('http://127.0.0.1:8790', emulator.url).replace('http://localhost:5173', `http://localhost:${vitePort}`);
  }
  expect(env.ENGAGE_SDK_URL).toBe(emulator.url);
  const proxy = await startBin(
    'engage-proxy',
    proxyCommand.args.map((arg) => (arg === '8787' ? '0' : arg)),
    env,
  );
  return { emulator, proxy, vitePort };
}

/**
 * A fresh Vite app beside the installed package: the README's script-tag snippet as its page, the
 * three files the README says to serve in `public/`, the README's `vite.config.ts` (its target the
 * proxy's port), under the real `vite` dev server.
 */
async function startViteApp(name: string, proxyUrl: string, port: number, pages: Record<string, string>) {
  const root = join(dir, name);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'public'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name, private: true, type: 'module', dependencies: { 'engage-sdk': 'file:../node_modules/engage-sdk' } }));
  for (const file of ['engage.iife.js', 'engage.delivery.js', 'engage.inspect.js']) copyFileSync(join(pkg, 'dist', file), join(root, 'public', file));
  const config = block('ts', 'server:');
  expect(config).toContain('changeOrigin: true');
  writeFileSync(join(root, 'vite.config.ts'), config.replace('http://127.0.0.1:8787', proxyUrl));
  for (const [file, body] of Object.entries(pages))
    writeFileSync(join(root, file), `<!doctype html><html><head><meta charset="utf-8"><title>${name}</title></head><body>\n${body}</body></html>\n`);
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), '--port', String(port), '--strictPort', '--clearScreen', 'false'], {
    cwd: root,
    env: { PATH: process.env.PATH, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output: string[] = [];
  const url = await waitForLine(child, output, /Local:\s+(http:\/\/localhost:\d+)/);
  return { url, child, output };
}

async function received(emulatorUrl: string) {
  const body = (await (await fetch(`${emulatorUrl}/_emulator/experience-events`)).json()) as {
    unique: number;
    duplicates: number;
    events: Array<{ action: string; customer_id: string; svc_event_uuid: string }>;
  };
  return body;
}

/** Polls until `check` holds (a condition, not a time: the test's own timeout bounds it). */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function newPage() {
  browser ??= await chromium.launch(chromiumLaunchOptions());
  return browser.newPage();
}

describe("a new user's first hour, from the packed package", () => {
  it('every relative link of the packed README and guides resolves inside the tarball, or is absolute', () => {
    const docs = [
      'README.md',
      ...readdirSync(join(pkg, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    expect(docs.length).toBeGreaterThanOrEqual(15);
    const broken: string[] = [];
    let checked = 0;
    for (const doc of docs) {
      const text = readFileSync(join(pkg, doc), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        checked++;
        const [path] = target!.split('#') as [string];
        const file = path ? join(pkg, dirname(doc), path) : join(pkg, doc);
        if (relative(pkg, file).startsWith('..') || !existsSync(file)) broken.push(`${doc}: ${target}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(broken).toEqual([]);
    // The files the guides tell users to serve or copy are in the package, and in `exports`.
    const { exports } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    for (const [subpath, file] of [
      ['./engage.iife.js', 'dist/engage.iife.js'],
      ['./engage.delivery.js', 'dist/engage.delivery.js'],
      ['./engage.inspect.js', 'dist/engage.inspect.js'],
      ['./engage-preload.js', 'demo/engage-preload.js'],
    ] as const) {
      expect(existsSync(join(pkg, file)), file).toBe(true);
      expect(JSON.stringify(exports[subpath]), subpath).toContain(`./${file}`);
    }
    // The screenshots stay out (0.9 MB); the guides show them from the repository.
    expect(readdirSync(join(pkg, 'docs')).filter((f) => f.endsWith('.png'))).toEqual([]);
  });

  it("the README's quick start as written: emulator, proxy, script tag, Vite's dev proxy with changeOrigin → the shown and the clicked event, once each", async () => {
    const { emulator, proxy, vitePort } = await startReadmeBackend();
    const snippet = block('html', 'data-engage-context');
    const app = await startViteApp('quick-start', proxy.url, vitePort, { 'index.html': snippet });
    expect(app.url).toBe(`http://localhost:${vitePort}`);
    const page = await newPage();
    // The link's page answers 204, so the browser stays on this page: a new page view would count
    // the placement again (rightly), and this test counts one impression and one click.
    await page.route('**/sale', (route) => route.fulfill({ status: 204 }));
    await page.goto(`${app.url}/`);
    const shown = await until(
      () => received(emulator.url),
      (r) => r.unique >= 1,
    );
    expect(shown.events.map((e) => e.action)).toEqual(['SVC_PERSONALIZATION_MESSAGE_SHOWN']);
    await page.click('a[data-engage-b-id="hero-shop-sale"]');
    const both = await until(
      () => received(emulator.url),
      (r) => r.unique >= 2,
    );
    // A flush past the click's delivery: nothing more arrives, no duplicate.
    await page.evaluate(() => (window as unknown as { Engage: { flush(): Promise<void> } }).Engage.flush());
    const final = await received(emulator.url);
    expect({ unique: final.unique, duplicates: final.duplicates }).toEqual({ unique: 2, duplicates: 0 });
    expect(final.events.map((e) => e.action).sort()).toEqual(['SVC_PERSONALIZATION_MESSAGE_CLICKED', 'SVC_PERSONALIZATION_MESSAGE_SHOWN']);
    expect(new Set(final.events.map((e) => e.customer_id))).toEqual(new Set(['u-42']));
    expect(both.events.map((e) => e.svc_event_uuid).sort()).toEqual(final.events.map((e) => e.svc_event_uuid).sort());
    console.log(
      `[first-hour] quick start: ${final.unique} of 2 events at the emulator (shown, clicked), ${final.duplicates} duplicates, through vite ${app.url} → ${proxy.url}/engage`,
    );
    await page.close();
    await Promise.all([stop(app.child), stop(proxy.child), stop(emulator.child)]);
  }, 120_000);

  it("without ENGAGE_ALLOWED_ORIGINS, changeOrigin's refusal is logged with the origin and the setting", async () => {
    const { emulator, proxy, vitePort } = await startReadmeBackend(['ENGAGE_ALLOWED_ORIGINS']);
    const app = await startViteApp('refused-origin', proxy.url, vitePort, { 'index.html': block('html', 'data-engage-context') });
    const page = await newPage();
    await page.goto(`${app.url}/`);
    await until(
      async () => proxy.output.filter((line) => line.includes('is not allowed')),
      (lines) => lines.length >= 1,
    );
    const refused = proxy.output.filter((line) => line.startsWith('403 '));
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const line of refused) {
      expect(line).toContain('POST /engage/v1/experiences/events');
      expect(line).toContain(`origin http://localhost:${vitePort} is not allowed`);
      expect(line).toContain('ENGAGE_ALLOWED_ORIGINS');
    }
    expect((await received(emulator.url)).unique).toBe(0);
    console.log(`[first-hour] refused origin logged: ${refused[0]}`);
    await page.close();
    await Promise.all([stop(app.child), stop(proxy.child), stop(emulator.child)]);
  }, 120_000);

  it('a tracker without a customer says so once on the console and in the inspection panel; identify() then delivers', async () => {
    const { emulator, proxy, vitePort } = await startReadmeBackend();
    // The README's snippet without data-customer-id, as two guides' snippets were.
    const snippet = block('html', 'data-engage-context').replace(' data-customer-id="u-42"', ' data-flush-interval="200"');
    expect(snippet).not.toContain('data-customer-id');
    const app = await startViteApp('no-customer', proxy.url, vitePort, { 'index.html': snippet });
    const page = await newPage();
    const lines: string[] = [];
    page.on('console', (message) => lines.push(message.text()));
    await page.goto(`${app.url}/?engage-inspect`);
    const customer = page.locator('[data-fact="customer"]');
    await until(
      async () => (await customer.count()) && (await customer.textContent()),
      (text) => typeof text === 'string' && text.startsWith('not set: 1 event'),
    );
    expect(await customer.textContent()).toContain('identify(');
    // The line comes with the first delivery run that finds the event waiting.
    await until(
      async () => lines.filter((line) => line.includes('customerId')),
      (told) => told.length >= 1,
    );
    // Two more events, each followed by a delivery run that finds them waiting: still one line.
    type Page = { Engage: { shown(c: object): string; identify(id: string): void; tracker: Record<string, Record<string, (...args: unknown[]) => unknown>> } };
    // Delivery runs, as the inspector's hub on the tracker's tap saw them (QUEUED reports: tap.ts),
    // read under the names the build gave the internal members (mangle.json).
    const names = readMangleFile().props;
    const runs = () =>
      page.evaluate(
        ([tap, attach, listener, history, stage]) => {
          const state = (window as unknown as Page).Engage.tracker[tap!]![attach!]!() as Record<string, Record<string, Array<Record<string, number>>>>;
          return state[listener!]![history!]!.filter((report) => report[stage!] === 3).length;
        },
        [names.$_tap, names.$_attach, names.$_listener, names.$_history, names.$_stage],
      );
    const before = await runs();
    await page.evaluate(() => {
      const engage = (window as unknown as Page).Engage;
      const context = {
        cid: 'c-2',
        experience: 'Second',
        svc_locale_id: 'l',
        svc_variation_id: 'v',
        audience_name: 'All',
        audience_id: 'a',
        type: 'Web Personalization',
      };
      engage.shown(context);
      engage.shown({ ...context, cid: 'c-3' });
    });
    await until(runs, (n) => n >= before + 1);
    await until(
      async () => customer.textContent(),
      (text) => text!.startsWith('not set: 3 event'),
    );
    const told = lines.filter((line) => line.includes('customerId'));
    expect(told).toEqual(['engage-sdk: customerId: is not set: 1 event(s) wait for identify()']);
    expect(await runs()).toBeGreaterThanOrEqual(2);
    expect((await received(emulator.url)).unique).toBe(0);
    await page.evaluate(() => (window as unknown as Page).Engage.identify('u-7'));
    const after = await until(
      () => received(emulator.url),
      (r) => r.unique >= 3,
    );
    expect({ unique: after.unique, duplicates: after.duplicates, customers: [...new Set(after.events.map((e) => e.customer_id))] }).toEqual({
      unique: 3,
      duplicates: 0,
      customers: ['u-7'],
    });
    await until(
      async () => customer.textContent(),
      (text) => text === 'u-7',
    );
    console.log(`[first-hour] no customer: ${told.length} console line, panel "${'not set: 3 event(s)…'}", then ${after.unique} delivered after identify()`);
    await page.close();
    await Promise.all([stop(app.child), stop(proxy.child), stop(emulator.child)]);
  }, 120_000);
});
