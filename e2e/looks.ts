/**
 * The looks a workbench is checked in: 1440×900 and 1024×700, light and dark. `each` runs for
 * every size (before its themes, e.g. a layout check) and theme; the page is left at 1440×900
 * with the theme it had.
 */
import type { Page } from '@playwright/test';

export const SIZES = [
  [1440, 900],
  [1024, 700],
] as const;

export async function inEveryLook(page: Page, each: { size?(width: number): Promise<void>; theme(width: number, theme: 'light' | 'dark'): Promise<void> }): Promise<void> {
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await each.size?.(w);
    for (const theme of ['light', 'dark'] as const) {
      // a string: the e2e project is typechecked without the DOM library
      await page.evaluate(`document.documentElement.setAttribute('data-theme', '${theme}')`);
      await each.theme(w, theme);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate(`document.documentElement.removeAttribute('data-theme')`);
}
