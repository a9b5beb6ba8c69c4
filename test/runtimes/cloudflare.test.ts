// The Cloudflare Worker recipe of docs/proxy-edge.md, verbatim, with its wrangler.jsonc: two Worker scripts
// (two isolates) on workerd (miniflare from npm) bound to one Durable Object namespace, forwarding
// to the emulator on Node. Every event once across isolates, one budget across them, the UUID
// memory across a restart of workerd, and an object that fails costing no event.
import { PERSON_USER_AGENT } from '../../demo/chromium.mjs';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experienceBody, KEYS, startUpstream, WORKSPACE, type Upstream } from '../proxy/support';
import { appDir, bundleWorker, foreignModules, ROOT } from './support';

/** The guide's Worker module and wrangler.jsonc, as a reader copies them. */
function recipe(): { worker: string; wrangler: Wrangler } {
  const readme = readFileSync(join(ROOT, 'docs/proxy-edge.md'), 'utf8');
  const worker = /```js\n(\/\/ worker\.js: a Cloudflare Worker[\s\S]*?)```/.exec(readme)?.[1];
  const config = /```jsonc\n(\/\/ wrangler\.jsonc[\s\S]*?)```/.exec(readme)?.[1];
  if (!worker || !config) throw new Error('docs/proxy-edge.md has no Cloudflare Worker recipe (worker.js and wrangler.jsonc)');
  // JSONC: the recipe's comments are whole lines.
  return { worker, wrangler: JSON.parse(config.replace(/^\s*\/\/.*$/gm, '')) as Wrangler };
}

interface Wrangler {
  compatibility_date: string;
  vars: Record<string, string>;
  durable_objects: { bindings: Array<{ name: string; class_name: string }> };
  migrations: Array<{ tag: string; new_sqlite_classes?: string[] }>;
}

const ORIGIN = 'https://www.example.com';
const PATH = '/engage/v1/experiences/events';

let upstream: Upstream;
const { worker: WORKER, wrangler: WRANGLER } = recipe();
const binding = WRANGLER.durable_objects.bindings[0]!;

/** One workerd running the script as two Workers, A holding the objects and B bound to them. */
function twoIsolates(script: string, options: { persist?: string; className?: string; logs?: string[]; useSQLite?: boolean } = {}): Miniflare {
  const bindings = { ...WRANGLER.vars, ENGAGE_WORKSPACE_ID: WORKSPACE, ENGAGE_SDK_URL: upstream.url, ENGAGE_PERSONALIZE_KEY: KEYS.personalize };
  const useSQLite = options.useSQLite ?? WRANGLER.migrations.some((migration) => migration.new_sqlite_classes?.includes(binding.class_name));
  const className = options.className ?? binding.class_name;
  return new Miniflare({
    host: '127.0.0.1',
    port: 0,
    durableObjectsPersist: options.persist ?? false,
    handleStructuredLogs: ({ message }) => {
      options.logs?.push(message);
    },
    workers: ['a', 'b'].map((name) => ({
      name,
      routes: [`${name}.proxy.test/*`],
      modules: true,
      script,
      compatibilityDate: WRANGLER.compatibility_date,
      bindings,
      durableObjects: { [binding.name]: { className, useSQLite, ...(name === 'b' ? { scriptName: 'a' } : {}) } },
    })),
  });
}

/** Posts experience events to one isolate as a page would; [status, deduplicated header]. */
async function post(mf: Miniflare, isolate: 'a' | 'b', body: string, client = '203.0.113.7'): Promise<[number, string | null]> {
  const response = await mf.dispatchFetch(`http://${isolate}.proxy.test${PATH}`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json', 'cf-connecting-ip': client, 'user-agent': PERSON_USER_AGENT },
    body,
  });
  await response.arrayBuffer();
  return [response.status, response.headers.get('x-engage-deduplicated')];
}

async function bundle(worker: string): Promise<string> {
  const dir = await appDir({ 'worker.js': worker });
  try {
    const bundled = await bundleWorker(join(dir.dir, 'worker.js'));
    expect(
      bundled.modules.some((id) => id.endsWith('/dist/proxy-cloudflare.js')),
      'the worker bundles engage-sdk/proxy/cloudflare',
    ).toBe(true);
    expect(foreignModules(bundled.modules), 'and nothing from Node or another package but isbot').toEqual([]);
    return bundled.code;
  } finally {
    await dir.close();
  }
}

let script: string;
beforeAll(async () => {
  upstream = await startUpstream();
  expect(binding, 'wrangler.jsonc binds the EngageStore class').toMatchObject({ class_name: 'EngageStore' });
  script = await bundle(WORKER);
}, 60_000);

afterAll(async () => {
  await upstream?.close();
});

