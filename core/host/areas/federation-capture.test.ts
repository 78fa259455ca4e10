/**
 * The capture methods through a real host with the embedded IdP and token service: Chromium
 * signs in on the IdP's page, the host returns the assertion decoded with its signature checked
 * against the token service's provider, progress reaches the event stream, and a capture can be
 * cancelled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { logInOverCdp } from '../../federation/capture/testing/log-in-over-cdp.js';
import { silentLogger } from '../../common/log.js';
import { freePort, freePortBase } from '../../common/testing/free-port.js';
import { createHost, type Host } from '../host.js';
import type { CaptureProgressEvent, CapturedAssertion, CaptureEnvironment, StsAccountInfo } from '../contract.js';

let host: Host;
let dir: string;
const events: CaptureProgressEvent[] = [];
const savedCdp = process.env.LOUPE_CAPTURE_CDP_PORT;

async function call<T>(method: string, params: unknown): Promise<T> {
  const out = await host.call(method, params);
  if (!out.ok) throw Object.assign(new Error(out.error.message), { body: out.error });
  return out.result as T;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-capture-host-'));
  host = await createHost({ dataDir: dir, portBase: await freePortBase(), env: {}, log: silentLogger });
  host.on((event, payload) => {
    if (event === 'federation.capture.progress') events.push(payload as CaptureProgressEvent);
  });
  await host.startServices(['idp', 'sts']);
  for (let i = 0; i < 100; i++) {
    const a = await call<StsAccountInfo>('federation.stsAccount', {});
    if (a.seedPending.length === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
}, 60_000);

afterAll(async () => {
  if (savedCdp === undefined) delete process.env.LOUPE_CAPTURE_CDP_PORT;
  else process.env.LOUPE_CAPTURE_CDP_PORT = savedCdp;
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SAML capture through the host', () => {
  it('says where the capture runs and which sign-in URLs it stops', async () => {
    const env = await call<CaptureEnvironment>('federation.captureEnvironment', { realm: 'federation' });
    expect(env.kind).toBe('chromium');
    expect(env.patterns.some((p) => p.includes('signin\\.aws\\.amazon\\.com'))).toBe(true);
    expect(env.patterns.some((p) => p.includes('amazonaws-us-gov'))).toBe(true);
  });

  it("alice's capture comes back decoded, indented, with both roles and a signature verified against the token service's provider", async () => {
    const port = await freePort();
    process.env.LOUPE_CAPTURE_CDP_PORT = String(port);
    events.length = 0;
    const captured = call<CapturedAssertion>('federation.capture', { realm: 'federation', urlName: 'cloud', timeoutSeconds: 60, captureId: 'alice-1' });
    await logInOverCdp(port, 'alice');
    const a = await captured;
    expect(a.subject).toBe('alice');
    expect(a.roleSessionName).toBe('alice');
    expect(a.roles.map((r) => r.roleArn).sort()).toEqual(['arn:aws:iam::123456789012:role/LoupeAdmin', 'arn:aws:iam::123456789012:role/LoupeReadOnly']);
    expect(a.signature.status).toBe('verified');
    expect(a.signature.provider).toBe('arn:aws:iam::123456789012:saml-provider/loupe');
    expect(a.xml.split('\n')[0]).toMatch(/^<samlp:Response /);
    expect(a.xml).toContain('\n  <saml:Assertion');
    const stages = events.filter((e) => e.captureId === 'alice-1').map((e) => e.stage);
    expect(stages[0]).toBe('launching');
    expect(stages).toContain('captured');
    // The window closes right after the assertion is handed back.
    for (let i = 0; i < 100 && !events.some((e) => e.stage === 'closed'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(events.at(-1)?.stage).toBe('closed');
  }, 90_000);

  it('a capture can be cancelled, and says so', async () => {
    delete process.env.LOUPE_CAPTURE_CDP_PORT;
    events.length = 0;
    const running = call('federation.capture', { realm: 'federation', urlName: 'cloud', headless: true, timeoutSeconds: 60, captureId: 'c1' }).catch((e: { body?: unknown }) => e.body);
    for (let i = 0; i < 200 && !events.some((e) => e.stage === 'opened'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await call('federation.cancelCapture', { captureId: 'c1' })).toEqual({ cancelled: true });
    expect(await running).toMatchObject({ code: 'failed', message: 'The capture was cancelled.', detail: { code: 'aborted' } });
    expect(await call('federation.cancelCapture', { captureId: 'c1' })).toEqual({ cancelled: false });
  }, 60_000);

  it('capture params need an SSO URL or realm + urlName', async () => {
    await expect(call('federation.capture', { realm: 'federation' })).rejects.toThrow(/give ssoUrl, or realm and urlName/);
  });
});
