// engage-sdk/proxy/cloudflare: the proxy's shared store on Cloudflare Workers, a Durable Object.
// Web-standard only (no Node built-in, no package), never in a browser bundle or the Node entry.
export { EngageStore } from './stores/engage-store-object';
export { createDurableObjectStore } from './stores/durable-object-store';
export type { EngageStoreState, StoreCall } from './stores/engage-store-object';
export type { DurableObjectStoreOptions, EngageStoreNamespace } from './stores/durable-object-store';
export type { ClaimState, ProxyStore } from './types';
