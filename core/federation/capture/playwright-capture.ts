/**
 * SAML capture with Chromium driven by playwright-core: `route` on the sign-in patterns stops
 * the assertion's POST (the request is answered locally, so it never reaches the cloud), and
 * its body goes through `parseSamlPost`.
 * The browser is ./capture-browser.ts's (throw-away profile, DevTools port for tests).
 */
import type { Page, Route } from 'playwright-core';
import { openCaptureBrowser } from './capture-browser.js';
import { parseSamlPost, summarizeSamlResponse, SamlPostError } from '../saml/post-body.js';
import { signinMatcher } from './signin-patterns.js';
import { watchIdpPages } from './idp-error-page.js';
import { settleOnce } from './settle-once.js';
import { CaptureError, type CaptureOptions, type CaptureProgress, type CaptureResult } from './types.js';

export { CHROMIUM_PATH, CHROMIUM_ARGS, hasDisplay, cdpPortFromEnv } from './capture-browser.js';
export const DEFAULT_CAPTURE_TIMEOUT_MS = 300_000;

const CAPTURED_PAGE = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Loupe</title></head><body><p>Loupe captured the SAML response. It was not sent to the sign-in service. You can close this window.</p></body></html>';

/** Opens Chromium, lets the browser (user or script via `onPage`) sign in, and returns the captured SAML POST. */
export async function captureSamlWithPlaywright(opts: CaptureOptions & { onPage?: (page: Page) => Promise<void> | void }): Promise<CaptureResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CAPTURE_TIMEOUT_MS;
  const progress = (stage: CaptureProgress['stage'], message: string, url?: string) => opts.onProgress?.({ stage, message, ...(url ? { url } : {}), at: new Date().toISOString() });
  const isSignin = signinMatcher(opts.patterns);
  if (opts.signal?.aborted) throw new CaptureError('aborted', 'The capture was cancelled before it started.');

  const headless = opts.headless ?? true;
  progress('launching', `Starting Chromium (${headless ? 'headless' : 'visible window'}${opts.cdpPort ? `, DevTools on 127.0.0.1:${opts.cdpPort}` : ''})`);
  const browser = await openCaptureBrowser({ headless, ...(opts.executablePath ? { executablePath: opts.executablePath } : {}), ...(opts.cdpPort ? { cdpPort: opts.cdpPort } : {}), ignoreHttpsErrors: opts.ignoreHttpsErrors ?? false });
  const { context, page } = browser;

  const outcome = settleOnce<CaptureResult, CaptureError>();
  let failed = false;
  const timer = setTimeout(
    () =>
      outcome.reject(
        new CaptureError('timeout', `No SAML response was posted to a sign-in endpoint within ${Math.round(timeoutMs / 1000)} s. Finish signing in at the identity provider, or allow more time (timeoutMs).`),
      ),
    timeoutMs,
  );
  const onAbort = () => outcome.reject(new CaptureError('aborted', 'The capture was cancelled.'));
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    await context.route(
      (url) => isSignin(url.toString()),
      async (route: Route) => {
        const req = route.request();
        if (req.method() !== 'POST') {
          // A GET to the sign-in service carries no assertion; stop it too, nothing leaves.
          await route.abort('blockedbyclient').catch(() => {});
          return;
        }
        const body = req.postData() ?? '';
        // Answered locally (the POST never leaves); not awaited: the assertion is read and
        // handed back while Chromium shows the page.
        void route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: CAPTURED_PAGE }).catch(() => {});
        try {
          const post = parseSamlPost(body);
          const summary = summarizeSamlResponse(post.samlResponse, opts.cloudDomain);
          progress('captured', `Captured the SAML response for ${summary.subject || 'the user'} (${summary.roles.length} role${summary.roles.length === 1 ? '' : 's'})`, req.url());
          outcome.resolve({ samlResponse: post.samlResponse, ...(post.relayState !== undefined ? { relayState: post.relayState } : {}), acsUrl: req.url(), summary });
        } catch (err) {
          const msg = err instanceof SamlPostError ? err.message : firstLine(err);
          outcome.reject(new CaptureError('bad_post', `The POST to ${req.url()} was stopped, but it is not a usable SAML response: ${msg}`));
        }
      },
    );
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame() || isSignin(frame.url())) return;
      const u = new URL(frame.url());
      progress('navigated', `At ${u.host}${u.pathname}`, frame.url());
    });
    watchIdpPages(page, {
      ignore: isSignin,
      isDone: () => outcome.done,
      onLoginFailed: (message, url) => progress('login-failed', message, url),
      onErrorPage: (err) => outcome.reject(err),
    });
    page.on('close', () => outcome.reject(new CaptureError('closed', 'The browser window was closed before the sign-in finished.')));
    context.on('close', () => outcome.reject(new CaptureError('closed', 'The browser closed before the sign-in finished.')));

    try {
      await page.goto(opts.ssoUrl, { waitUntil: 'domcontentloaded', timeout: Math.min(timeoutMs, 60_000) });
    } catch (err) {
      outcome.reject(new CaptureError('navigation_failed', `Could not open ${opts.ssoUrl}: ${firstLine(err)}`));
    }
    if (!outcome.done) progress('opened', `Opened the identity provider; waiting for the SAML POST (up to ${Math.round(timeoutMs / 1000)} s)`, opts.ssoUrl);
    if (!outcome.done && opts.onPage) {
      Promise.resolve(opts.onPage(page)).catch((err) => {
        if (!outcome.done) progress('navigated', `Page script stopped: ${firstLine(err)}`);
      });
    }
    return await outcome.promise;
  } catch (err) {
    failed = true;
    if (err instanceof CaptureError) {
      progress('failed', err.message);
      throw err;
    }
    progress('failed', firstLine(err));
    throw new CaptureError('navigation_failed', firstLine(err));
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    // Closing Chromium takes a few hundred milliseconds: the assertion is handed back at once and
    // the window closes behind it ('closed' follows). A failure still waits, so nothing lingers.
    const closing = browser.close().then(() => progress('closed', 'Browser closed'));
    if (!outcome.done || failed) await closing;
  }
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}
