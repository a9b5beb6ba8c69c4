// A picture of the dashboard's panels as a real Prometheus answered them (docs/operations.md shows
// it): each panel's series over the test's traffic, drawn as SVG lines in a small page and
// screenshot by headless Chromium. Made by test/ops/dashboard.test.ts when ENGAGE_OPS_PICTURE=1.
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../demo/chromium.mjs';

export interface PanelSeries {
  title: string;
  unit: string;
  series: Array<{ name: string; points: Array<[number, number]> }>;
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2'];
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function svg(panel: PanelSeries): string {
  const all = panel.series.flatMap((s) => s.points).filter(([, v]) => Number.isFinite(v));
  if (!all.length) return '<p class="none">no data on this build</p>';
  const [x0, x1] = [Math.min(...all.map(([t]) => t)), Math.max(...all.map(([t]) => t))];
  const [y0, y1] = [Math.min(0, ...all.map(([, v]) => v)), Math.max(...all.map(([, v]) => v))];
  const x = (t: number) => (x1 === x0 ? 0 : ((t - x0) / (x1 - x0)) * 360);
  const y = (v: number) => 110 - (y1 === y0 ? 0 : ((v - y0) / (y1 - y0)) * 100);
  const lines = panel.series
    .map(
      (s, i) =>
        `<polyline fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2" points="${s.points
          .filter(([, v]) => Number.isFinite(v))
          .map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`)
          .join(' ')}"/>`,
    )
    .join('');
  const legend = panel.series
    .map((s, i) => {
      const last = s.points.filter(([, v]) => Number.isFinite(v)).at(-1)?.[1];
      return `<span style="color:${COLOURS[i % COLOURS.length]}">■</span> ${escape(s.name)} ${last === undefined ? '' : `<b>${last.toPrecision(3)}</b>`}`;
    })
    .join(' &nbsp; ');
  return `<svg viewBox="0 0 360 115" width="360" height="115"><text x="0" y="10" class="axis">${y1.toPrecision(3)} ${escape(panel.unit)}</text>${lines}</svg><div class="legend">${legend}</div>`;
}

/** Writes a PNG of `panels` to `path`. */
export async function drawPanels(panels: PanelSeries[], path: string, caption: string): Promise<void> {
  const html = `<!doctype html><meta charset="utf-8"><style>
    body{font:12px system-ui,sans-serif;margin:12px;background:#fff;color:#222;width:780px}
    .grid{display:grid;grid-template-columns:1fr 1fr;gap:10px}
    .panel{border:1px solid #ccc;border-radius:4px;padding:6px 8px}
    h2{font-size:13px;margin:0 0 4px}.axis{font-size:9px;fill:#888}.legend{font-size:11px}.none{color:#888}
    p.caption{color:#555;margin:8px 0 0}</style>
    <div class="grid">${panels.map((panel) => `<div class="panel"><h2>${escape(panel.title)}</h2>${svg(panel)}</div>`).join('')}</div>
    <p class="caption">${escape(caption)}</p>`;
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const page = await browser.newPage({ viewport: { width: 804, height: 400 } });
    await page.setContent(html);
    await page.screenshot({ path, fullPage: true });
  } finally {
    await browser.close();
  }
}
