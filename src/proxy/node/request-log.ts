import pino from 'pino';
import type { ProxyLogEntry } from '../types';
import { logLine, type LogFormat } from './log-line';

/** `ENGAGE_LOG_LEVEL`: `info` logs every request, `warn` only problems, `off` nothing. */
export type LogLevel = 'info' | 'warn' | 'error' | 'off';
export const LOG_LEVELS: readonly LogLevel[] = ['info', 'warn', 'error', 'off'];
const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2, off: 3 };

export interface RequestLog {
  /** Writes the entry if its level is on (info lines to stdout, warnings and errors to stderr). */
  write(entry: ProxyLogEntry): void;
  /** Writes out what is buffered, synchronously: call before the process exits. */
  flush(): void;
}

/**
 * engage-proxy's request log. `console.log` blocks the event loop on every line when stdout is
 * a pipe or a file (Kubernetes, systemd, a redirect); pino's destination (sonic-boom) writes
 * asynchronously, in 4 KiB writes, so a busy proxy pays a few microseconds a request. `json`
 * lines are pino's (`level` as a name, ISO `time`, then the entry); `text` lines are
 * `logLine`'s. With `ENGAGE_WORKERS`, each line names its `worker`. Entries carry no key, body
 * or header value.
 */
export function createRequestLog(format: LogFormat, level: LogLevel, worker?: number): RequestLog {
  const threshold = RANK[level];
  // Request lines gather into 4 KiB writes (each write is a trip through libuv's thread pool), at
  // most 250 ms late when traffic is light; flush() writes the rest at exit. Problems, rare and
  // wanted at once, are written as they come.
  const streams = {
    info: pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 }),
    problems: pino.destination({ dest: 2, sync: false }),
  };
  const json = (stream: pino.DestinationStream) =>
    pino({ base: worker === undefined ? null : { worker }, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, stream);
  const loggers = format === 'json' ? { info: json(streams.info), problems: json(streams.problems) } : undefined;
  return {
    write(entry) {
      if (RANK[entry.level] < threshold) return;
      const where = entry.level === 'info' ? 'info' : 'problems';
      if (!loggers) return void streams[where].write(`${logLine(entry, 'text')}${worker === undefined ? '' : ` worker=${worker}`}\n`);
      const { level: entryLevel, ...rest } = entry;
      loggers[where][entryLevel](rest);
    },
    flush() {
      for (const stream of Object.values(streams)) {
        try {
          stream.flushSync();
        } catch {
          // Not open yet, or already closed: nothing left to write.
        }
      }
    },
  };
}
