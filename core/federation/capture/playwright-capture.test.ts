/**
 * The browser capture in real Chromium (/usr/bin/chromium, headless) against the embedded IdP:
 * the login form is filled like a user would, the POST to AWS's sign-in URL is stopped, and the
 * captured assertion is what the IdP signed.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../common/log.js';
import type { ServiceHandle } from '../../common/service.js';
import { startIdpService } from '../idp/service.js';
import type { IdpApi } from '../idp/api.js';
import { chromium } from 'playwright-core';
import { freePort } from '../../common/testing/free-port.js';
import { captureSamlWithPlaywright, cdpPortFromEnv, hasDisplay } from './playwright-capture.js';
import { CaptureError, type CaptureProgress } from './types.js';

let idp: ServiceHandle<IdpApi>;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'loupe-capture-'));
  idp = await startIdpService({ host: '127.0.0.1', port: 0, httpsPort: 0, dataDir: dir, log: silentLogger, peers: {} });
});

afterAll(async () => {
  await idp?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ssoUrl = () => `${idp.url}/realms/federation/protocol/saml/clients/cloud?RelayState=${encodeURIComponent('https://console.aws.amazon.com/')}`;

describe('SAML capture in Chromium', () => {
  it("signing in as alice captures her assertion with both roles, and it never reaches AWS's sign-in service", async () => {
    const events: CaptureProgress[] = [];
    const result = await captureSamlWithPlaywright({
      ssoUrl: ssoUrl(),
      headless: true,
      timeoutMs: 60_000,
      onProgress: (e) => events.push(e),
      onPage: async (page) => {
        await page.fill('input[name=username]', 'alice');
        await page.fill('input[name=password]', 'alice');
        await page.click('#kc-login');
      },
    });
    expect(result.acsUrl).toBe('https://signin.aws.amazon.com/saml');
    expect(result.relayState).toBe('https://console.aws.amazon.com/');
    expect(result.summary.subject).toBe('alice');
    expect(result.summary.issuer).toBe(`${idp.url}/realms/federation`);
    expect(result.summary.audience).toBe('urn:amazon:webservices');
    expect(result.summary.roleSessionName).toBe('alice');
    expect(result.summary.sessionDuration).toBe(3600);
    expect(result.summary.roles).toEqual([
      { roleArn: 'arn:aws:iam::123456789012:role/LoupeAdmin', principalArn: 'arn:aws:iam::123456789012:saml-provider/loupe' },
      { roleArn: 'arn:aws:iam::123456789012:role/LoupeReadOnly', principalArn: 'arn:aws:iam::123456789012:saml-provider/loupe' },
    ]);
    expect(result.summary.responseSigned && result.summary.assertionSigned).toBe(true);
    expect(Buffer.from(result.samlResponse, 'base64').toString('utf8')).toContain('<samlp:Response');
    const stages = events.map((e) => e.stage);
    expect(stages).toContain('opened');
    expect(stages).toContain('captured');
    // The window closes right after the assertion is handed back.
    for (let i = 0; i < 100 && !events.some((e) => e.stage === 'closed'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(events.at(-1)?.stage).toBe('closed');
  }, 90_000);

  it('a wrong password shows "Invalid username or password." and the capture ends with a clear timeout', async () => {
    let pageText = '';
    const err = await captureSamlWithPlaywright({
      ssoUrl: ssoUrl(),
      headless: true,
      timeoutMs: 8_000,
      onPage: async (page) => {
        await page.fill('input[name=username]', 'alice');
        await page.fill('input[name=password]', 'wrong');
        await page.click('#kc-login');
        await page.waitForSelector('#input-error');
        pageText = await page.innerText('#input-error');
      },
    }).catch((e: unknown) => e);
    expect(pageText).toBe('Invalid username or password.');
    expect(err).toBeInstanceOf(CaptureError);
    expect((err as CaptureError).code).toBe('timeout');
    expect((err as CaptureError).message).toMatch(/No SAML response was posted to a sign-in endpoint within 8 s/);
  }, 60_000);

  it("a wrong password is reported with the IdP's words while the capture keeps waiting", async () => {
    const events: CaptureProgress[] = [];
    await captureSamlWithPlaywright({
      ssoUrl: ssoUrl(),
      headless: true,
      timeoutMs: 6_000,
      onProgress: (e) => events.push(e),
      onPage: async (page) => {
        await page.fill('input[name=username]', 'bob');
        await page.fill('input[name=password]', 'nope');
        await page.click('#kc-login');
      },
    }).catch(() => undefined);
    expect(events.find((e) => e.stage === 'login-failed')?.message).toBe('The identity provider says: Invalid username or password.');
  }, 60_000);

  it("an IdP error page ends the capture with the IdP's message, not a timeout", async () => {
    const err = await captureSamlWithPlaywright({ ssoUrl: `${idp.url}/realms/federation/protocol/saml/clients/no-such-client`, headless: true, timeoutMs: 30_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaptureError);
    expect((err as CaptureError).code).toBe('idp_error');
    expect((err as CaptureError).message).toBe('The identity provider showed an error page (HTTP 400): Client not found.');
  }, 60_000);

  it('with a DevTools port, another client attaches to the same window and signs in on the real login page', async () => {
    const cdpPort = await freePort();
    const capture = captureSamlWithPlaywright({ ssoUrl: ssoUrl(), headless: true, timeoutMs: 60_000, cdpPort });
    let attached: Awaited<ReturnType<typeof chromium.connectOverCDP>> | undefined;
    for (let i = 0; i < 100 && !attached; i++) {
      attached = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`).catch(() => undefined);
      if (!attached) await new Promise((r) => setTimeout(r, 100));
    }
    expect(attached).toBeDefined();
    const page = await (async () => {
      for (let i = 0; i < 100; i++) {
        const p = attached!.contexts().flatMap((c) => c.pages()).find((x) => x.url().includes('/realms/federation/'));
        if (p) return p;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the login page never showed in the capture browser');
    })();
    await page.fill('input[name=username]', 'bob');
    await page.fill('input[name=password]', 'bob');
    await page.click('#kc-login');
    const result = await capture;
    expect(result.summary.subject).toBe('bob');
    expect(result.summary.roles.map((r) => r.roleArn)).toEqual(['arn:aws:iam::123456789012:role/LoupeReadOnly']);
    await attached!.close().catch(() => {});
  }, 90_000);

  it('an unreachable IdP URL fails with a navigation error naming the URL', async () => {
    const err = await captureSamlWithPlaywright({ ssoUrl: 'http://127.0.0.1:9/realms/x/protocol/saml/clients/cloud', headless: true, timeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaptureError);
    expect((err as CaptureError).code).toBe('navigation_failed');
    expect((err as CaptureError).message).toContain('http://127.0.0.1:9/realms/x/protocol/saml/clients/cloud');
  }, 60_000);
});

describe('where the capture browser runs', () => {
  it('shows a window on Linux only with a display, always on macOS and Windows', () => {
    expect(hasDisplay({}, 'linux')).toBe(false);
    expect(hasDisplay({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(hasDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(hasDisplay({}, 'darwin')).toBe(true);
    expect(hasDisplay({}, 'win32')).toBe(true);
  });

  it('reads LOUPE_CAPTURE_CDP_PORT and refuses what is not a port', () => {
    expect(cdpPortFromEnv({})).toBeUndefined();
    expect(cdpPortFromEnv({ LOUPE_CAPTURE_CDP_PORT: '9333' })).toBe(9333);
    expect(() => cdpPortFromEnv({ LOUPE_CAPTURE_CDP_PORT: 'abc' })).toThrow(/LOUPE_CAPTURE_CDP_PORT must be a port number/);
  });
});
