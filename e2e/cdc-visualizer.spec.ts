/**
 * The target visualizer on a large table in Chromium against the real `loupe serve`: a
 * 10,000-change burst with merges paused, Raw, FINAL and the source grid scrolled far down (their
 * windows fetched from the host), an id followed from its source changes to its rows, and the
 * cleanup on 10,000 ids. Screenshots mid-burst and after the cleanup, 1440x900 and 1024x700,
 * light and dark.
 */
import { test, expect, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedLoupe } from './served-loupe.js';
import { inEveryLook } from './looks.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');

async function shoot(page: Page, name: string) {
  await inEveryLook(page, {
    async size(w) {
      // nothing pushes the page sideways (the widest offenders named if something does)
      const wide = await page.evaluate(`(() => {
        const w = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth <= w) return [];
        return [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 1 && getComputedStyle(e).position !== 'fixed').slice(0, 5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));
      })()`);
      expect(wide, `${name} at ${w}px`).toEqual([]);
    },
    async theme(w, theme) {
      await page.getByRole('heading', { name: /^Target:/ }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `${name}-${w}-${theme}.png`) });
    },
  });
}

/** Scrolls a named table's scroll box to a fraction of its height. */
async function scrollTo(page: Page, table: string, fraction: number) {
  await page.getByLabel(`${table} (scrollable)`, { exact: true }).evaluate((el, f) => {
    el.scrollTop = (el.scrollHeight - el.clientHeight) * f;
  }, fraction);
}

const served = servedLoupe({ screenshots: SHOTS });

test('a 10,000-change burst: windows of Raw, FINAL and the source, an id explained, the cleanup', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(served.current.openUrl);
  await page.getByRole('navigation').getByRole('link', { name: 'CDC' }).click();
  await page.getByRole('button', { name: 'Set up pipeline' }).click();
  await expect(page.getByRole('table', { name: 'FINAL', exact: true }).getByRole('row').filter({ hasText: 'Ada Lovelace' })).toHaveCount(1, { timeout: 30_000 });
  await page.getByRole('switch', { name: 'Pause merges' }).check();
  await expect(page.getByText('Merges are paused')).toBeVisible();

  // id 3 updated three times in one statement batch, then the burst
  // Monaco: typed as a user would (fill does not reach its model)
  await page.getByRole('textbox', { name: 'SQL' }).focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(
    ["UPDATE customers SET name = 'Linus a', created_at = '2030-01-01 00:00:01' WHERE id = 3", "UPDATE customers SET name = 'Linus b', created_at = '2030-01-01 00:00:02' WHERE id = 3", "UPDATE customers SET name = 'Linus c', created_at = '2030-01-01 00:00:03' WHERE id = 3"].join(';\n') + ';',
  );
  await page.getByRole('button', { name: 'Run SQL' }).click();
  await expect(page.getByRole('list', { name: 'Statement results' })).toContainText('Query OK');
  const player = page.getByRole('group', { name: 'Scenario player' });
  await player.getByRole('combobox', { name: 'Scenario' }).selectOption({ label: 'A burst of 10,000 changes' });
  await player.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(page.getByRole('heading', { name: /^FINAL/ })).toContainText(/[1-9],\d{3} rows/, { timeout: 60_000 });
  await shoot(page, 'cdc-visualizer-burst');
  await expect(player.getByRole('status')).toHaveText('Done: 20 of 20 steps', { timeout: 120_000 });
  await expect(page.getByRole('heading', { name: /^FINAL/ })).toContainText('10,003 rows', { timeout: 60_000 });

  // far down the tables: the host sends the window in view
  await scrollTo(page, 'FINAL', 1);
  await expect(page.getByRole('table', { name: 'FINAL', exact: true }).getByRole('row').filter({ hasText: 'burst 9999' })).toHaveCount(1, { timeout: 10_000 });
  await scrollTo(page, 'Raw', 0.5);
  await expect(page.getByRole('table', { name: 'Raw', exact: true }).getByRole('row').filter({ hasText: /burst 49\d\d/ }).first()).toBeVisible({ timeout: 10_000 });
  await scrollTo(page, 'Source rows', 1);
  await expect(page.getByRole('table', { name: 'Source rows', exact: true }).getByRole('row').filter({ hasText: 'burst 9999' })).toHaveCount(1, { timeout: 10_000 });
  await scrollTo(page, 'Raw', 0);

  // id 3: four source changes; the story sets them beside its physical rows
  await page.getByRole('button', { name: 'Explain id 3' }).click();
  const story = page.getByRole('region', { name: 'Versions of id 3' });
  await expect(story).toContainText('Source changes (4)');
  await expect(story).toContainText(/Physical rows \(\d\)/);
  await expect(story.getByRole('listitem').first()).toBeVisible();
  await story.scrollIntoViewIfNeeded();
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate(`document.documentElement.setAttribute('data-theme', '${theme}')`);
    await story.screenshot({ path: path.join(SHOTS, `cdc-visualizer-story-1440-${theme}.png`) });
  }
  await page.evaluate(`document.documentElement.removeAttribute('data-theme')`);

  await page.getByRole('button', { name: 'Run OPTIMIZE FINAL CLEANUP' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'FINAL CLEANUP' })).toContainText('Merges ran for the cleanup and are paused again.', { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: /^After cleanup/ })).toContainText('10,003 versions');
  await expect(page.getByRole('table', { name: 'Raw', exact: true }).getByRole('row').filter({ hasText: 'removed by cleanup' }).first()).toBeVisible();
  await expect(page.getByText('Yes: FINAL holds exactly the source')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('heading', { name: /^Raw/ })).toContainText('(just before the cleanup)');
  await shoot(page, 'cdc-visualizer-cleanup');
  // something new lands: Raw shows the live table again
  await page.getByRole('textbox', { name: 'SQL' }).focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText("UPDATE customers SET name = 'Linus d', created_at = '2030-01-01 00:00:04' WHERE id = 3");
  await page.getByRole('button', { name: 'Run SQL' }).click();
  await expect(page.getByRole('heading', { name: /^Raw/ })).toContainText('(before cleanup)', { timeout: 20_000 });
  await expect(page.getByRole('table', { name: 'Raw', exact: true }).getByRole('row').filter({ hasText: 'Linus d' })).toHaveCount(1);
});
