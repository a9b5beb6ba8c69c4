// The alert rules shipped in the package (ops/engage-alerts.yml), through Debian's promtool: each
// alert fires on the series its test gives and stays quiet on healthy ones (ops/engage-alerts.test.yml).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const OPS = new URL('../../ops/', import.meta.url).pathname;
const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';

describe('ops/engage-alerts.yml', () => {
  it('passes promtool check and promtool test rules, with a firing and a quiet case for every alert', () => {
    const check = execFileSync(PROMTOOL, ['check', 'rules', 'engage-alerts.yml'], { cwd: OPS, encoding: 'utf8' });
    expect(check).toContain('SUCCESS: 9 rules found');
    const test = execFileSync(PROMTOOL, ['test', 'rules', 'engage-alerts.test.yml'], { cwd: OPS, encoding: 'utf8' });
    expect(test).toContain('SUCCESS');
    const alerts = [...readFileSync(`${OPS}engage-alerts.yml`, 'utf8').matchAll(/- alert: (\w+)/g)].map((m) => m[1]!);
    const tests = readFileSync(`${OPS}engage-alerts.test.yml`, 'utf8');
    expect(alerts).toHaveLength(6);
    for (const alert of alerts) {
      // Each alert has a case that expects it, and one that expects silence.
      const cases = tests.split(`alertname: ${alert}\n`).slice(1);
      expect(
        cases.some((c) => /^\s+exp_alerts:\n\s+- exp_labels/.test(c)),
        `${alert} fires somewhere`,
      ).toBe(true);
      expect(
        cases.some((c) => /^\s+exp_alerts: \[\]/.test(c)),
        `${alert} stays quiet somewhere`,
      ).toBe(true);
    }
  });
});
