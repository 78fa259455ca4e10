/**
 * End to end against the embedded identity provider, over HTTP only: the IdP runs in its own
 * process (`loupe services --only idp`) and the two talk through the wire formats alone — its
 * SAML descriptor, the signed SAMLResponse its login form posts, its discovery document and
 * JWKS over HTTPS, its access tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AssumeRoleWithSAMLCommand, AssumeRoleWithWebIdentityCommand, GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { silentLogger } from '../../common/log.js';
import { freePort } from '../../common/testing/free-port.js';
import type { ServiceHandle } from '../../common/service.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startStsService, type StsApi } from './service.js';
import { sdkFor } from './testing/harness.js';

const READONLY = 'arn:aws:iam::123456789012:role/LoupeReadOnly';
const ADMIN = 'arn:aws:iam::123456789012:role/LoupeAdmin';
const PROVIDER = 'arn:aws:iam::123456789012:saml-provider/loupe';

const dirs: string[] = [];
const tmp = (p: string) => {
  const d = mkdtempSync(path.join(os.tmpdir(), p));
  dirs.push(d);
  return d;
};

interface IdpProcess {
  url: string;
  extraUrls: { https: string };
  close(): Promise<void>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Starts `loupe services --only idp` on the given (or free) ports and waits for "ready". */