describe('the docs/proxy-edge.md Worker with the Durable Object store, two isolates', () => {
  let persist: string;
  beforeAll(async () => {
    persist = await mkdtemp(join(tmpdir(), 'engage-do-'));
  });
  afterAll(() => rm(persist, { recursive: true, force: true }));

  // The old page's request is inside isolate A's retries (the upstream failing, slowly) when the
  // reloaded page sends the same 200 events to isolate B. Only the shared object keeps B from
  // forwarding them too.
  it('a reload while isolate A retries, re-sent to isolate B: 200/200 delivered, none accepted twice; remembered across a workerd restart', async () => {
    upstream.emulator.reset();
    const body = JSON.stringify(experienceBody(200));
    let mf = twoIsolates(script, { persist });
    try {
      await mf.ready;
      await upstream.fault({ statuses: [503], count: 2, latencyMs: 400 });
      const before = post(mf, 'a', body);
      await new Promise((done) => setTimeout(done, 150));
      const after = post(mf, 'b', body);
      const [first, second] = await Promise.all([before, after]);
      expect(first[0]).toBe(200);
      expect(second).toEqual([200, '200']);
      expect(await upstream.experienceEvents()).toMatchObject({ unique: 200, duplicates: 0 });
    } finally {
      await mf.dispose();
    }

    // A new workerd on the same storage: the objects' SQLite still knows every accepted UUID.
    mf = twoIsolates(script, { persist });
    try {
      await mf.ready;
      expect(await post(mf, 'b', body)).toEqual([200, '200']);
      expect(await post(mf, 'a', body)).toEqual([200, '200']);
      const received = (await upstream.received()).filter((line) => line.operation === 'experienceEvents');
      expect(await upstream.experienceEvents()).toMatchObject({ unique: 200, duplicates: 0 });
      console.log(
        `[cloudflare] reload across isolates: 200/200 delivered, 0 accepted twice (${received.length} upstream attempts); after a workerd restart both isolates answered the 200 from the object's storage`,
      );
    } finally {
      await mf.dispose();
    }
  }, 60_000);

  it('a workspace budget of 50 admits 50 in total across both isolates', async () => {
    upstream.emulator.reset();
    const budgeted = await bundle(
      WORKER.replace('store: createDurableObjectStore(env.ENGAGE_STORE),', '$& rateLimits: { experienceEvents: { workspace: [{ limit: 50, windowMs: 60_000 }] } },'),
    );
    const mf = twoIsolates(budgeted);
    try {
      await mf.ready;
      const statuses = [];
      // From several client addresses, so only the workspace's budget is shared.
      statuses.push((await post(mf, 'a', JSON.stringify(experienceBody(30)), '203.0.113.1'))[0]);
      statuses.push((await post(mf, 'b', JSON.stringify(experienceBody(30)), '203.0.113.2'))[0]);
      statuses.push((await post(mf, 'b', JSON.stringify(experienceBody(20)), '203.0.113.3'))[0]);
      statuses.push((await post(mf, 'a', JSON.stringify(experienceBody(1)), '203.0.113.4'))[0]);
      expect(statuses).toEqual([200, 429, 200, 429]);
      expect(await upstream.experienceEvents()).toMatchObject({ unique: 50, duplicates: 0 });
    } finally {
      await mf.dispose();
    }
  }, 60_000);
});

it('an object that throws costs no event: forwarded without limits or memory, the failure logged per request', async () => {
  upstream.emulator.reset();
  const logs: string[] = [];
  // The binding points at a class that fails every call, and the recipe logs each request.
  const broken = await bundle(
    `${WORKER.replace('store: createDurableObjectStore(env.ENGAGE_STORE),', '$& logger: (entry) => console.log(JSON.stringify(entry)),')}
export class BrokenStore {
  fetch() {
    throw new Error('the store is down');
  }
}
`,
  );
  const mf = twoIsolates(broken, { className: 'BrokenStore', logs });
  try {
    await mf.ready;
    expect(await post(mf, 'a', JSON.stringify(experienceBody(10)))).toEqual([200, null]);
    expect(await post(mf, 'b', JSON.stringify(experienceBody(5)))).toEqual([200, null]);
    expect(await upstream.experienceEvents()).toMatchObject({ unique: 15, duplicates: 0 });
    await expect.poll(() => logs.filter((line) => line.includes('"path":"/engage/v1/experiences/events"')).length).toBe(2);
    const entries = logs.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { status?: number; storeErrors?: number });
    const requests = entries.filter((entry) => entry.status === 200);
    expect(requests.map((entry) => entry.storeErrors! > 0)).toEqual([true, true]);
  } finally {
    await mf.dispose();
  }
}, 60_000);

it('EngageStore declared with new_classes (key-value storage): no event lost, and every failure names the fix, not only a counter', async () => {
  upstream.emulator.reset();
  const logs: string[] = [];
  const logged = await bundle(WORKER.replace('store: createDurableObjectStore(env.ENGAGE_STORE),', '$& logger: (entry) => console.log(JSON.stringify(entry)),'));
  const mf = twoIsolates(logged, { logs, useSQLite: false });
  try {
    await mf.ready;
    expect(await post(mf, 'a', JSON.stringify(experienceBody(4)))).toEqual([200, null]);
    expect(await upstream.experienceEvents()).toMatchObject({ unique: 4, duplicates: 0 });
    await expect.poll(() => logs.filter((line) => line.includes('"path":"/engage/v1/experiences/events"')).length).toBe(1);
    const entry = JSON.parse(logs.find((line) => line.includes('"path":"/engage/v1/experiences/events"'))!) as { message: string; storeErrors?: number };
    expect(entry.storeErrors).toBeGreaterThan(0);
    expect(entry.message).toMatch(/EngageStore needs SQLite storage: declare the class with new_sqlite_classes in its wrangler migration/);
  } finally {
    await mf.dispose();
  }
}, 60_000);
