/**
 * The desktop capture window against a fake of the few Electron APIs it uses: the test plays
 * Electron's part (the requests the page makes, the navigations, the window closing) and checks
 * what a user relies on: the POST to AWS is cancelled and parsed, everything else goes through,
 * the window closes and its session is cleared, and cancel, timeout, a closed window and an IdP
 * error page end the capture with a clear message. The SAMLResponse is a real signed one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserWindowConstructorOptions } from 'electron';
import { awsAttr, generateSigningKey, signedResponseBase64, type SigningKey } from '../core/host/testing/saml.js';
import { CaptureError, type CaptureProgress } from '../core/host/saml-capture.js';
import { captureSessions, createElectronCapture, uploadText, type BeforeRequestDetails, type CaptureElectronApis, type CaptureSessionLike } from './capture.js';

type Listener = (details: BeforeRequestDetails, callback: (r: { cancel?: boolean }) => void) => void;

function fakeElectron() {
  const state = {
    sessions: [] as FakeSession[],
    windows: [] as FakeWindow[],
  };
  class FakeSession {
    listener: Listener | null = null;
    filter: { urls: string[] } | null = null;
    cleared = false;
    constructor(readonly partition: string) {}
    webRequest = {
      onBeforeRequest: (filter: { urls: string[] } | null, listener?: Listener | null) => {
        this.filter = filter;
        this.listener = listener ?? null;
      },
    } as CaptureSessionLike['webRequest'];
    async clearStorageData() {
      this.cleared = true;
    }
  }
  class FakeWindow {
    loaded: string[] = [];
    closed = false;
    private handlers = new Map<string, ((...a: unknown[]) => void)[]>();
    pageResult: unknown = { kcError: '', loginError: '', hasPassword: true, heading: '', title: 'Sign in', body: '' };
    url = '';
    webContents = {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- listeners of several shapes, as Electron's emitter
      on: (event: string, l: (...a: any[]) => void) => this.handlers.set(event, [...(this.handlers.get(event) ?? []), l]),
      executeJavaScript: async () => this.pageResult,
      getURL: () => this.url,
      isDestroyed: () => this.closed,
    };
    constructor(readonly options: BrowserWindowConstructorOptions) {
      state.windows.push(this);
    }
    async loadURL(url: string) {
      this.loaded.push(url);
    }
    once(event: string, l: () => void) {
      this.handlers.set(event, [...(this.handlers.get(event) ?? []), l]);
    }
    emit(event: string, ...args: unknown[]) {
      for (const l of this.handlers.get(event) ?? []) l(...args);
    }
    close() {
      if (this.closed) return;
      this.closed = true;
      this.emit('closed');
    }
    isDestroyed() {
      return this.closed;
    }
    /** The browser navigated and finished loading a page. */
    show(url: string, status = 200) {
      this.url = url;
      this.emit('did-navigate', {}, url, status);
      this.emit('did-finish-load');
    }
  }
  const electron: CaptureElectronApis = {
    BrowserWindow: FakeWindow,
    session: {
      fromPartition: (p) => {
        const s = new FakeSession(p);
        state.sessions.push(s);
        return s;
      },
    },
  };
  /** A request the page makes; returns what the capture told Electron to do with it. */
  const request = (details: BeforeRequestDetails) => {
    let answer: { cancel?: boolean } | undefined;
    state.sessions.at(-1)!.listener!(details, (r) => (answer = r));
    return answer;
  };
  return { electron, state, request };
}

let key: SigningKey;
beforeAll(async () => {
  key = await generateSigningKey();
});

