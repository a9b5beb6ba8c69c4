// The Grafana dashboard shipped in the package (ops/engage-dashboard.json), proven, not only
// parsed: Debian's Prometheus scrapes a real engage-proxy (the built CLI, in its own process) that
// carries real traffic to the emulator — accepted events, loss reports, late events, wrong device
// clocks, requests shed and rate-limited — and every query of every panel must return data.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProxyProcess, startProxyProcess } from '../support/proxy-process';
import { experienceBody, KEYS, startUpstream, type Upstream, WORKSPACE } from '../proxy/support';
import { CRAWLERS, PEOPLE } from '../support/user-agents';
import { drawPanels, type PanelSeries } from './panels-picture';
import { freePort } from '../support/free-port';

const PROMETHEUS = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
const dashboard = JSON.parse(readFileSync(new URL('../../ops/engage-dashboard.json', import.meta.url), 'utf8')) as {
  panels: Array<{ title: string; fieldConfig: { defaults: { unit: string } }; targets: Array<{ expr: string; legendFormat: string }> }>;
};

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

let upstream: Upstream | undefined;
let proxy: ProxyProcess | undefined;
let prometheus: ChildProcess | undefined;
let dir: string | undefined;
let promUrl = '';

async function query(expr: string): Promise<Sample[]> {
  const response = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await response.json()) as { status: string; error?: string; data: { resultType: string; result: Sample[] } };
  if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
  return body.data.result;
}

