/**
 * For tests: attaches to the capture browser over its DevTools port (LOUPE_CAPTURE_CDP_PORT) and
 * signs in on the IdP's login page there, as a user would in the window.
 */
import { chromium } from 'playwright-core';

/** Waits (up to 30 s) for a page whose URL matches `page`, fills the login form and submits it. */
export async function logInOverCdp(port: number, user: string, opts: { password?: string; page?: RegExp } = {}): Promise<void> {
  const wanted = opts.page ?? /\/protocol\/saml\/clients\//;
  for (let i = 0; i < 300; i++) {
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`).catch(() => undefined);
    const page = browser?.contexts().flatMap((c) => c.pages()).find((p) => wanted.test(p.url()));
    if (browser && page) {
      await page.locator('#username').waitFor();
      await page.fill('#username', user);
      await page.fill('#password', opts.password ?? user);
      await page.click('#kc-login');
      await browser.close().catch(() => {});
      return;
    }
    await browser?.close().catch(() => {});
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the IdP login page never showed in the capture browser');
}
