// Slow clients cost a deadline, not a connection held for minutes: 2,000 connections to
// engage-proxy that declare a 60 KB body and send one byte every 2 s, on loopback, are all ended by
// ENGAGE_REQUEST_TIMEOUT_MS (408), while a normal request is served meanwhile.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxyProcess, type ProxyProcess } from '../support/proxy-process';
import { experienceBody, KEYS, startUpstream, WORKSPACE, type Upstream } from './support';

const SLOW = 2_000;
const TIMEOUT_MS = 3_000;
let upstream: Upstream;
let proxy: ProxyProcess;

beforeAll(async () => {
  upstream = await startUpstream();
  proxy = await startProxyProcess({
    ENGAGE_WORKSPACE_ID: WORKSPACE,
    ENGAGE_PERSONALIZE_KEY: KEYS.personalize,
    ENGAGE_SDK_URL: upstream.url,
    ENGAGE_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
    ENGAGE_LOG_LEVEL: 'error',
  });
});
afterAll(async () => {
  await proxy?.stop();
  await upstream?.close();
});

interface Slow {
  socket: Socket;
  openedAt: number;
  endedAt?: number;
  answer: string;
}

function slowClient(port: number): Promise<Slow> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const slow: Slow = { socket, openedAt: 0, answer: '' };
    let drip: ReturnType<typeof setInterval> | undefined;
    socket.on('connect', () => {
      slow.openedAt = Date.now();
      socket.write(`POST /v1/experiences/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 61440\r\n\r\n{`);
      drip = setInterval(() => socket.write('"'), 2_000);
      resolve(slow);
    });
    socket.on('data', (chunk) => (slow.answer += chunk.toString()));
    socket.on('close', () => {
      clearInterval(drip);
      slow.endedAt = Date.now();
    });
    socket.on('error', (error) => (slow.openedAt ? undefined : reject(error)));
  });
}

describe('ENGAGE_REQUEST_TIMEOUT_MS', () => {
  it(`2,000 connections trickling a declared 60 KB body are all ended (408) by the ${TIMEOUT_MS} ms deadline; a normal request is served meanwhile`, async () => {
    const port = Number(new URL(proxy.url).port);
    const slow: Slow[] = [];
    // In batches: a listen backlog holds a few hundred connections at a time.
    for (let i = 0; i < SLOW; i += 200) slow.push(...(await Promise.all(Array.from({ length: 200 }, () => slowClient(port)))));
    const normal = await fetch(`${proxy.url}/v1/experiences/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(experienceBody(3)),
    });
    expect(normal.status).toBe(200);
    expect(slow.filter((s) => s.endedAt === undefined).length).toBeGreaterThan(0); // still held while the normal one was served
    await expect.poll(() => slow.filter((s) => s.endedAt === undefined).length, { timeout: TIMEOUT_MS + 10_000, interval: 200 }).toBe(0);
    const held = slow.map((s) => s.endedAt! - s.openedAt).sort((a, b) => a - b);
    const answered = slow.filter((s) => s.answer.startsWith('HTTP/1.1 408 ')).length;
    console.log(`${SLOW} slow bodies: held ${held[0]}–${held.at(-1)} ms (median ${held[SLOW / 2]}), ${answered} answered 408; a normal request served meanwhile`);
    expect(answered).toBe(SLOW);
    // Ended by the deadline (plus Node's check interval, a tenth of it), not by Node's default 5 minutes.
    expect(held.at(-1)!).toBeLessThan(TIMEOUT_MS + 2_000);
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
    expect(Number(/^engage_proxy_request_timeouts_total (\d+)/m.exec(metrics)![1])).toBe(SLOW);
  }, 40_000);
});
