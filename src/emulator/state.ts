import type { KeyTile } from '../upstream/operations';
import type { IdentityResolution } from '../upstream/problem';
import { KEY_TILES, type Keys } from './auth';
import { applyCampaignUpdate } from './campaigns';
import { createLiveImport, liveRecord, parseLiveImportSpec, seedImports, type ImportRecord } from './file-imports';
import { Journal, type JournalEntry } from './journal';
import { hex, seededRandom } from './random';
import { seedCampaigns } from './seed-campaigns';
import { Store } from './store';

type WriteOperation = Extract<JournalEntry, { kind: 'write' }>['operation'];

/**
 * What the emulator holds between requests: the keys, what it received, the seeded campaigns and
 * imports, the live imports. With a data file, each change is journaled (flushed) before it is
 * applied, and the journal is replayed at start through the same code, with its timestamps.
 */
export class EmulatorState {
  /** Replaced whole by a reset. */
  store: Store;
  private readonly journal: Journal | undefined;
  private readonly importIds: () => number;
  private importCounter = 0;

  constructor(
    readonly keys: Keys,
    private readonly settings: { seed: number; clock: () => number; identityResolution?: IdentityResolution; dataFile?: string },
  ) {
    this.store = this.freshStore();
    this.importIds = seededRandom(settings.seed ^ 0x1d5);
    this.journal = settings.dataFile ? new Journal(settings.dataFile) : undefined;
    for (const entry of this.journal?.read() ?? []) this.replay(entry);
  }

  /** Journals an accepted write, then stores it. */
  write(operation: WriteOperation, body: Record<string, unknown>, at: number, campaignId?: string): void {
    this.journal?.append({ kind: 'write', operation, at, body, campaignId });
    this.apply(operation, body, at, campaignId);
  }

  /** Generates a new key for `tile`; the old one stops working at once. */
  rotateKey(tile: KeyTile): string {
    if (!KEY_TILES.includes(tile)) throw new Error(`tile must be one of ${KEY_TILES.join(', ')}`);
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    const key = `${tile}-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    this.journal?.append({ kind: 'rotate', tile, key });
    this.keys[tile] = key;
    return key;
  }

  /** Creates an import that moves QUEUED → PROCESSING → final status; throws on a bad spec. */
  createFileImport(input: unknown): ImportRecord {
    const spec = parseLiveImportSpec(input);
    const at = this.settings.clock();
    const id = `${hex(this.importIds, 16)}${String(this.importCounter).padStart(8, '0')}`;
    this.journal?.append({ kind: 'fileImport', at, id, spec });
    return this.addLiveImport(spec, at, id);
  }

  /** Every import as of `now`: the live ones first, then the seeded ones. */
  imports(now: number): ImportRecord[] {
    return [...this.store.live.map((live) => liveRecord(live, now)), ...this.store.imports];
  }

  /** Back to the seeds; the journal keeps only the current keys. */
  reset(): void {
    this.store = this.freshStore();
    this.journal?.truncate(KEY_TILES.map((tile) => ({ kind: 'rotate', tile, key: this.keys[tile] })));
  }

  close(): void {
    this.journal?.close();
  }

  private freshStore(): Store {
    const store = new Store();
    store.campaigns = new Map(seedCampaigns().map((c) => [c.id, c]));
    store.imports = seedImports(this.settings.seed, this.settings.clock());
    return store;
  }

  private replay(entry: JournalEntry): void {
    if (entry.kind === 'rotate') this.keys[entry.tile] = entry.key;
    else if (entry.kind === 'fileImport') this.addLiveImport(parseLiveImportSpec(entry.spec), entry.at, entry.id);
    else if (entry.kind === 'write') this.apply(entry.operation, entry.body as Record<string, unknown>, entry.at, entry.campaignId);
  }

  private apply(operation: WriteOperation, body: Record<string, unknown>, at: number, campaignId?: string): void {
    if (operation === 'experienceEvents') this.store.applyExperience(body, at);
    else if (operation === 'users') this.store.applyUser(body, at, this.settings.identityResolution?.identifiers);
    else if (operation === 'events') this.store.applyEvents(body, at);
    else {
      const campaign = this.store.campaigns.get(campaignId!);
      if (campaign) applyCampaignUpdate(campaign, body, new Date(at).toISOString());
    }
  }

  private addLiveImport(spec: ReturnType<typeof parseLiveImportSpec>, at: number, id: string): ImportRecord {
    const live = createLiveImport(spec, at, id);
    this.store.live.push(live);
    this.importCounter++;
    return liveRecord(live, this.settings.clock());
  }
}
