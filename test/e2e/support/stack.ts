import type { Page } from '@playwright/test';
// The proxy suites' wiring (emulator + one origin serving pages with the proxy at /engage), on the
// build, and the tracker harness page shared with the engine scenarios (test/browsers/pages).
import { startStack as start } from '../../../demo/stack.mjs';
import { emulatorAdmin } from '../../browsers/stack';

export interface Stack {
  url: string;
  endpoint: string;
  emulatorUrl: string;
  setProxyKeys(keys: Record<string, string>): void;
  close(): Promise<void>;
}

export interface Received {
  unique: number;
  duplicates: number;
  events: Array<{ svc_event_uuid: string; customer_id: string; user_timezone_offset: number; action: string; event_time: number; attributes: Record<string, unknown> }>;
}

export const startStack = (options: Record<string, unknown> = {}): Promise<Stack> => start(options);

export const admin = <T = unknown>(stack: Stack, path: string, init?: { method?: string; body?: unknown }): Promise<T> => emulatorAdmin<T>(stack.emulatorUrl, path, init);

export const received = (stack: Stack) => admin<Received>(stack, 'experience-events');

/** Opens the harness page and creates a tracker in it. */
export async function openTracker(page: Page, stack: Stack, options: Record<string, unknown> = {}): Promise<void> {
  await page.goto(`${stack.url}/test/browsers/pages/tracker.html`);
  await page.waitForFunction(() => (window as unknown as { harnessReady?: boolean }).harnessReady === true);
  await page.evaluate((o) => (window as unknown as { startTracker(o: unknown): void }).startTracker(o), options);
}

export const record = (page: Page, count: number, action: 'shown' | 'clicked' = 'shown'): Promise<string[]> =>
  page.evaluate(([n, a]) => (window as unknown as { record(n: number, a: string): string[] }).record(n, a), [count, action] as const);
