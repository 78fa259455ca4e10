/**
 * Tells an identity provider's error page from its login form, in the page the capture browser
 * shows. Keycloak's error page is "We are sorry..." with `#kc-error-message`; a failed login is
 * the form again with `#input-error`. Other IdPs: an HTTP error status on a page without a
 * password field counts as an error page, with the page's heading or title as the message.
 */
export interface PageReader {
  evaluate<R>(fn: () => R): Promise<R>;
}

interface PageDocument {
  querySelector(selector: string): { textContent: string | null } | null;
  title: string;
  body: { innerText: string } | null;
}

export type IdpPageFinding = { kind: 'error-page'; message: string; status: number } | { kind: 'login-error'; message: string };

export async function readIdpErrorPage(page: PageReader, status: number): Promise<IdpPageFinding | undefined> {
  const seen = await page.evaluate(() => {
    // Runs in the page; core is compiled without the DOM's types, so the few used are named here.
    const document = (globalThis as unknown as { document: PageDocument }).document;
    const text = (sel: string) => document.querySelector(sel)?.textContent?.trim() ?? '';
    return {
      kcError: text('#kc-error-message'),
      loginError: text('#input-error') || text('.alert-error'),
      hasPassword: document.querySelector('input[type=password]') !== null,
      heading: text('h1') || text('h2'),
      title: document.title.trim(),
      body: (document.body?.innerText ?? '').trim().slice(0, 300),
    };
  });
  if (seen.kcError) return { kind: 'error-page', message: seen.kcError, status };
  if (seen.hasPassword) return seen.loginError ? { kind: 'login-error', message: seen.loginError } : undefined;
  if (status >= 400) return { kind: 'error-page', message: seen.heading || seen.title || seen.body || `HTTP ${status}`, status };
  return undefined;
}
