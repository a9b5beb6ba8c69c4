import { defineConfig } from 'vitest/config';
import { ENGINE_NAMES, type EngineName } from './test/browsers/engine';

// The browser scenarios, once per engine: test/browsers/<engine>.test.ts. ENGINES=firefox (or a
// comma list) runs a subset; an unknown name fails instead of quietly running nothing.
const engines = (process.env.ENGINES ?? ENGINE_NAMES.join(','))
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const unknown = engines.filter((name) => !ENGINE_NAMES.includes(name as EngineName));
if (unknown.length || !engines.length) throw new Error(`ENGINES: unknown engine(s) ${unknown.join(', ') || '(none)'}; use ${ENGINE_NAMES.join(', ')}`);

export default defineConfig({
  test: {
    include: engines.map((name) => `test/browsers/${name}.test.ts`),
    environment: 'node',
    // A zone with a quarter-hour offset, for every browser process: +05:45 is 20,700 s east.
    env: { TZ: 'Asia/Kathmandu' },
    // One engine at a time: a 2-core machine, and each engine is several processes.
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
