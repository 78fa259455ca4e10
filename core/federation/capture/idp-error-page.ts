/**
 * Tells an identity provider's error page from its login form, in the page the capture browser
 * shows. Keycloak's error page is "We are sorry..." with `#kc-error-message`; a failed login is
 * the form again with `#input-error`. Other IdPs: an HTTP error status on a page without a
 * password field counts as an error page, with the page's heading or title as the message.
 */
import type { Page } from 'playwright-core';
import { CaptureError } from './types.js';

export interface PageReader {
  evaluate<R>(expression: string): Promise<R>;
}

interface PageSeen {
  kcError: string;
  loginError: string;
  hasPassword: boolean;
  heading: string;
  title: string;
  body: string;
}

/**
 * Runs in the page. A string, not a function: `loupe` runs from source through tsx, whose
 * compiled functions call a `__name` helper that does not exist in the page.
 */
const READ_PAGE = `(() => {
  const text = (sel) => (document.querySelector(sel)?.textContent ?? '').trim();
  return {
    kcError: text('#kc-error-message'),
    loginError: text('#input-error') || text('.alert-error'),
    hasPassword: document.querySelector('input[type=password]') !== null,
    heading: text('h1') || text('h2'),
    title: document.title.trim(),
    body: (document.body?.innerText ?? '').trim().slice(0, 300),
  };
})()`;

export type IdpPageFinding = { kind: 'error-page'; message: string; status: number } | { kind: 'login-error'; message: string };

export async function readIdpErrorPage(page: PageReader, status: number): Promise<IdpPageFinding | undefined> {
  const seen = await page.evaluate<PageSeen>(READ_PAGE);
  if (seen.kcError) return { kind: 'error-page', message: seen.kcError, status };
  if (seen.hasPassword) return seen.loginError ? { kind: 'login-error', message: seen.loginError } : undefined;
  if (status >= 400) return { kind: 'error-page', message: seen.heading || seen.title || seen.body || `HTTP ${status}`, status };
  return undefined;
}

/** What a sign-in does with the pages the identity provider shows in the capture browser. */
export interface IdpPageHandlers {
  /** Pages that are not the IdP's (the sign-in endpoint or the loopback redirect). */
  ignore(url: string): boolean;
  isDone(): boolean;
  /** The login form again with the IdP's error ("Invalid username or password."): the user can try again. */
  onLoginFailed(message: string, url: string): void;
  /** An error page: the sign-in ends with the IdP's own words. */
  onErrorPage(error: CaptureError): void;
}

/** Follows each page the main frame loads, with the HTTP status it came with. */
export function watchIdpPages(page: Page, h: IdpPageHandlers): void {
  let lastStatus = 200;
  page.on('response', (res) => {
    if (res.request().isNavigationRequest() && res.frame() === page.mainFrame()) lastStatus = res.status();
  });
  page.on('load', () => {
    if (h.isDone() || h.ignore(page.url())) return;
    void readIdpErrorPage(page, lastStatus)
      .then((found) => {
        if (!found || h.isDone()) return;
        if (found.kind === 'login-error') h.onLoginFailed(`The identity provider says: ${found.message}`, page.url());
        else h.onErrorPage(new CaptureError('idp_error', `The identity provider showed an error page${found.status >= 400 ? ` (HTTP ${found.status})` : ''}: ${found.message}`));
      })
      .catch(() => {});
  });
}
