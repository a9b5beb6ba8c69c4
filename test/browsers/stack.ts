// The stack each engine's scenarios run against: the real emulator, and one origin serving the
// pages with the real proxy at /engage (demo/stack.mjs, on the build). Its switch `down` takes the
// proxy away the way an outage does (connections reset), which every driver can rely on:
// WebDriver has no offline mode.
import { afterAll, beforeAll } from 'vitest';
import { startStack as start } from '../../demo/stack.mjs';
import { type Engine, type EngineName, launchEngine } from './engine';

export interface DeliveredEvent {
  svc_event_uuid: string;
  customer_id: string;
  user_timezone_offset: number;
  action: string;
  event_time: number;
  platform: string;
  attributes: Record<string, unknown>;
}

export interface Received {
  unique: number;
  duplicates: number;
  events: DeliveredEvent[];
}

export interface TestStack {
  url: string;
  /** While true, every request to /engage is answered with a connection reset. */
  down: boolean;
  /** Requests that reached /engage (the proxy or its reset), in order. */
  arrivals: number[];
  /** A request for a path here waits for its promise, then is served; a number is its answer's status instead. */
  gates: Map<string, Promise<unknown> | number>;
  admin<T = unknown>(path: string, init?: { method?: string; body?: unknown }): Promise<T>;
  received(): Promise<Received>;
  close(): Promise<void>;
}

/** @param proxy createProxy options over the stack's own (test/ops/loss-alert.test.ts keeps the default budgets) */
export async function startTestStack(proxy: Record<string, unknown> = {}): Promise<TestStack> {
  const stack: Partial<TestStack> & Pick<TestStack, 'down' | 'arrivals' | 'gates'> = { down: false, arrivals: [], gates: new Map() };
  const inner = await start({
    // No per-client budget: these scenarios send more in a minute than one real visitor would.
    proxy: { rateLimits: { experienceEvents: {} }, ...proxy },
    intercept: async (request: Request) => {
      const { pathname } = new URL(request.url);
      const gate = stack.gates.get(pathname);
      if (typeof gate === 'number') return new Response(null, { status: gate });
      await gate;
      if (!pathname.startsWith('/engage/')) return undefined;
      stack.arrivals.push(Date.now());
      return stack.down ? Response.error() : undefined;
    },
  });
  const admin = <T>(path: string, init?: { method?: string; body?: unknown }) => emulatorAdmin<T>(inner.emulatorUrl, path, init);
  // `stack` is partial until these are assigned: the assertion says what it then is.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  return Object.assign(stack, {
    url: inner.url,
    admin,
    received: () => admin<Received>('experience-events'),
    close: () => inner.close(),
  }) as TestStack;
}

/** Calls the emulator's admin API (`/_emulator/{path}`): GET, or POST when there is a body. */
export async function emulatorAdmin<T = unknown>(emulatorUrl: string, path: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const response = await fetch(`${emulatorUrl}/_emulator/${path}`, {
    method: init?.method ?? (init?.body === undefined ? 'GET' : 'POST'),
    headers: init?.body === undefined ? undefined : { 'content-type': 'application/json' },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(`emulator admin ${path}: ${response.status} ${await response.text()}`);
  return (await response.json().catch(() => undefined)) as T;
}

/**
 * A describe block's engine and stack: both started before its tests (`use` hands them to the
 * block) and stopped after them, then the lines `report` gives printed. An afterAll the block
 * registers after this call runs before this one's (vitest runs them in reverse), both still up.
 */
export function withEngineAndStack(name: EngineName, use: (engine: Engine, stack: TestStack) => void, report: () => string[] = () => []): void {
  let engine: Engine | undefined;
  let stack: TestStack | undefined;
  beforeAll(async () => {
    stack = await startTestStack();
    engine = await launchEngine(name);
    use(engine, stack);
  });
  afterAll(async () => {
    await engine?.close();
    await stack?.close();
    const lines = report();
    if (lines.length) console.log(lines.join('\n'));
  });
}
