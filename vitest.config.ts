import { defineConfig } from 'vitest/config';

// Unit and Node integration tests. The browser scenarios (test/browsers, all three engines) run with
// vitest.browsers.config.ts; the demo's Playwright suite (test/e2e) with `playwright test`.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/browsers/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 20_000,
    typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
