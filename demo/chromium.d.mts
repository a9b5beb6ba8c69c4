// Types of demo/chromium.mjs, for TypeScript callers.
export declare function chromiumLaunchOptions(): { executablePath: string; args: string[] };
export declare const PERSON_USER_AGENT: string;
