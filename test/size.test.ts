// Size budgets, in gzip -9 bytes of what a browser downloads. Runs on the build (`npm run build`).
//
// The issue's target is 4,096 bytes for both the script tag and a tracker-only bundle; we do not
// meet it (see README "Size"). A size pass took them from 6,191 and 5,438 bytes to 5,954 and
// 5,193 (own UUID formatter instead of the uuid package, less repeated code); what remains is the
// feature set itself. These budgets are today's figures plus ~3% headroom, so that growth is a
// decision, not an accident. Raised by 70 and 80 bytes for what the three engines required (a
// closing page beacons its undelivered events; an impression waits out a timer Firefox fires
// early): 6,142 and 5,377 bytes then.
const BUDGET = { iife: 6_200, trackerOnly: 5_430 };
const TARGET = 4_096;
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import resolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import { beforeAll, describe, expect, it } from 'vitest';

const dist = new URL('../dist/', import.meta.url);
const gzip = (code: string | Buffer) => gzipSync(code, { level: 9 }).length;

/** Bundles `code` (importing from dist/index.js) the way an app's bundler would: resolved, tree-shaken, minified. */
async function bundle(code: string): Promise<string> {
  const build = await rollup({
    input: 'entry',
    plugins: [
      {
        name: 'entry',
        resolveId: (id) => (id === 'entry' ? id : id === 'engage-sdk' ? new URL('index.js', dist).pathname : null),
        load: (id) => (id === 'entry' ? code : null),
      },
      resolve({ browser: true }),
      terser({ ecma: 2020, compress: { passes: 2 } }),
    ],
    onwarn: () => {},
  });
  const { output } = await build.generate({ format: 'es' });
  return output[0].code;
}

const figures: Record<string, number> = {};

beforeAll(() => {
  if (!existsSync(new URL('index.js', dist))) throw new Error('dist/ is missing: run `npm run build` first');
});

describe('size budgets (gzip -9 bytes)', () => {
  it(`dist/engage.iife.js ≤ ${BUDGET.iife}`, () => {
    figures['dist/engage.iife.js'] = gzip(readFileSync(new URL('engage.iife.js', dist)));
    expect(figures['dist/engage.iife.js']).toBeLessThanOrEqual(BUDGET.iife);
  });

  it(`a bundle importing only createTracker ≤ ${BUDGET.trackerOnly}, with no client code in it`, async () => {
    const code = await bundle(`import { createTracker } from 'engage-sdk'; window.t = createTracker;`);
    figures['import { createTracker }'] = gzip(code);
    expect(figures['import { createTracker }']).toBeLessThanOrEqual(BUDGET.trackerOnly);
    // The client's paths must be tree-shaken away.
    expect(code).not.toContain('/v1/customer');
    expect(code).not.toContain('fileimports');
  });

  it('prints the figures', async () => {
    const index = readFileSync(new URL('index.js', dist), 'utf8');
    for (const name of ['createClient', 'createFileImports']) {
      if (index.includes(`${name} `) || index.includes(`${name},`)) {
        figures[`import { ${name} }`] = gzip(await bundle(`import { ${name} } from 'engage-sdk'; window.x = ${name};`));
      }
    }
    console.log(
      `\nSize (gzip -9 bytes):\n${Object.entries(figures)
        .map(([name, bytes]) => `  ${name.padEnd(34)} ${String(bytes).padStart(6)}`)
        .join('\n')}\n  (target for the first two: ${TARGET}; budgets enforced: ${BUDGET.iife} and ${BUDGET.trackerOnly})\n`,
    );
    expect(Object.keys(figures).length).toBeGreaterThanOrEqual(2);
  });
});