async function startIdp(port?: number, httpsPort?: number): Promise<IdpProcess> {
  const env = { ...process.env, LOUPE_IDP_PORT: String(port ?? (await freePort())), LOUPE_IDP_HTTPS_PORT: String(httpsPort ?? (await freePort())), LOUPE_LOG_LEVEL: 'warn' };
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'bin/loupe.mjs'), 'services', '--only', 'idp', '--data-dir', tmp('loupe-e2e-idp-')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => (err += c));
  const urls = await new Promise<{ url: string; https: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the IdP did not start: ${err}`)), 45_000);
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /^idp (http:\S+) (https:\S+)$/m.exec(out);
      if (m && /^ready$/m.test(out)) {
        clearTimeout(timer);
        resolve({ url: m[1]!, https: m[2]! });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the IdP exited with ${code}: ${err}`));
    });
  });
  return {
    url: urls.url,
    extraUrls: { https: urls.https },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function startSts(idpHttp: string, idpHttps: string): Promise<ServiceHandle<StsApi>> {
  return startStsService({ host: '127.0.0.1', port: 0, dataDir: tmp('loupe-e2e-sts-'), log: silentLogger, peers: { idp: idpHttp, idpHttps } as never });
}

/** Logs in through the IdP's SSO login form and returns the SAMLResponse its auto-submit form would POST. */
async function samlLogin(idpUrl: string, username: string, password: string, client = 'cloud'): Promise<{ action: string; samlResponse: string }> {
  const pageRes = await fetch(`${idpUrl}/realms/federation/protocol/saml/clients/${client}`);
  const cookie = pageRes.headers.getSetCookie().map((c) => c.split(';')[0]!).join('; ');
  const page = await pageRes.text();
  const action = /<form id="kc-form-login" action="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');
  expect(page).toMatch(/name="username"/);
  expect(page).toMatch(/name="password"/);
  const res = await fetch(action, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: new URLSearchParams({ username, password }) });
  const html = await res.text();
  const formAction = /<FORM METHOD="POST" ACTION="([^"]+)"/i.exec(html)![1]!;
  const saml = /NAME="SAMLResponse" VALUE="([^"]+)"/i.exec(html)![1]!;
  return { action: formAction, samlResponse: saml.replace(/&#x2B;|&#43;/g, '+').replace(/&#x3D;|&#61;/g, '=').replace(/&amp;/g, '&') };
}

/** The OIDC password grant over the IdP's HTTPS endpoint (a test client: it skips CA checks; the STS pins the thumbprint). */
function passwordGrant(httpsUrl: string, username: string, password: string): Promise<{ status: number; body: Record<string, string> }> {
  return tokenGrant(httpsUrl, { grant_type: 'password', username, password });
}

function tokenGrant(httpsUrl: string, fields: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const body = new URLSearchParams({ client_id: 'loupe-cli', client_secret: 'loupe-cli-secret', ...fields }).toString();
  return new Promise((resolve, reject) => {
    const req = https.request(`${httpsUrl}/realms/federation/protocol/openid-connect/token`, { method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, string> }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the demo flows against the embedded IdP', () => {
  let idp: IdpProcess;
  let sts: ServiceHandle<StsApi>;
  beforeAll(async () => {
    idp = await startIdp();
    sts = await startSts(idp.url, idp.extraUrls.https);
  });
  afterAll(async () => {
    await sts?.close();
    await idp?.close();
  });

  it('the demo account is seeded from the IdP: SAML provider from its descriptor, OIDC provider from its https realm', async () => {
    const seed = (await (await fetch(`${sts.url}/loupe/admin/seed`)).json()) as { pending: string[] };
    expect(seed.pending).toEqual([]);
    const account = (await (await fetch(`${sts.url}/loupe/admin/account`)).json()) as {
      accountId: string;
      samlProviders: { arn: string; entityId: string }[];
      oidcProviders: { url: string; clientIds: string[]; thumbprints: string[] }[];
      roles: { arn: string }[];
    };
    expect(account.accountId).toBe('123456789012');
    expect(account.samlProviders).toEqual([expect.objectContaining({ arn: PROVIDER, entityId: `${idp.url}/realms/federation` })]);
    expect(account.oidcProviders).toEqual([expect.objectContaining({ url: `${idp.extraUrls.https}/realms/federation`, clientIds: ['loupe-cli', 'loupe-desktop', 'loupe-web'], thumbprints: [expect.stringMatching(/^[0-9a-f]{40}$/)] })]);
    expect(account.roles.map((r) => r.arn).sort()).toEqual([ADMIN, READONLY]);
  });

  it('SAML: login form → SSO form → AssumeRoleWithSAML → GetCallerIdentity, all through the SDK', async () => {
    const { action, samlResponse } = await samlLogin(idp.url, 'alice', 'alice');
    expect(action).toBe('https://signin.aws.amazon.com/saml');
    const sdk = sdkFor(sts.url);
    const out = await sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ADMIN, PrincipalArn: PROVIDER, SAMLAssertion: samlResponse }));
    expect(out.AssumedRoleUser?.Arn).toBe('arn:aws:sts::123456789012:assumed-role/LoupeAdmin/alice');
    expect(out.Issuer).toBe(`${idp.url}/realms/federation`);
    const c = out.Credentials!;
    const me = await sdkFor(sts.url, { accessKeyId: c.AccessKeyId!, secretAccessKey: c.SecretAccessKey!, sessionToken: c.SessionToken! } as never).send(new GetCallerIdentityCommand({}));
    expect(me.Arn).toBe('arn:aws:sts::123456789012:assumed-role/LoupeAdmin/alice');
  });

  it('bob may not assume the admin role: his assertion only carries read-only', async () => {
    const { samlResponse } = await samlLogin(idp.url, 'bob', 'bob');
    const sdk = sdkFor(sts.url);
    await expect(sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ADMIN, PrincipalArn: PROVIDER, SAMLAssertion: samlResponse }))).rejects.toMatchObject({
      Code: 'AccessDenied',
      message: 'Not authorized to perform sts:AssumeRoleWithSAML',
    });
    const ok = await sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: READONLY, PrincipalArn: PROVIDER, SAMLAssertion: samlResponse }));
    expect(ok.AssumedRoleUser?.Arn).toBe('arn:aws:sts::123456789012:assumed-role/LoupeReadOnly/bob');
  });

  it('the client without a RoleSessionName mapper shows the spec error', async () => {
    const { samlResponse } = await samlLogin(idp.url, 'alice', 'alice', 'cloud-no-session-name');
    await expect(sdkFor(sts.url).send(new AssumeRoleWithSAMLCommand({ RoleArn: ADMIN, PrincipalArn: PROVIDER, SAMLAssertion: samlResponse }))).rejects.toMatchObject({
      name: 'InvalidIdentityTokenException',
      Code: 'InvalidIdentityToken',
      message: 'RoleSessionName is required in AuthnResponse',
    });
  });

  it('DurationSeconds above LoupeReadOnly\'s one-hour maximum is refused in AWS words', async () => {
    const { samlResponse } = await samlLogin(idp.url, 'alice', 'alice');
    await expect(sdkFor(sts.url).send(new AssumeRoleWithSAMLCommand({ RoleArn: READONLY, PrincipalArn: PROVIDER, SAMLAssertion: samlResponse, DurationSeconds: 7200 }))).rejects.toMatchObject({
      Code: 'ValidationError',
      message: 'The requested DurationSeconds exceeds the MaxSessionDuration set for this role.',
    });
  });

  it('OIDC: password grant over HTTPS → AssumeRoleWithWebIdentity through the SDK', async () => {
    const grant = await passwordGrant(idp.extraUrls.https, 'alice', 'alice');
    expect(grant.status).toBe(200);
    const out = await sdkFor(sts.url).send(new AssumeRoleWithWebIdentityCommand({ RoleArn: READONLY, RoleSessionName: 'alice-cli', WebIdentityToken: grant.body.access_token! }));
    expect(out.AssumedRoleUser?.Arn).toBe('arn:aws:sts::123456789012:assumed-role/LoupeReadOnly/alice-cli');
    expect(out.Audience).toBe('loupe-cli');
    expect(out.Provider).toBe(`arn:aws:iam::123456789012:oidc-provider/${idp.extraUrls.https.slice(8)}/realms/federation`);
  });

  it('OIDC trust matches the README: alice both roles, bob read-only, a service account neither', async () => {
    const sdk = sdkFor(sts.url);
    const assume = (RoleArn: string, token: string) => sdk.send(new AssumeRoleWithWebIdentityCommand({ RoleArn, RoleSessionName: 'web', WebIdentityToken: token }));
    const denied = { Code: 'AccessDenied', message: 'Not authorized to perform sts:AssumeRoleWithWebIdentity' };
    const alice = (await passwordGrant(idp.extraUrls.https, 'alice', 'alice')).body.access_token!;
    const bob = (await passwordGrant(idp.extraUrls.https, 'bob', 'bob')).body.access_token!;
    const service = await tokenGrant(idp.extraUrls.https, { grant_type: 'client_credentials' });
    expect(service.status).toBe(200);
    expect((await assume(ADMIN, alice)).AssumedRoleUser?.Arn).toBe('arn:aws:sts::123456789012:assumed-role/LoupeAdmin/web');
    expect((await assume(READONLY, bob)).AssumedRoleUser?.Arn).toBe('arn:aws:sts::123456789012:assumed-role/LoupeReadOnly/web');
    await expect(assume(ADMIN, bob)).rejects.toMatchObject(denied);
    await expect(assume(ADMIN, service.body.access_token!)).rejects.toMatchObject(denied);
    await expect(assume(READONLY, service.body.access_token!)).rejects.toMatchObject(denied);
  });

  it('a refresh token is no web identity: HS512 with a key no JWKS publishes, and refused as InvalidIdentityToken', async () => {
    const grant = await passwordGrant(idp.extraUrls.https, 'alice', 'alice');
    const refresh = grant.body.refresh_token!;
    const header = JSON.parse(Buffer.from(refresh.split('.')[0]!, 'base64url').toString()) as { alg: string; kid: string };
    expect(header.alg).toBe('HS512');
    const jwks = (await (await fetch(`${idp.url}/realms/federation/protocol/openid-connect/certs`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).not.toContain(header.kid);
    await expect(sdkFor(sts.url).send(new AssumeRoleWithWebIdentityCommand({ RoleArn: READONLY, RoleSessionName: 'alice', WebIdentityToken: refresh }))).rejects.toMatchObject({
      name: 'InvalidIdentityTokenException',
      Code: 'InvalidIdentityToken',
    });
    // The IdP itself still takes it at the token endpoint.
    expect((await tokenGrant(idp.extraUrls.https, { grant_type: 'refresh_token', refresh_token: refresh })).status).toBe(200);
  });
});

