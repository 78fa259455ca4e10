/**
 * The Relevance workbench in Chromium against the real `loupe serve` from a clean data dir,
 * through its accessible names: load the sample data, type a bool must + filter query, read a
 * hit's explanation (tree, bars, a formula), ask why a filtered-out document does not match,
 * compare two hits, switch to classic TF/IDF, and open a deep link. Screenshots at 1440×900 and
 * 1024×700 in both themes go to test-results/screenshots (and docs/screenshots with
 * LOUPE_SCREENSHOTS=docs).
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLoupeServe, type LoupeServe } from './loupe-serve.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
const DOC_SHOTS = process.env.LOUPE_SCREENSHOTS === 'docs' ? path.join(ROOT, 'docs', 'screenshots') : null;

test.describe.configure({ mode: 'serial' });

let loupe: LoupeServe;
let page: Page;

test.beforeAll(async ({ browser }) => {
  loupe = await startLoupeServe();
  mkdirSync(SHOTS, { recursive: true });
  if (DOC_SHOTS) mkdirSync(DOC_SHOTS, { recursive: true });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});

test.afterAll(async () => {
  await page?.close();
  await loupe?.stop();
});

async function shot(name: string, doc = false): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `relevance-${name}.png`) });
  if (doc && DOC_SHOTS) await page.screenshot({ path: path.join(DOC_SHOTS, `relevance-${name}.png`) });
}

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate(`document.documentElement.dataset.theme = '${theme}'`);
}

/** Replaces the editor's text as a user typing it would (insertText: no auto-closed brackets). */
async function typeQuery(text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Query' });
  await editor.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

// One line: Monaco indents typed newlines itself.
const BOOL_QUERY = '{ "query": { "bool": { "must": [{ "match": { "message": "login failed" } }], "filter": [{ "range": { "http.response.bytes": { "gte": 1000 } } }] } } }';

test('a clean start offers one button, which loads the sample data with progress', async () => {
  await page.goto(`${loupe.openUrl}#/relevance`);
  await page.goto(`${loupe.origin}/#/relevance`);
  const load = page.getByRole('button', { name: 'Load sample data' });
  await expect(load).toHaveCount(1);
  await expect(page.getByText('No index to search yet')).toBeVisible();
  await shot('empty');
  await load.click();
  await expect(page.getByRole('progressbar', { name: 'Documents indexed' })).toBeVisible();
  const index = page.getByRole('combobox', { name: 'Index' });
  await expect(index).toBeVisible({ timeout: 60_000 });
  await expect(index.locator('option')).toContainText(['access-logs (300 docs)', 'mails (3,811 docs)']);
  await expect(page.getByRole('table', { name: 'Hits' })).toBeVisible();
});

test('a bool must + filter typed into the editor runs with Ctrl+Enter and shows hits', async () => {
  await page.getByRole('combobox', { name: 'Index' }).selectOption('access-logs');
  await typeQuery(BOOL_QUERY);
  await page.keyboard.press('ControlOrMeta+Enter');
  const hits = page.getByRole('table', { name: 'Hits' });
  await expect(hits.getByRole('row')).not.toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /hits · took \d+ ms/ })).toBeVisible();
  // Every hit passed the filter: the bytes column (picked under Columns) is ≥ 1000.
  await page.locator('summary', { hasText: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'http.response.status_code' }).uncheck();
  await expect(page.getByRole('checkbox', { name: 'http.response.bytes' })).toBeChecked();
  await page.locator('summary', { hasText: 'Columns' }).click();
  const headers = await hits.locator('thead th').evaluateAll((ths) => ths.map((th) => th.textContent));
  const col = headers.indexOf('http.response.bytes');
  expect(col).toBeGreaterThan(2);
  const bytes = await hits.locator(`tbody tr[aria-selected] td:nth-child(${col + 1})`).allInnerTexts();
  expect(bytes.length).toBeGreaterThan(0);
  for (const b of bytes) expect(Number(b)).toBeGreaterThanOrEqual(1000);
});

test("a hit's explanation shows Lucene's tree, share bars and a formula with its numbers", async () => {
  const first = page.getByRole('table', { name: 'Hits' }).locator('tbody tr[aria-selected]').first();
  await first.click();
  const tree = page.getByRole('tree', { name: 'Explanation' });
  await expect(tree).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: /weight\(message:login in \d+\) \[PerFieldSimilarity\], result of:/ })).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: /^0 match on required clause, product of:/ })).toBeVisible();
  await expect(page.getByText(/^`?login`? gives \d+ % of the score|gives \d+ % of the score/).first()).toBeVisible();
  await expect(page.getByRole('img', { name: /login \d+ %/ })).toBeVisible();
  // Open the idf node: its formula carries N and n.
  const weight = tree.getByRole('treeitem', { name: /weight\(message:login/ }).first();
  await weight.focus();
  await page.keyboard.press('*');
  await expect(tree.getByText(/^idf = ln\(1 \+ \(N − n \+ 0\.5\) \/ \(n \+ 0\.5\)\) = ln\(1 \+ \(300 − \d+ \+ 0\.5\) \/ \(\d+ \+ 0\.5\)\) = [\d.]+$/).first()).toBeVisible();
  await expect(tree.getByText(/^tf = freq \/ \(freq \+ k1 · \(1 − b \+ b · dl \/ avgdl\)\) = /).first()).toBeVisible();
  await expect(tree.getByText(/^score = boost · idf · tf = 2\.2 · /).first()).toBeVisible();
  // Arrow keys move through the tree.
  await weight.focus();
  await page.keyboard.press('ArrowDown');
  await expect(tree.getByRole('treeitem', { name: /score\(freq=/ }).first()).toBeFocused();
  await expect(page.locator('.rel-doc mark').first()).toHaveText(/login/i);
  await setTheme('light');
  await shot('explanation-1440-light', true);
  await setTheme('dark');
  await shot('explanation-1440-dark', true);
  await setTheme('light');
});