const samlBody = (session?: string) => {
  const b64 = signedResponseBase64(
    {
      issuer: 'http://127.0.0.1:8080/realms/federation',
      attributes: {
        [awsAttr('Role')]: ['arn:aws:iam::123456789012:saml-provider/loupe,arn:aws:iam::123456789012:role/LoupeReadOnly'],
        ...(session ? { [awsAttr('RoleSessionName')]: [session] } : {}),
      },
    },
    key,
  );
  return `SAMLResponse=${encodeURIComponent(b64)}&RelayState=${encodeURIComponent('https://console.aws.amazon.com/')}`;
};

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the desktop capture window', () => {
  it('opens the IdP in its own in-memory partition, with no preload and a sandboxed page', async () => {
    const { electron, state } = fakeElectron();
    const running = createElectronCapture(electron)({ ssoUrl: 'http://127.0.0.1:8080/realms/federation/protocol/saml/clients/cloud', timeoutMs: 50 }).catch((e: unknown) => e);
    await running;
    const w = state.windows[0]!;
    expect(w.loaded).toEqual(['http://127.0.0.1:8080/realms/federation/protocol/saml/clients/cloud']);
    expect(state.sessions[0]!.partition).toMatch(/^loupe-capture-[0-9a-f-]{36}$/);
    expect(captureSessions.has(state.sessions[0]!)).toBe(true);
    expect(w.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(w.options.webPreferences?.preload).toBeUndefined();
  });

  it('cancels the POST to AWS, reads the assertion from uploadData, lets the IdP through, then closes the window and clears its session', async () => {
    const { electron, state, request } = fakeElectron();
    const events: CaptureProgress[] = [];
    const running = createElectronCapture(electron)({ ssoUrl: 'http://idp/sso', onProgress: (e) => events.push(e) });
    await tick();
    expect(state.sessions[0]!.filter).toEqual({ urls: ['*://*/*'] });
    expect(request({ url: 'http://idp/realms/federation/login-actions/authenticate', method: 'POST', uploadData: [{ bytes: Buffer.from('username=alice&password=alice') }] })).toEqual({});
    const body = samlBody('alice');
    // Electron may hand the body over in several chunks.
    const answer = request({ url: 'https://signin.aws.amazon.com/saml', method: 'POST', uploadData: [{ bytes: Buffer.from(body.slice(0, 100)) }, { bytes: Buffer.from(body.slice(100)) }] });
    expect(answer).toEqual({ cancel: true });
    const r = await running;
    expect(r.acsUrl).toBe('https://signin.aws.amazon.com/saml');
    expect(r.relayState).toBe('https://console.aws.amazon.com/');
    expect(r.summary.roleSessionName).toBe('alice');
    expect(r.summary.roles).toEqual([{ roleArn: 'arn:aws:iam::123456789012:role/LoupeReadOnly', principalArn: 'arn:aws:iam::123456789012:saml-provider/loupe' }]);
    expect(state.windows[0]!.closed).toBe(true);
    expect(state.sessions[0]!.cleared).toBe(true);
    expect(state.sessions[0]!.listener).toBeNull();
    expect(events.map((e) => e.stage)).toEqual(['launching', 'opened', 'captured', 'closed']);
  });

  it('stops a GET to the sign-in service too, and a regional or GovCloud endpoint is a sign-in endpoint', async () => {
    const { electron, request } = fakeElectron();
    const running = createElectronCapture(electron)({ ssoUrl: 'http://idp/sso' });
    await tick();
    expect(request({ url: 'https://signin.aws.amazon.com/saml', method: 'GET' })).toEqual({ cancel: true });
    expect(request({ url: 'https://signin.amazonaws-us-gov.com/saml', method: 'POST', uploadData: [{ bytes: Buffer.from(samlBody('bob')) }] })).toEqual({ cancel: true });
    expect((await running).summary.roleSessionName).toBe('bob');
  });

  it('a POST without a SAMLResponse is refused with the reason', async () => {
    const { electron, request } = fakeElectron();
    const running = createElectronCapture(electron)({ ssoUrl: 'http://idp/sso' }).catch((e: unknown) => e);
    await tick();
    request({ url: 'https://eu-west-1.signin.aws.amazon.com/saml', method: 'POST', uploadData: [{ bytes: Buffer.from('RelayState=x') }] });
    const err = (await running) as CaptureError;
    expect(err.code).toBe('bad_post');
    expect(err.message).toContain('the POST carries no SAMLResponse field');
  });

  it('closing the window, cancelling and the timeout each end the capture with their own message', async () => {
    const a = fakeElectron();
    const closed = createElectronCapture(a.electron)({ ssoUrl: 'http://idp/sso' }).catch((e: unknown) => e);
    await tick();
    a.state.windows[0]!.close();
    expect(((await closed) as CaptureError).message).toBe('The sign-in window was closed before the sign-in finished.');

    const b = fakeElectron();
    const ctl = new AbortController();
    const cancelled = createElectronCapture(b.electron)({ ssoUrl: 'http://idp/sso', signal: ctl.signal }).catch((e: unknown) => e);
    await tick();
    ctl.abort();
    expect(((await cancelled) as CaptureError).code).toBe('aborted');
    expect(b.state.windows[0]!.closed).toBe(true);

    const c = fakeElectron();
    const late = (await createElectronCapture(c.electron)({ ssoUrl: 'http://idp/sso', timeoutMs: 20 }).catch((e: unknown) => e)) as CaptureError;
    expect(late.code).toBe('timeout');
    expect(late.message).toMatch(/^No SAML response was posted to a sign-in endpoint within 0 s/);
  });

  it("an IdP error page ends the capture with the IdP's words; a failed login is only reported", async () => {
    const { electron, state } = fakeElectron();
    const events: CaptureProgress[] = [];
    const running = createElectronCapture(electron)({ ssoUrl: 'http://idp/sso', onProgress: (e) => events.push(e) }).catch((e: unknown) => e);
    await tick();
    const w = state.windows[0]!;
    w.pageResult = { kcError: '', loginError: 'Invalid username or password.', hasPassword: true, heading: 'Sign in', title: '', body: '' };
    w.show('http://idp/realms/federation/login-actions/authenticate');
    await tick();
    expect(events.find((e) => e.stage === 'login-failed')?.message).toBe('The identity provider says: Invalid username or password.');
    w.pageResult = { kcError: 'Client not found.', loginError: '', hasPassword: false, heading: 'We are sorry...', title: '', body: '' };
    w.show('http://idp/realms/federation/protocol/saml/clients/nope', 400);
    const err = (await running) as CaptureError;
    expect(err.code).toBe('idp_error');
    expect(err.message).toBe('The identity provider showed an error page (HTTP 400): Client not found.');
  });

  it('joins uploadData chunks as the form body', () => {
    expect(uploadText([{ bytes: Buffer.from('a=1&') }, {}, { bytes: Buffer.from('b=2') }])).toBe('a=1&b=2');
    expect(uploadText(undefined)).toBe('');
  });
});

describe('the capture window and the app window hardening', () => {
  it('the app window still may not navigate away; the capture window may browse the IdP but opens no other windows', async () => {
    const { hardenContents } = await import('./desktop.js');
    const { silentLogger } = await import('../core/common/log.js');
    const { FakeWebContents } = await import('./testing/fake-electron.js');
    const app = new FakeWebContents();
    hardenContents(app, silentLogger);
    expect(app.navigate('https://idp.example/login')).toBe(true);
    const { electron } = fakeElectron();
    const session = electron.session.fromPartition('loupe-capture-test');
    captureSessions.add(session);
    const capture = Object.assign(new FakeWebContents(), { session });
    hardenContents(capture, silentLogger);
    expect(capture.navigate('https://idp.example/login')).toBe(false);
    expect(capture.windowOpenHandler!({ url: 'https://elsewhere.example/' })).toEqual({ action: 'deny' });
  });
});