describe('when the IdP starts after the token service', () => {
  it('the demo providers are created once the IdP answers', async () => {
    const [port, httpsPort] = [await freePort(), await freePort()];
    const sts = await startSts(`http://127.0.0.1:${port}`, `https://127.0.0.1:${httpsPort}`);
    let idp: IdpProcess | undefined;
    try {
      const before = (await (await fetch(`${sts.url}/loupe/admin/seed`)).json()) as { pending: string[] };
      expect(before.pending).toEqual(['saml', 'oidc']);
      // The roles exist already; the providers wait.
      expect(((await (await fetch(`${sts.url}/loupe/admin/roles`)).json()) as { roles: unknown[] }).roles).toHaveLength(2);
      idp = await startIdp(port, httpsPort);
      // Requests retry (at most once a second) and so does a background timer.
      let after = { pending: ['?'] };
      for (let i = 0; i < 40 && after.pending.length > 0; i++) {
        after = (await (await fetch(`${sts.url}/loupe/admin/seed`)).json()) as { pending: string[] };
        if (after.pending.length > 0) await new Promise((r) => setTimeout(r, 250));
      }
      expect(after.pending).toEqual([]);
      const account = (await (await fetch(`${sts.url}/loupe/admin/account`)).json()) as { samlProviders: unknown[]; oidcProviders: unknown[] };
      expect(account.samlProviders).toHaveLength(1);
      expect(account.oidcProviders).toHaveLength(1);
    } finally {
      await sts.close();
      await idp?.close();
    }
  });
});
