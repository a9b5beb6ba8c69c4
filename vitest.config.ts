import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and Node integration tests. The browser scenarios (test/browsers, all three engines) run with
// vitest.browsers.config.ts; the demo's Playwright suite (test/e2e) with `playwright test`.
// The brownout test (3,000 connections at once) runs after everything else, alone: beside it, on
// two cores, the store tests' failovers and timeouts would measure its load, not their code.
const LOAD = ['test/proxy/brownout.test.ts'];
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    // Node's fetch says `User-Agent: node`, a script to the proxy's crawler check: see the file.
    setupFiles: ['test/support/person-user-agent.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/browsers/**', 'node_modules/**', ...LOAD],
          sequence: { groupOrder: 0 },
          // A file per core, not vitest's cores - 1: one file at a time left 2 cores 43 % idle (a file
          // waits on a failover, a server, a child's tsc); two at once took 380 s to 273 s (issue 42).
          maxWorkers: availableParallelism(),
          typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      { extends: true, test: { name: 'load', include: LOAD, sequence: { groupOrder: 1 } } },
    ],
  },
});