/** One round of traffic, as browsers would send it: each kind the dashboard shows. */
async function traffic(round: number): Promise<void> {
  const events = `${proxy!.url}/engage/v1/experiences/events`;
  const post = (body: unknown, query: string, userAgent: string = PEOPLE.Firefox) =>
    fetch(`${events}?${query}`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': userAgent }, body: JSON.stringify(body) });
  const now = Date.now();
  // Accepted, 40 s late, from a device 10 min fast, carrying a loss report (a new one each round).
  const late = experienceBody(2);
  for (const action of late.elements[0]!.actions) action.event_time = Math.floor((now + 600_000 - 40_000) / 1000);
  const id = `0b6f3c1e-2d4a-4f6b-9c8d-${String(round).padStart(12, '0')}`;
  await post(late, `sent_at=${now + 600_000}&drops=${id},2,1,3,0,1,0`);
  // Accepted, fresh, from a device 30 s slow.
  await post(experienceBody(1), `sent_at=${now - 30_000}`);
  // A crawler's render: answered, counted, never forwarded.
  await post(experienceBody(1), `sent_at=${Date.now()}`, CRAWLERS.Bingbot);
  // A burst the proxy sheds: one upstream slot, no queue, the upstream slow (latency fault).
  await Promise.all(Array.from({ length: 4 }, () => post(experienceBody(1), `sent_at=${Date.now()}`)));
}

beforeAll(async () => {
  upstream = await startUpstream();
  // Slow enough that a burst finds the one slot taken.
  await upstream.fault({ latencyMs: 150 });
  proxy = await startProxyProcess({
    ENGAGE_WORKSPACE_ID: WORKSPACE,
    ENGAGE_PERSONALIZE_KEY: KEYS.personalize,
    ENGAGE_SDK_URL: upstream.url,
    ENGAGE_BASE_PATH: '/engage',
    ENGAGE_UPSTREAM_CONCURRENCY: '1',
    ENGAGE_UPSTREAM_QUEUE: '0',
    // A client budget the traffic outruns: 429s for the dashboard's refusals.
    ENGAGE_RATE_LIMITS: 'experienceEvents.client=40/min',
    ENGAGE_LOG_LEVEL: 'off',
  });
  dir = mkdtempSync(join(tmpdir(), 'engage-prometheus-'));
  const port = await freePort();
  promUrl = `http://127.0.0.1:${port}`;
  const target = new URL(proxy.url).host;
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: engage-proxy\n    static_configs:\n      - targets: ['${target}']\n`,
  );
  prometheus = spawn(
    PROMETHEUS,
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const log: string[] = [];
  prometheus.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  // Ready, and the proxy scraped at least once.
  const end = Date.now() + 30_000;
  for (;;) {
    const up = await query('up{job="engage-proxy"}').catch(() => []);
    if (up[0]?.value[1] === '1') break;
    if (Date.now() > end || prometheus.exitCode !== null) throw new Error(`Prometheus did not scrape the proxy:\n${log.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 60_000);

afterAll(async () => {
  // By its pid, whatever happened above.
  if (prometheus?.pid && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    process.kill(prometheus.pid, 'SIGTERM');
    await exited;
  }
  await proxy?.stop();
  await upstream?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('ops/engage-dashboard.json against a real Prometheus', () => {
  it('every panel’s every query returns data from a proxy carrying traffic', async () => {
    const targets = dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ panel: panel.title, expr: target.expr })));
    expect(dashboard.panels).toHaveLength(10);
    const missing = async () => {
      const out: string[] = [];
      for (const target of targets) {
        const samples = await query(target.expr);
        if (!samples.some((sample) => Number.isFinite(Number(sample.value[1])))) out.push(target.panel);
      }
      return out;
    };
    // Traffic until every query has data (rates need two scrapes that saw it), within a minute.
    const started = Date.now() / 1000;
    let round = 0;
    let left = await missing();
    const end = Date.now() + 60_000;
    while (left.length && Date.now() < end) {
      await traffic(round++);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      left = await missing();
    }
    expect(left).toEqual([]);
    const figures: string[] = [];
    for (const target of targets) {
      const samples = await query(target.expr);
      expect(samples.length, target.panel).toBeGreaterThan(0);
      figures.push(`${target.panel} | ${samples.map((s) => `${JSON.stringify(s.metric)} ${Number(s.value[1]).toPrecision(3)}`).join('; ') || '(no data)'}`);
    }
    // What the loss reports said, exactly: each round's report counted once.
    const lost = await query('sum by (reason) (engage_proxy_client_dropped_events_total)');
    const byReason = Object.fromEntries(lost.map((s) => [s.metric.reason, Number(s.value[1])]));
    expect(byReason.queue_full! / 3).toBe(byReason.expired! / 2);
    expect(byReason.queue_full).toBeGreaterThan(0);
    // Every round's crawler render counted, none forwarded.
    const [bots] = await query('engage_proxy_bot_events_total');
    expect(Number(bots!.value[1])).toBeGreaterThan(0);
    if (process.env.ENGAGE_OPS_PICTURE === '1') await picture(started, round);
    console.log(['[ops] dashboard queries on a real Prometheus', `rounds of traffic: ${round}`, ...figures].join('\n'));
  }, 120_000);
});

/** docs/operations-panels.png: every panel over the test's traffic, as Prometheus answered. */
async function picture(from: number, rounds: number): Promise<void> {
  const to = Date.now() / 1000;
  const panels: PanelSeries[] = [];
  for (const panel of dashboard.panels) {
    const series: PanelSeries['series'] = [];
    for (const target of panel.targets) {
      const url = `${promUrl}/api/v1/query_range?query=${encodeURIComponent(target.expr)}&start=${from}&end=${to}&step=1`;
      const body = (await (await fetch(url)).json()) as { data: { result: Array<{ metric: Record<string, string>; values: Array<[number, string]> }> } };
      for (const result of body.data.result) {
        const name = target.legendFormat.replace(/\{\{(\w+)\}\}/g, (_, label: string) => result.metric[label] ?? '');
        series.push({ name, points: result.values.map(([t, v]) => [t, Number(v)]) });
      }
    }
    panels.push({ title: panel.title, unit: panel.fieldConfig.defaults.unit, series });
  }
  const path = new URL('../../docs/operations-panels.png', import.meta.url).pathname;
  await drawPanels(
    panels,
    path,
    `Debian's Prometheus ${'2.42'}, scraping engage-proxy every second through ${rounds} rounds of test traffic (test/ops/dashboard.test.ts); queries from ops/engage-dashboard.json.`,
  );
}
