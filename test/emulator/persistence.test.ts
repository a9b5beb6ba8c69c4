// --data FILE: accepted writes survive a restart (and a crash: they are flushed before the
// answer); a torn last line is skipped; reset empties the journal but keeps rotated keys.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { admin, basic, call, start, xpAction, xpBody } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'engage-emulator-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('persistence with a journal file', () => {
  it('replays experience events, users, events, campaign updates, imports and rotated keys', async () => {
    const file = join(dir, 'state.jsonl');
    const first = await start({ dataFile: file });
    const a = xpAction();
    await call(first, 'experienceEvents', xpBody([a, xpAction()]));
    await call(first, 'experienceEvents', xpBody([a]));
    await call(first, 'users', { type: 'customer', customer_id: 'u-42', attributes: { plan: 'pro' } });
    await call(first, 'events', { type: 'event', customer_id: 'u-42', actions: [{ action: 'A' }] });
    await call(first, 'campaignUpdate', { request_id: 'r1', updated_by: 'a@b.co', utm_params: { utm_source: 's', utm_medium: 'push' } });
    await admin(first, 'file-imports', { body: { import_name: 'kept_import' } });
    const key = first.emulator.rotateKey('data');
    // A refused write is not journaled.
    await call(first, 'users', { type: 'customer' }, { headers: { authorization: basic(key) } });
    const before = {
      xp: first.emulator.getExperienceEvents(),
      users: first.emulator.getUsers(),
      events: first.emulator.getEvents(),
      campaign: first.emulator.getCampaign('camp_abc123xyz'),
    };
    // Simulate a crash: no close(), the next process opens the same file.
    await first.server.close();

    const second = await start({ dataFile: file });
    try {
      expect(second.emulator.getExperienceEvents()).toEqual(before.xp);
      expect(second.emulator.getExperienceEvents()).toMatchObject({ unique: 2, duplicates: 1 });
      expect(second.emulator.getUsers()).toEqual(before.users);
      expect(second.emulator.getEvents()).toEqual(before.events);
      expect(second.emulator.getCampaign('camp_abc123xyz')).toEqual(before.campaign);
      expect(second.emulator.keys.data).toBe(key);
      const imports = await call(second, 'fileImportStatus', { import_name: 'kept_import' }, { headers: { authorization: basic(key) } });
      expect(imports.body.total_count).toBe(1);
      // Dedup still holds across the restart.
      await call(second, 'experienceEvents', xpBody([a]));
      expect(second.emulator.getExperienceEvents().duplicates).toBe(2);
    } finally {
      await second.close();
      first.emulator.close();
    }
  });

  it('skips a torn last line (a crash in the middle of an append)', async () => {
    const file = join(dir, 'torn.jsonl');
    const first = await start({ dataFile: file });
    await call(first, 'experienceEvents', xpBody());
    await first.close();
    appendFileSync(file, '{"kind":"write","operation":"users","at":1,"bo');
    const second = await start({ dataFile: file });
    try {
      expect(second.emulator.getExperienceEvents().unique).toBe(1);
      expect(second.emulator.getUsers().count).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('reset empties the journal but keeps the current keys', async () => {
    const file = join(dir, 'reset.jsonl');
    const first = await start({ dataFile: file });
    await call(first, 'experienceEvents', xpBody());
    const key = first.emulator.rotateKey('campaign');
    first.emulator.reset();
    await first.close();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    const second = await start({ dataFile: file });
    try {
      expect(second.emulator.getExperienceEvents().unique).toBe(0);
      expect(second.emulator.keys.campaign).toBe(key);
    } finally {
      await second.close();
    }
  });
});
