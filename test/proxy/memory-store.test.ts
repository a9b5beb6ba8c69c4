// The default store keeps the same promises as the Redis one (test/proxy/store-contract.ts).
import { createMemoryStore } from '../../src/proxy/stores/memory-store';
import { describeStoreContract } from './store-contract';

describeStoreContract(
  'memory store',
  async () => {
    let now = 1_000_000;
    return { store: createMemoryStore({ now: () => now }), advance: async (ms) => void (now += ms) };
  },
  { shortTtlMs: 100 },
);
