import { closeSync, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';

/** One line of the journal: an accepted write, replayed in order at start. */
export type JournalEntry =
  | { kind: 'write'; operation: 'experienceEvents' | 'users' | 'events' | 'campaignUpdate'; at: number; body: unknown; campaignId?: string }
  | { kind: 'rotate'; tile: 'data' | 'personalize' | 'campaign'; key: string }
  | { kind: 'fileImport'; at: number; id: string; spec: unknown };

/**
 * An append-only JSON-lines journal. Each accepted write is appended and flushed to disk
 * (`fdatasync`) before the response is sent, so an acknowledged write survives a crash of the
 * process or of the machine. A torn last line (crash mid-append) is skipped at replay.
 */
export class Journal {
  private readonly fd: number;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a+', 0o600);
  }

  /** Entries already in the file, oldest first. */
  read(): JournalEntry[] {
    const entries: JournalEntry[] = [];
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch {
        // Only the last line can be torn; anything unreadable is skipped rather than fatal.
      }
    }
    return entries;
  }

  append(entry: JournalEntry): void {
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    fdatasyncSync(this.fd);
  }

  /** Empties the journal (reset), keeping `keep` entries (e.g. the current keys). */
  truncate(keep: JournalEntry[] = []): void {
    ftruncateSync(this.fd, 0);
    for (const entry of keep) writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    fdatasyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