test('why not: a document the filter removes shows the filter and its own value', async () => {
  // A login failure with fewer than 1000 bytes: found with a query of its own.
  const small = (await (
    await fetch(`${loupe.origin}/api/search.query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-loupe-token': loupe.token },
      body: JSON.stringify({ index: 'access-logs', body: { query: { bool: { must: [{ match: { message: 'login failed' } }], filter: [{ range: { 'http.response.bytes': { lt: 1000 } } }] } }, size: 1 } }),
    })
  ).json()) as { hits: { hits: { _id: string; _source: { http: { response: { bytes: number } } } }[] } };
  const id: string = small.hits.hits[0]._id;
  const bytes: number = small.hits.hits[0]._source.http.response.bytes;
  await page.getByRole('textbox', { name: 'Document id' }).fill(id);
  await page.getByRole('button', { name: 'Why not', exact: true }).click();
  await expect(page.locator('mark', { hasText: 'failure to match filter: http.response.bytes:[1000 TO *]' })).toBeVisible();
  await expect(page.locator('.rel-failure-value').filter({ hasText: 'http.response.bytes' })).toContainText(`= ${bytes} vs [1000 TO *]`);
  await shot('why-not-1440-light', true);

  // A text clause: "logins" is not the indexed token "login".
  await typeQuery('{ "query": { "match": { "message": "logins" } } }');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('button', { name: 'Why not', exact: true }).click();
  await expect(page.locator('.rel-failure mark').first()).toBeVisible();
  await expect(page.locator('.rel-failure-value').first()).toContainText('message');
  await expect(page.locator('.rel-tok-miss', { hasText: 'logins' })).toBeVisible();
  await expect(page.locator('.rel-tokens').getByText('login', { exact: true }).first()).toBeVisible();
  await expect(page.locator('.rel-hint')).toContainText('“logins” is not “login”');
});

test('compare puts two hits side by side with a sentence why the first ranks higher', async () => {
  await typeQuery(BOOL_QUERY);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('table', { name: 'Hits' }).locator('tbody tr[aria-selected]').first().click();
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(page.locator('.rel-why-above')).toContainText(/ranks above .* by [\d.]+|score the same/);
  await expect(page.getByRole('table', { name: 'Per-term differences' })).toBeVisible();
  await expect(page.getByRole('tree')).toHaveCount(2);
  await shot('compare-1440-light', true);
});

test('the similarity switch runs the query under classic TF/IDF and shows rank moves', async () => {
  await typeQuery('{ "query": { "match": { "subject": "linux kernel" } }, "size": 20 }');
  await page.getByRole('combobox', { name: 'Index' }).selectOption('mails');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Hits' })).toBeVisible();
  await page.getByRole('tab', { name: 'BM25 vs classic' }).click();
  await page.getByRole('button', { name: 'Compare BM25 with classic' }).click();
  const table = page.getByRole('table', { name: 'Rank changes' });
  await expect(table).toBeVisible({ timeout: 60_000 });
  await expect(table.getByRole('row')).not.toHaveCount(1);
  await expect(page.getByText(/hits change place|the same order as BM25/)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Index' }).locator('option')).toContainText(['mails-classic (3,811 docs, classic)']);
  await shot('similarity-1440-light', true);
  await setTheme('dark');
  await shot('similarity-1440-dark');
  await setTheme('light');
});

test('an Elasticsearch parsing error is shown in its words and marked in the editor', async () => {
  await typeQuery('{ "query": { "mach": { "subject": "x" } } }');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'parsing_exception: unknown query [mach]' });
  await expect(alert).toContainText('[line 1, column');
  await expect(alert).toContainText('marked in the editor');
  await expect(page.locator('.rel-editor .squiggly-error').first()).toBeVisible();
});

test('a deep link opens the same index, query, hit and why-not after a reload', async () => {
  await typeQuery(BOOL_QUERY);
  await page.getByRole('combobox', { name: 'Index' }).selectOption('access-logs');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const rows = page.getByRole('table', { name: 'Hits' }).locator('tbody tr[aria-selected]');
  await page.getByRole('tab', { name: 'Explanation' }).click();
  await rows.nth(1).click();
  const selected = (await rows.nth(1).locator('td').nth(1).innerText()).trim();
  await page.getByRole('textbox', { name: 'Document id' }).fill('no-such-doc');
  await expect.poll(() => page.url()).toContain(`hit=${encodeURIComponent(selected)}`);
  await expect.poll(() => page.url()).toContain('whynot=no-such-doc');
  const link = page.url();
  expect(link).toContain('#/relevance?');
  // The same tab (the per-run token lives in this tab's sessionStorage), from a blank page.
  await page.goto('about:blank');
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto(link);
  await expect(page.getByRole('combobox', { name: 'Index' })).toHaveValue('access-logs');
  await expect(page.getByRole('table', { name: 'Hits' }).locator('tbody tr[aria-selected="true"]')).toContainText(selected);
  await expect(page.getByRole('textbox', { name: 'Document id' })).toHaveValue('no-such-doc');
  await expect(page.getByRole('tree', { name: 'Explanation' })).toBeVisible();
  await page.locator('.rel-actions').evaluate((el) => el.scrollIntoView());
  await setTheme('light');
  await shot('explanation-1024-light', true);
  await setTheme('dark');
  await shot('explanation-1024-dark');
  await page.reload();
  await expect(page.getByRole('table', { name: 'Hits' }).locator('tbody tr[aria-selected="true"]')).toContainText(selected);
  await expect(page.getByRole('tree', { name: 'Explanation' })).toBeVisible();
});
