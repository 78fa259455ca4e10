/**
 * OpenID Connect sign-in as `aws sso login` and `gcloud auth login` do it: the authorization-code
 * flow with PKCE (S256) in the capture browser, the code coming back to a loopback server on
 * 127.0.0.1 (RFC 8252), then exchanged with the verifier at the token endpoint.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { requestToken, type TokenResponse } from '../credentials/token-client.js';
import { openCaptureBrowser } from './capture-browser.js';
import { watchIdpPages } from './idp-error-page.js';
import { settleOnce } from './settle-once.js';
import { CaptureError, type CaptureProgress } from './types.js';

export interface CodeFlowOptions {
  /** The realm URL, e.g. https://127.0.0.1:8443/realms/federation (its HTTPS URL: the issuer STS trusts). */
  realmUrl: string;
  clientId: string;
  clientSecret?: string;
  scope?: string;
  headless?: boolean;
  cdpPort?: number;
  executablePath?: string;
  timeoutMs?: number;
  /** The embedded IdP's self-signed certificate: the browser accepts it, the token call pins it. */
  caPem?: string;
  onProgress?: (p: CaptureProgress) => void;
  signal?: AbortSignal;
  onPage?: (page: Page) => Promise<void> | void;
}

const b64url = (b: Buffer) => b.toString('base64url');

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = b64url(randomBytes(32));
  return { verifier, challenge: b64url(createHash('sha256').update(verifier).digest()) };
}

const DONE_PAGE = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Loupe</title></head><body><p>Signed in. Loupe has the authorization code; you can close this window.</p></body></html>';

export async function signInWithAuthorizationCode(opts: CodeFlowOptions): Promise<TokenResponse> {
  const timeoutMs = opts.timeoutMs ?? 300_000;
  const progress = (stage: CaptureProgress['stage'], message: string, url?: string) => opts.onProgress?.({ stage, message, ...(url ? { url } : {}), at: new Date().toISOString() });
  const { verifier, challenge } = pkcePair();
  const state = b64url(randomBytes(16));
  const nonce = b64url(randomBytes(16));

  const outcome = settleOnce<string, CaptureError>();
  let failed = false;

  // The loopback redirect: any port on 127.0.0.1 is a valid redirect URI for a native client.
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(DONE_PAGE);
    const error = url.searchParams.get('error');
    if (error) return outcome.reject(new CaptureError('idp_error', `${error}: ${url.searchParams.get('error_description') ?? ''}`.trim()));
    if (url.searchParams.get('state') !== state) return outcome.reject(new CaptureError('bad_post', 'The authorization response carries another state: it is not the answer to this sign-in.'));
    const code = url.searchParams.get('code');
    if (!code) return outcome.reject(new CaptureError('bad_post', 'The authorization response carries no code.'));
    progress('captured', 'Got the authorization code on the loopback redirect', `${url.origin}${url.pathname}`);
    outcome.resolve(code);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;

  const authUrl = new URL(`${opts.realmUrl.replace(/\/+$/, '')}/protocol/openid-connect/auth`);
  for (const [k, v] of Object.entries({ client_id: opts.clientId, redirect_uri: redirectUri, response_type: 'code', scope: opts.scope ?? 'openid', state, nonce, code_challenge: challenge, code_challenge_method: 'S256' })) {
    authUrl.searchParams.set(k, v);
  }

  const timer = setTimeout(() => outcome.reject(new CaptureError('timeout', `The sign-in did not come back to Loupe within ${Math.round(timeoutMs / 1000)} s. Finish signing in at the identity provider, or allow more time.`)), timeoutMs);
  const onAbort = () => outcome.reject(new CaptureError('aborted', 'The sign-in was cancelled.'));
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  const headless = opts.headless ?? true;
  progress('launching', `Starting Chromium (${headless ? 'headless' : 'visible window'}${opts.cdpPort ? `, DevTools on 127.0.0.1:${opts.cdpPort}` : ''})`);
  let browser: Awaited<ReturnType<typeof openCaptureBrowser>> | undefined;
  try {
    browser = await openCaptureBrowser({ headless, ...(opts.cdpPort ? { cdpPort: opts.cdpPort } : {}), ...(opts.executablePath ? { executablePath: opts.executablePath } : {}), ignoreHttpsErrors: opts.caPem !== undefined });
    const page = browser.page;
    watchIdpPages(page, {
      ignore: (url) => url.startsWith(redirectUri),
      isDone: () => outcome.done,
      onLoginFailed: (message, url) => progress('login-failed', message, url),
      onErrorPage: (err) => outcome.reject(err),
    });
    page.on('close', () => outcome.reject(new CaptureError('closed', 'The browser window was closed before the sign-in finished.')));
    try {
      await page.goto(authUrl.toString(), { waitUntil: 'domcontentloaded', timeout: Math.min(timeoutMs, 60_000) });
    } catch (err) {
      outcome.reject(new CaptureError('navigation_failed', `Could not open ${authUrl.origin}${authUrl.pathname}: ${String((err as Error).message).split('\n')[0]}`));
    }
    if (!outcome.done) progress('opened', `Opened the identity provider; waiting for the sign-in (up to ${Math.round(timeoutMs / 1000)} s)`, authUrl.toString());
    if (!outcome.done && opts.onPage) void Promise.resolve(opts.onPage(page)).catch(() => {});
    const code = await outcome.promise;
    const form: Record<string, string> = { grant_type: 'authorization_code', client_id: opts.clientId, code, redirect_uri: redirectUri, code_verifier: verifier };
    if (opts.clientSecret) form.client_secret = opts.clientSecret;
    return await requestToken(`${opts.realmUrl.replace(/\/+$/, '')}/protocol/openid-connect/token`, form, opts.caPem);
  } catch (err) {
    failed = true;
    if (err instanceof CaptureError) progress('failed', err.message);
    throw err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    // As in the SAML capture: on success the tokens go back at once and the window closes behind them.
    const closing = Promise.all([browser?.close(), new Promise<void>((resolve) => server.close(() => resolve()))]).then(() => progress('closed', 'Browser closed'));
    if (failed) await closing;
  }
}
