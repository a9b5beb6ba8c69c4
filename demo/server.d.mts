// Types of demo/server.mjs, for the TypeScript tests that start the demo.
export declare const STRICT_CSP: string;

export interface DemoExperienceEvent {
  action: string;
  svc_event_uuid: string;
  customer_id?: string;
  attributes: Record<string, string>;
}

export interface Demo {
  /** The storefront (script-tag page): `${siteUrl}/demo/`. */
  url: string;
  siteUrl: string;
  endpoint: string;
  emulatorUrl: string;
  emulator: {
    keys: { data: string; personalize: string; campaign: string };
    getExperienceEvents(): { unique: number; duplicates: number; events: DemoExperienceEvent[] };
  };
  setProxyKeys(keys: Record<string, string>): void;
  close(): Promise<void>;
}

export declare function startDemo(options?: {
  port?: number;
  emulatorPort?: number;
  proxy?: Record<string, unknown>;
  /** Tried before everything (a test's outage switch or request log); undefined lets the request through. */
  intercept?: (request: Request) => Promise<Response | undefined> | Response | undefined;
}): Promise<Demo>;
