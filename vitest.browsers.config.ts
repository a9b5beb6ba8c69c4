import { defineConfig } from 'vitest/config';

// The same list as ENGINE_NAMES in test/browsers/engine.ts, not imported: loading the seam here
// would make Vite bundle it (and its driver imports) into the config.
const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'];

// The browser scenarios, once per engine: test/browsers/<engine>.test.ts. ENGINES=firefox (or a
// comma list) runs a subset; an unknown name fails instead of quietly running nothing.
const engines = (process.env.ENGINES ?? ENGINE_NAMES.join(','))
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const unknown = engines.filter((name) => !ENGINE_NAMES.includes(name));
if (unknown.length || !engines.length) throw new Error(`ENGINES: unknown engine(s) ${unknown.join(', ') || '(none)'}; use ${ENGINE_NAMES.join(', ')}`);

export default defineConfig({
  test: {
    include: engines.map((name) => `test/browsers/${name}.test.ts`),
    environment: 'node',
    // The single-page apps each engine drives (test/browsers/apps), built once for all of them.
    globalSetup: ['test/browsers/apps/build-apps.ts'],
    // A zone with a quarter-hour offset, for every browser process: +05:45 is 20,700 s east.
    env: { TZ: 'Asia/Kathmandu' },
    // The engines side by side, one worker process each: their suites mostly wait (a second in
    // view, a backoff, a closed tab, the network), so on 2 cores three at once take about the
    // time of the slowest alone (docs/contributing.md has the figures). Nothing is shared between
    // them: each suite starts its own stacks on ephemeral ports, its own browser profiles, and
    // WebKit its own Xvfb display; only the apps built by the global setup are read by all three.
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: engines.length,
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
