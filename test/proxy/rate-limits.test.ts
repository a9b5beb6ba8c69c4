// Limits an operator sets: ENGAGE_RATE_LIMITS, and the defaults it starts from.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../src/proxy/pipeline/rate-limit';
import { rateLimitsFromEnv } from '../../src/proxy/node/rate-limits-env';
import { experienceBody, harness, type Harness } from './support';

describe('ENGAGE_RATE_LIMITS', () => {
  it('keeps the defaults when unset, and `off` removes every budget', () => {
    expect(rateLimitsFromEnv(undefined)).toEqual({ limits: DEFAULT_RATE_LIMITS });
    const off = rateLimitsFromEnv(' OFF ');
    expect('limits' in off && Object.values(off.limits)).toEqual([{}, {}, {}, {}, {}]);
  });

  it('replaces only the scopes it names, with several windows joined by +', () => {
    const result = rateLimitsFromEnv(
      'experienceEvents.client=600/min, experienceEvents.workspace=50000/5min, campaignUpdate.workspace=5/s+50/min+1000/h, events.client=off',
    );
    if (!('limits' in result)) throw new Error(result.errors.join('\n'));
    expect(result.limits.experienceEvents).toEqual({
      client: [{ limit: 600, windowMs: 60_000 }],
      workspace: [{ limit: 50_000, windowMs: 300_000 }],
      reports: DEFAULT_RATE_LIMITS.experienceEvents.reports,
    });
    expect(result.limits.campaignUpdate.workspace).toEqual([
      { limit: 5, windowMs: 1_000 },
      { limit: 50, windowMs: 60_000 },
      { limit: 1_000, windowMs: 3_600_000 },
    ]);
    expect(result.limits.events).toEqual({ workspace: DEFAULT_RATE_LIMITS.events.workspace, client: [] });
    expect(result.limits.users).toEqual(DEFAULT_RATE_LIMITS.users);
  });

  it('`reports` sets the loss reports and late deliveries one address may have counted, for experience events only', () => {
    expect(DEFAULT_RATE_LIMITS.experienceEvents.reports).toEqual([{ limit: 3, windowMs: 3_600_000 }]);
    const result = rateLimitsFromEnv('experienceEvents.reports=1/10min+6/h');
    expect('limits' in result && result.limits.experienceEvents.reports).toEqual([
      { limit: 1, windowMs: 600_000 },
      { limit: 6, windowMs: 3_600_000 },
    ]);
    expect(rateLimitsFromEnv('users.reports=1/h')).toEqual({
      errors: [
        "ENGAGE_RATE_LIMITS: 'users.reports=1/h': 'reports' is a scope of experienceEvents only (the loss reports and late deliveries one client address may have counted)",
      ],
    });
  });

  it('`*` names every operation', () => {
    const result = rateLimitsFromEnv('*.client=off');
    expect('limits' in result && Object.values(result.limits).map((limits) => limits.client)).toEqual([[], [], [], [], []]);
  });

  it('reports every mistake at once, naming the variable, the rule and what is wrong', () => {
    expect(rateLimitsFromEnv('experienceEvent.client=10/min,users.everyone=5/s,users.client=ten/min,events.client=0/s,users.workspace')).toEqual({
      errors: [
        "ENGAGE_RATE_LIMITS: 'experienceEvent.client=10/min': 'experienceEvent' is not an operation (one of experienceEvents, users, events, campaignUpdate, fileImportStatus, or *)",
        "ENGAGE_RATE_LIMITS: 'users.everyone=5/s': 'everyone' is not a scope (client, workspace, or reports for experienceEvents)",
        "ENGAGE_RATE_LIMITS: 'users.client=ten/min': 'ten/min' is not a budget: a positive count per window, e.g. 1200/min, 10/s, 500/5min (windows s, min, h), or off",
        "ENGAGE_RATE_LIMITS: 'events.client=0/s': '0/s' is not a budget: a positive count per window, e.g. 1200/min, 10/s, 500/5min (windows s, min, h), or off",
        "ENGAGE_RATE_LIMITS: 'users.workspace': expected <operation>.<scope>=<limit>/<window>[+...] or <operation>.<scope>=off, e.g. experienceEvents.client=1200/min",
      ],
    });
  });

  it('a bad value stops engage-proxy at start-up with the message', async () => {
    const cli = resolve(import.meta.dirname, '../../dist/proxy-cli.js');
    const env = {
      PATH: process.env.PATH,
      ENGAGE_WORKSPACE_ID: 'W',
      ENGAGE_PERSONALIZE_KEY: 'k',
      ENGAGE_SDK_URL: 'http://127.0.0.1:1',
      ENGAGE_RATE_LIMITS: 'experienceEvents.client=lots',
    };
    const child = spawn(process.execPath, [cli], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stderr.on('data', (chunk) => (out += chunk));
    expect(await new Promise((done) => child.once('exit', done))).toBe(1);
    expect(out).toContain("engage-proxy: ENGAGE_RATE_LIMITS: 'experienceEvents.client=lots': 'lots' is not a budget");
  });
});

describe('default limits', () => {
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  // The old default capped a workspace at 30,000 experience events a minute, a quota the upstream
  // does not have: a busy site's browsers held (and past their bounds, dropped) the rest.
  it('put no workspace cap on experience events: 32,000 in a minute from 32 clients all pass', async () => {
    h = await harness();
    const statuses: number[] = [];
    for (let client = 0; client < 32; client++) {
      for (let i = 0; i < 2; i++) {
        const res = await h.call('/v1/experiences/events', { json: experienceBody(500), clientAddress: `198.51.100.${client}` });
        statuses.push(res.status);
      }
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect((await h.upstream.experienceEvents()).unique).toBe(32_000);
  }, 60_000);

  it('keep the per-client cap of 1,200 experience events a minute', async () => {
    h = await harness();
    const client = '198.51.100.200';
    expect((await h.call('/v1/experiences/events', { json: experienceBody(600), clientAddress: client })).status).toBe(200);
    expect((await h.call('/v1/experiences/events', { json: experienceBody(600), clientAddress: client })).status).toBe(200);
    const refused = await h.call('/v1/experiences/events', { json: experienceBody(1), clientAddress: client });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
