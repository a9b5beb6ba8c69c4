// A queue written by the previous release is read and delivered by this build (issue 48): the
// build now renames internal members, and what IndexedDB holds must not move with them. The
// fixture (fixtures/old-queue.json) is the queue's store exactly as the script tag of de9243e, the
// last build before, wrote it in Chromium: three events of a customer (a click with a b_id) and
// the loss report's record (one `invalid`). Here it is written back into the same database and
// store, then this build's script tag (pages/drops.html) delivers it through the real proxy to
// the emulator: every event once, with its UUID, customer, action and attributes as recorded, and
// the old record's count on the proxy's /metrics.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import fixture from './fixtures/old-queue.json';
import { type Engine, type EngineName, type EnginePage, launchEngine, openedPages, until } from './engine';
import { startTestStack, type TestStack } from './stack';
import { queuedEvents } from '../support/queued-events';

type Win = Window & { Engage: { createTracker(options: Record<string, unknown>): { flush(): Promise<void> } } };
interface OldEvent {
  uuid: string;
  action: string;
  customerId: string;
  attributes: Record<string, unknown>;
  recordedAt: number;
  time: number;
}
type OldRecord = [key: string | [string, number, string], value: unknown];

/**
 * Writes the fixture's records into the page's IndexedDB as the old release left them. Only their
 * dates move (by `shift` ms, keys too), so that the events are a second old, not older than
 * `maxEventAge`; the loss report's record has `undefined` where JSON keeps `null`.
 */
const writeOldQueue = ({ records, database, store, shift }: { records: OldRecord[]; database: string; store: string; shift: number }) =>
  new Promise<number>((resolve, reject) => {
    const open = indexedDB.open(database);
    open.onupgradeneeded = () => open.result.createObjectStore(store);
    open.onerror = () => reject(new Error(`IndexedDB: ${open.error?.message}`));
    open.onsuccess = () => {
      const tx = open.result.transaction(store, 'readwrite');
      for (const [key, value] of records) {
        if (typeof key === 'string') {
          const [counts, report] = value as [number[], string | null];
          tx.objectStore(store).put([counts, report ?? undefined], key);
        } else {
          const events = (value as Array<{ recordedAt: number; time: number }>).map((event) => ({
            ...event,
            recordedAt: event.recordedAt + shift,
            time: event.time + Math.round(shift / 1000),
          }));
          tx.objectStore(store).put(events, [key[0], key[1] + shift, key[2]]);
        }
      }
      tx.oncomplete = () => resolve((open.result.close(), records.length));
      tx.onerror = () => reject(new Error(`IndexedDB: ${tx.error?.message}`));
    };
  });

export function describeOldQueue(name: EngineName): void {
  describe(`${name}: a queue the previous release wrote`, () => {
    let engine: Engine;
    let stack: TestStack;
    const pages = openedPages(() => engine);
    const records = fixture.records as OldRecord[];
    const oldEvents = records.filter(([key]) => Array.isArray(key)).flatMap(([, segment]) => segment as OldEvent[]);

    const invalidOnMetrics = async () =>
      Number(/engage_proxy_client_dropped_events_total\{reason="invalid"\} (\d+)/.exec(await (await fetch(`${stack.url}/metrics`)).text())?.[1] ?? 0);

    beforeAll(async () => {
      stack = await startTestStack();
      engine = await launchEngine(name);
    });
    afterEach(() => pages.closeAll());
    afterAll(async () => {
      await engine?.close();
      await stack?.close();
    });

    test('is read and delivered by this build: each event once, as recorded, and its loss report counted', async () => {
      expect(oldEvents).toHaveLength(3);
      const page: EnginePage = await pages.open();
      await page.goto(`${stack.url}/test/browsers/pages/drops.html`);
      await until(
        () => page.evaluate(() => typeof (window as unknown as Win).Engage?.createTracker),
        (type) => type === 'function',
        15_000,
        'the script tag',
      );
      const newest = Math.max(...oldEvents.map((event) => event.recordedAt));
      const written = await page.evaluate(writeOldQueue, { records, database: fixture.database, store: fixture.store, shift: Date.now() - 1_000 - newest });
      expect(written).toBe(records.length);
      expect(await page.evaluate(queuedEvents)).toBe(3);
      const invalidBefore = await invalidOnMetrics();

      // A page of this build, as a site has it after the upgrade (no customer of its own: the events carry theirs).
      const flushed = await page.evaluate(() => {
        const tracker = (window as unknown as Win).Engage.createTracker({ endpoint: '/engage', flushInterval: 600_000 });
        return tracker.flush().then(
          () => 'ok',
          (error: Error) => `${error.name}: ${error.message}`,
        );
      });
      expect(flushed).toBe('ok');

      const { events, duplicates } = await stack.received();
      const delivered = events.filter((event) => oldEvents.some((old) => old.uuid === event.svc_event_uuid));
      expect(duplicates).toBe(0);
      expect(delivered.map((event) => event.svc_event_uuid).sort()).toEqual(oldEvents.map((event) => event.uuid).sort());
      for (const old of oldEvents) {
        const event = delivered.find((candidate) => candidate.svc_event_uuid === old.uuid)!;
        expect(event).toMatchObject({ customer_id: old.customerId, action: old.action, platform: 'web' });
        expect(event.attributes).toEqual(old.attributes);
      }
      expect(await page.evaluate(queuedEvents)).toBe(0);
      // The old record's count, sent with this build's report id.
      expect((await invalidOnMetrics()) - invalidBefore).toBe(1);
    });
  });
}
