// What the proxy benches send, how they drive a handler, and how they report it.
import { performance } from 'node:perf_hooks';
import { PERSON_USER_AGENT } from '../demo/chromium.mjs';

/**
 * The headers of a tracker's request: a person's browser. The proxy answers a crawler's (and a
 * script's without a user agent) events without forwarding them, which is not what a bench measures.
 */
export const PAGE_HEADERS = { 'content-type': 'application/json', 'user-agent': PERSON_USER_AGENT };

/** An experience-events body of `actions` fresh events (new UUIDs), as the tracker sends it. */
export function experienceBody(actions = 1) {
  const now = Math.floor(Date.now() / 1000) - 1;
  return JSON.stringify({
    elements: [
      {
        customer_id: 'bench-user',
        user_timezone_offset: 19800,
        actions: Array.from({ length: actions }, () => ({
          action: 'SVC_PERSONALIZATION_MESSAGE_SHOWN',
          svc_event_uuid: crypto.randomUUID(),
          event_time: now,
          platform: 'web',
          attributes: { cid: 'c1', experience: 'Hero', svc_locale_id: '0', svc_variation_id: '2', audience_name: 'All', audience_id: '5A', type: 'Web Personalization' },
        })),
      },
    ],
  });
}

/** The `p`th percentile of an ascending list. */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
export const ms = (n) => `${n.toFixed(3)} ms`;

/**
 * Calls `handler` with `makeRequest()` from `concurrency` loops for `durationMs`, in this process,
 * and returns requests per wall second and per CPU-second of this process. Every answer must be 200.
 */
export async function throughput(label, handler, makeRequest, { durationMs, concurrency }) {
  let done = 0;
  const until = performance.now() + durationMs;
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const res = await handler(makeRequest(), { clientAddress: '127.0.0.1' });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`bench: ${label} answered ${res.status}`);
        done++;
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return { label, rps: done / wall, perCpuSecond: done / ((cpu.user + cpu.system) / 1e6), done };
}
