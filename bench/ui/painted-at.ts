/**
 * The moment something is on screen, measured in the page. Playwright's `locator.waitFor` polls
 * with a backoff (0, 20, 50, 100, 100 ms, then every 500 ms), so a figure taken with it can carry up
 * to half a second of the harness's own waiting; these checks run in the page after every DOM
 * change and every animation frame instead.
 */
import type { Page } from 'playwright-core';

/**
 * Resolves with the wall-clock time (`Date.now()`, comparable across processes on one machine) of
 * the first frame painted after `predicate` became true. `predicate` is the source of a function
 * evaluated in the page (`() => boolean`); it is passed as text because the bench has no DOM types
 * and tsx's helpers do not exist in the page.
 */
export function paintedAt(page: Page, predicate: string, timeoutMs = 60_000): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const check = ${predicate};
    let finished = false;
    const timer = setTimeout(() => { finished = true; obs.disconnect(); reject(new Error('not on screen within ${timeoutMs} ms: ' + ${JSON.stringify(predicate)})); }, ${timeoutMs});
    // the frame that paints the change, then the task after it: the paint has happened by then
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      obs.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(Date.now()), 0));
    };
    const obs = new MutationObserver(() => { if (check()) done(); });
    obs.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    const poll = () => { if (finished) return; if (check()) done(); else requestAnimationFrame(poll); };
    poll();
  })`) as Promise<number>;
}
