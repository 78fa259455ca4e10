/**
 * bench:ui cdc — a 10,000-change burst played through the CDC workbench (the scenario player's
 * "A burst of 10,000 changes", variant 1 on the embedded services) in Debian's Chromium against a
 * real `loupe serve`. While it runs, a marker change (id 1 renamed, with a higher version) is
 * committed through the host API, one at a time; the time from its commit to its version shown in
 * the FINAL view is measured in the page (./painted-at.ts: checked after every DOM change and
 * frame, then the frame that paints it), not by Playwright's locator polling, which waits up to
 * 500 ms between looks. Long tasks
 * (PerformanceObserver 'longtask') are collected for the whole burst. Targets: median < 500 ms,
 * no long task over 50 ms. `LOUPE_BENCH_CDC_MARKERS` changes the number of markers (20).
 */
import { chromium, type Page } from 'playwright-core';
import { startLoupeServe, type LoupeServe } from '../../e2e/loupe-serve.js';
import { formatMs, formatTable, median, positiveInt } from '../bench-util.js';
import { paintedAt } from './painted-at.js';

const CHROMIUM = process.env.LOUPE_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TARGET_MS = 500;
const LONG_TASK_MS = 50;


async function api<T>(loupe: LoupeServe, method: string, params: unknown): Promise<T> {
  const res = await fetch(`${loupe.origin}/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-loupe-token': loupe.token }, body: JSON.stringify(params) });
  const body = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** In the page: every long task from now on. */
const OBSERVE = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: false });
})()`;

/** The FINAL table shows a cell whose whole text is `text`. */
const markerInFinal = (text: string) =>
  `() => [...document.querySelectorAll('table[aria-label="FINAL"] td')].some((td) => td.textContent.trim() === ${JSON.stringify(text)})`;

async function setUp(ui: Page): Promise<void> {
  await ui.getByRole('navigation').getByRole('link', { name: 'CDC' }).click();
  await ui.getByRole('button', { name: 'Set up pipeline' }).click();
  await ui.getByText('The pipeline runs').waitFor({ timeout: 60_000 });
  await ui.getByRole('table', { name: 'FINAL' }).getByText('Ada Lovelace').waitFor({ timeout: 60_000 });
}

export async function run(): Promise<void> {
  const markers = positiveInt(process.env.LOUPE_BENCH_CDC_MARKERS, 'LOUPE_BENCH_CDC_MARKERS', 20);
  const loupe = await startLoupeServe();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const ui = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await ui.goto(loupe.openUrl);
    await setUp(ui);
    await ui.evaluate(OBSERVE);
    await ui.getByRole('combobox', { name: 'Scenario' }).selectOption({ label: 'A burst of 10,000 changes' });
    const burstStart = Date.now();
    await ui.getByRole('button', { name: 'Play', exact: true }).click();
    const latencies: number[] = [];
    for (let i = 0; i < markers; i++) {
      await api(loupe, 'cdc.sql', { database: 'demo', sql: `UPDATE customers SET name = 'mark-${i}', created_at = '2031-01-01 00:00:00' + INTERVAL ${i} SECOND WHERE id = 1` });
      const committed = Date.now();
      const shown = await paintedAt(ui, markerInFinal(`mark-${i}`));
      latencies.push(shown - committed);
      await new Promise((r) => setTimeout(r, 200));
    }
    // in the page too: Playwright's text search over the whole page would run on its main thread every 500 ms and land in the long tasks
    await paintedAt(ui, `() => /^Done: \\d+ of \\d+ steps$/.test(document.querySelector('[role="group"][aria-label="Scenario player"] [role="status"]')?.textContent ?? '')`, 600_000);
    const burstMs = Date.now() - burstStart;
    const longTasks = (await ui.evaluate('window.__longTasks')) as number[];
    const over = longTasks.filter((d) => d > LONG_TASK_MS);
    const rows = [
      ['commit → version painted in FINAL (median)', formatMs(median(latencies)), `< ${TARGET_MS} ms`, median(latencies) < TARGET_MS ? 'met' : 'missed'],
      ['  markers', String(markers), '', ''],
      ['  slowest marker', formatMs(Math.max(...latencies)), '', ''],
      ['long tasks during the burst', `${longTasks.length} (${over.length} over ${LONG_TASK_MS} ms, longest ${formatMs(Math.max(0, ...longTasks))})`, `none over ${LONG_TASK_MS} ms`, over.length === 0 ? 'met' : 'missed'],
      ['burst of 10,000 changes played', formatMs(burstMs), '', ''],
    ];
    process.stdout.write(formatTable(['measure', 'result', 'target', ''], rows) + '\n');
  } finally {
    await browser.close();
    await loupe.stop();
  }
}
