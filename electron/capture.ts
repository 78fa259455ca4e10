/**
 * The desktop's SAML capture: a Loupe window on the IdP's page, in a session partition of its
 * own (no cookies shared with anything, cleared afterwards). `webRequest.onBeforeRequest` on that
 * session sees every request; one to a sign-in endpoint is cancelled, so the assertion never
 * leaves the machine, and its `uploadData` goes through core's `parseSamlPost`. The window closes
 * after the capture. It takes the few Electron APIs it uses as a parameter (tests use a fake).
 */
import { randomUUID } from 'node:crypto';
import type { BrowserWindowConstructorOptions } from 'electron';
import { CaptureError, parseSamlPost, readIdpErrorPage, SamlPostError, signinMatcher, summarizeSamlResponse, type CaptureOptions, type CaptureProgress, type CaptureResult, type SamlCapture } from '../core/host/saml-capture.js';

export interface UploadDataLike {
  bytes?: Uint8Array;
}

export interface BeforeRequestDetails {
  url: string;
  method: string;
  resourceType?: string;
  uploadData?: UploadDataLike[];
}

export interface CaptureSessionLike {
  webRequest: {
    onBeforeRequest(filter: { urls: string[] }, listener: ((details: BeforeRequestDetails, callback: (response: { cancel?: boolean }) => void) => void) | null): void;
    /** null: removes the listener. */
    onBeforeRequest(listener: null): void;
  };
  clearStorageData(): Promise<void>;
}

export interface CaptureWebContentsLike {
  on(event: 'did-navigate', listener: (event: unknown, url: string, httpResponseCode: number) => void): unknown;
  on(event: 'did-finish-load', listener: () => void): unknown;
  executeJavaScript(code: string): Promise<unknown>;
  getURL(): string;
  isDestroyed(): boolean;
}

export interface CaptureWindowLike {
  readonly webContents: CaptureWebContentsLike;
  loadURL(url: string): Promise<void>;
  once(event: 'closed', listener: () => void): unknown;
  close(): void;
  isDestroyed(): boolean;
}

export interface CaptureElectronApis {
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => CaptureWindowLike;
  session: { fromPartition(partition: string, options?: { cache: boolean }): CaptureSessionLike };
}

/** Sessions of capture windows: the app's navigation lock does not apply to them (they browse the IdP). */
export const captureSessions = new WeakSet<object>();

export function captureWindowOptions(session: CaptureSessionLike): BrowserWindowConstructorOptions {
  return {
    width: 960,
    height: 760,
    title: 'Sign in — Loupe',
    autoHideMenuBar: true,
    webPreferences: {
      // No preload: the IdP's page gets no bridge to Loupe, and runs sandboxed without Node.
      session: session as unknown as Electron.Session,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    },
  };
}

/** The form body of a POST as Electron hands it over (one or more byte chunks). */
export function uploadText(upload: UploadDataLike[] | undefined): string {
  return Buffer.concat((upload ?? []).map((u) => Buffer.from(u.bytes ?? new Uint8Array()))).toString('utf8');
}

export function createElectronCapture(electron: CaptureElectronApis): SamlCapture {
  return (opts: CaptureOptions) => captureInWindow(electron, opts);
}

async function captureInWindow(electron: CaptureElectronApis, opts: CaptureOptions): Promise<CaptureResult> {
  const timeoutMs = opts.timeoutMs ?? 300_000;
  const progress = (stage: CaptureProgress['stage'], message: string, url?: string) => opts.onProgress?.({ stage, message, ...(url ? { url } : {}), at: new Date().toISOString() });
  const isSignin = signinMatcher(opts.patterns);
  if (opts.signal?.aborted) throw new CaptureError('aborted', 'The capture was cancelled before it started.');

  progress('launching', 'Opening a sign-in window');
  // In memory only ("persist:" is not used): nothing of this sign-in is kept on disk.
  const session = electron.session.fromPartition(`loupe-capture-${randomUUID()}`, { cache: false });
  captureSessions.add(session);
  const win = new electron.BrowserWindow(captureWindowOptions(session));

  let settle!: { resolve: (r: CaptureResult) => void; reject: (e: CaptureError) => void };
  const outcome = new Promise<CaptureResult>((resolve, reject) => (settle = { resolve, reject }));
  let done = false;
  const finish = (fn: () => void) => {
    if (done) return;
    done = true;
    fn();
  };
  const timer = setTimeout(
    () => finish(() => settle.reject(new CaptureError('timeout', `No SAML response was posted to a sign-in endpoint within ${Math.round(timeoutMs / 1000)} s. Finish signing in at the identity provider, or allow more time.`))),
    timeoutMs,
  );
  const onAbort = () => finish(() => settle.reject(new CaptureError('aborted', 'The capture was cancelled.')));
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  session.webRequest.onBeforeRequest({ urls: ['*://*/*'] }, (details, callback) => {
    if (!isSignin(details.url)) return callback({});
    // Whatever goes to the sign-in service is stopped: the assertion never leaves the machine.
    callback({ cancel: true });
    if (details.method !== 'POST') return;
    try {
      const post = parseSamlPost(uploadText(details.uploadData));
      const summary = summarizeSamlResponse(post.samlResponse, opts.cloudDomain);
      progress('captured', `Captured the SAML response for ${summary.subject || 'the user'} (${summary.roles.length} role${summary.roles.length === 1 ? '' : 's'})`, details.url);
      finish(() => settle.resolve({ samlResponse: post.samlResponse, ...(post.relayState !== undefined ? { relayState: post.relayState } : {}), acsUrl: details.url, summary }));
    } catch (err) {
      const msg = err instanceof SamlPostError ? err.message : (err as Error).message;
      finish(() => settle.reject(new CaptureError('bad_post', `The POST to ${details.url} was stopped, but it is not a usable SAML response: ${msg}`)));
    }
  });

  let lastStatus = 200;
  win.webContents.on('did-navigate', (_e, url, code) => {
    lastStatus = code;
    if (!isSignin(url)) progress('navigated', `At ${new URL(url).host}${new URL(url).pathname}`, url);
  });
  win.webContents.on('did-finish-load', () => {
    if (done || win.webContents.isDestroyed() || isSignin(win.webContents.getURL())) return;
    void readIdpErrorPage({ evaluate: <R>(expression: string) => win.webContents.executeJavaScript(expression) as Promise<R> }, lastStatus)
      .then((found) => {
        if (!found || done) return;
        if (found.kind === 'login-error') progress('login-failed', `The identity provider says: ${found.message}`, win.webContents.getURL());
        else finish(() => settle.reject(new CaptureError('idp_error', `The identity provider showed an error page${found.status >= 400 ? ` (HTTP ${found.status})` : ''}: ${found.message}`)));
      })
      .catch(() => {});
  });
  win.once('closed', () => finish(() => settle.reject(new CaptureError('closed', 'The sign-in window was closed before the sign-in finished.'))));

  try {
    win.loadURL(opts.ssoUrl).catch((err: Error) => {
      if (!done) finish(() => settle.reject(new CaptureError('navigation_failed', `Could not open ${opts.ssoUrl}: ${err.message.split('\n')[0]}`)));
    });
    progress('opened', `Opened the identity provider; waiting for the SAML POST (up to ${Math.round(timeoutMs / 1000)} s)`, opts.ssoUrl);
    return await outcome;
  } catch (err) {
    if (err instanceof CaptureError) progress('failed', err.message);
    throw err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    session.webRequest.onBeforeRequest(null);
    if (!win.isDestroyed()) win.close();
    await session.clearStorageData().catch(() => {});
    progress('closed', 'Sign-in window closed');
  }
}
