import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './demo/chromium.mjs';

// Real Chromium (Debian's /usr/bin/chromium, or CHROMIUM_PATH), never a downloaded browser.
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  reporter: [['list']],
  use: { launchOptions: chromiumLaunchOptions(), trace: 'off' },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
