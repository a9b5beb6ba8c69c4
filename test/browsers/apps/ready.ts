// The apps' directory once build-apps.ts (the global set-up, which builds them while the engines'
// suites start) is done; its failure fails the suite that needs an app, with the build's error.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { until } from '../engine';
import { BUILT, FAILED } from './markers';

/** Waits for the single-page apps to be built and returns their directory (see build-apps.ts). */
export async function builtApps(timeoutMs = 600_000): Promise<string> {
  const dir = inject('appsDir');
  await until(
    async () => existsSync(join(dir, BUILT)) || existsSync(join(dir, FAILED)),
    Boolean,
    timeoutMs,
    `the apps built in ${dir}`,
  );
  if (existsSync(join(dir, FAILED))) throw new Error(`the apps' build failed: ${readFileSync(join(dir, FAILED), 'utf8')}`);
  return dir;
}
