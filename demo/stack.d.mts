// Types of demo/stack.mjs (the shared dev stack), for TypeScript callers.
export declare const repoRoot: string;

export interface StackOptions {
  port?: number;
  emulatorPort?: number;
  emulator?: Record<string, unknown>;
  proxy?: Record<string, unknown>;
  root?: string;
  routes?: (request: Request) => Promise<Response | undefined>;
  intercept?: (request: Request) => Promise<Response | undefined> | Response | undefined;
  headers?: (url: URL) => Record<string, string> | undefined;
  [option: string]: unknown;
}

export interface StartedStack {
  url: string;
  endpoint: string;
  emulatorUrl: string;
  emulator: import('../src/emulator/index.ts').Emulator;
  setProxyKeys(keys: Record<string, string>): void;
  close(): Promise<void>;
}

export declare function startStack(options?: StackOptions): Promise<StartedStack>;
