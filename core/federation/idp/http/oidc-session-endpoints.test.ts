/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies of the wire under test */
/**
 * Introspection (RFC 7662), revocation (RFC 7009) and RP-initiated logout over real HTTP, with
 * Keycloak's answers: every endpoint discovery names answers, and what they end stays ended
 * (refresh, userinfo, the SSO cookie).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startHarness, removeDir, postForm, submitLogin, type Harness } from '../testing/harness.js';

let h: Harness;
let realm: string;
let oidc: string;

beforeAll(async () => {
  h = await startHarness();
  realm = `${h.idp.url}/realms/federation`;
  oidc = `${realm}/protocol/openid-connect`;
});
afterAll(async () => {
  await h.close();
  removeDir(h.dir);
});

const cli = { client_id: 'loupe-cli', client_secret: 'loupe-cli-secret' };
const grant = async (user = 'alice') => (await (await postForm(`${oidc}/token`, { grant_type: 'password', username: user, password: user, scope: 'openid', ...cli })).json()) as any;

describe('discovery', () => {
  it('every endpoint it names answers something other than 404', async () => {
    const doc = (await (await fetch(`${realm}/.well-known/openid-configuration`)).json()) as any;
    for (const key of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'end_session_endpoint', 'jwks_uri', 'introspection_endpoint', 'revocation_endpoint']) {
      const url = doc[key] as string;
      const res = await fetch(url, { method: key.endsWith('introspection_endpoint') || key === 'revocation_endpoint' || key === 'token_endpoint' ? 'POST' : 'GET', redirect: 'manual' });
      expect(res.status, key).not.toBe(404);
    }
  });
});

describe('introspection (RFC 7662)', () => {
  it('an access token is active with its claims, client_id and username; garbage is {"active":false}', async () => {
    const t = await grant();
    const res = await postForm(`${oidc}/token/introspect`, { token: t.access_token, ...cli });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ active: true, client_id: 'loupe-cli', username: 'alice', token_type: 'Bearer', typ: 'Bearer', iss: realm });
    expect(await (await postForm(`${oidc}/token/introspect`, { token: 'x.y.z', ...cli })).json()).toEqual({ active: false });
    const refresh = (await (await postForm(`${oidc}/token/introspect`, { token: t.refresh_token, token_type_hint: 'refresh_token', ...cli })).json()) as any;
    expect(refresh).toMatchObject({ active: true, typ: 'Refresh' });
  });

  it("Keycloak's errors: public clients not allowed, missing token, bad credentials", async () => {
    const pub = await postForm(`${oidc}/token/introspect`, { token: 'x', client_id: 'loupe-desktop' });
    expect(pub.status).toBe(403);
    expect(await pub.json()).toEqual({ error: 'invalid_request', error_description: 'Client not allowed.' });
    const missing = await postForm(`${oidc}/token/introspect`, { ...cli });
    expect(await missing.json()).toEqual({ error: 'invalid_request', error_description: 'Token not provided.' });
    const bad = await postForm(`${oidc}/token/introspect`, { token: 'x', client_id: 'loupe-cli', client_secret: 'nope' });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: 'invalid_request', error_description: 'Authentication failed.' });
  });
});

describe('revocation (RFC 7009)', () => {
  it('a revoked access token is inactive and refused by userinfo; the refresh token still works', async () => {
    const t = await grant();
    const res = await postForm(`${oidc}/revoke`, { token: t.access_token, ...cli });
    expect(res.status).toBe(200);
    expect(await (await postForm(`${oidc}/token/introspect`, { token: t.access_token, ...cli })).json()).toEqual({ active: false });
    expect((await fetch(`${oidc}/userinfo`, { headers: { authorization: `Bearer ${t.access_token}` } })).status).toBe(401);
    expect((await postForm(`${oidc}/token`, { grant_type: 'refresh_token', refresh_token: t.refresh_token, ...cli })).status).toBe(200);
  });

  it("revoking a refresh token ends the client's session: refresh refused, access token inactive", async () => {
    const t = await grant('bob');
    expect((await postForm(`${oidc}/revoke`, { token: t.refresh_token, token_type_hint: 'refresh_token', ...cli })).status).toBe(200);
    const again = await postForm(`${oidc}/token`, { grant_type: 'refresh_token', refresh_token: t.refresh_token, ...cli });
    expect(again.status).toBe(400);
    expect(await (await postForm(`${oidc}/token/introspect`, { token: t.access_token, ...cli })).json()).toEqual({ active: false });
  });

  it("another client's token is refused; an invalid token is Keycloak's 200 invalid_token", async () => {
    const t = await grant();
    const other = await postForm(`${oidc}/revoke`, { token: t.access_token, client_id: 'loupe-web', client_secret: 'loupe-web-secret' });
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ error: 'invalid_request', error_description: 'Unmatching clients' });
    const invalid = await postForm(`${oidc}/revoke`, { token: 'nope', ...cli });
    expect(invalid.status).toBe(200);
    expect(await invalid.json()).toEqual({ error: 'invalid_token', error_description: 'Invalid token' });
    expect(await (await postForm(`${oidc}/revoke`, { ...cli })).json()).toEqual({ error: 'invalid_request', error_description: 'Token not provided' });
  });
});

describe('RP-initiated logout', () => {
  async function browserLogin(): Promise<{ cookie: string; tokens: any }> {
    const redirect = 'http://127.0.0.1:9/cb';
    const page = await fetch(`${oidc}/auth?${new URLSearchParams({ client_id: 'loupe-web', redirect_uri: redirect, response_type: 'code', scope: 'openid' })}`);
    const res = await submitLogin(page, { username: 'alice', password: 'alice' });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('KEYCLOAK_IDENTITY='))!.split(';')[0]!;
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    const tokens = await (await postForm(`${oidc}/token`, { grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: 'loupe-web', client_secret: 'loupe-web-secret' })).json();
    return { cookie, tokens };
  }

  it('id_token_hint + post_logout_redirect_uri: 302 back with state, the cookie cleared, the session over', async () => {
    const { cookie, tokens } = await browserLogin();
    const q = new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: 'http://127.0.0.1:9/bye', state: 'st' });
    const res = await fetch(`${oidc}/logout?${q}`, { redirect: 'manual', headers: { cookie } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://127.0.0.1:9/bye?state=st');
    expect(res.headers.getSetCookie()[0]).toMatch(/^KEYCLOAK_IDENTITY=; .*Max-Age=0/);
    const refresh = await postForm(`${oidc}/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'loupe-web', client_secret: 'loupe-web-secret' });
    expect(await refresh.json()).toEqual({ error: 'invalid_grant', error_description: 'Session not active' });
    // The old cookie no longer logs in: the auth endpoint shows the login form.
    const again = await fetch(`${oidc}/auth?${new URLSearchParams({ client_id: 'loupe-web', redirect_uri: 'http://127.0.0.1:9/cb', response_type: 'code', scope: 'openid' })}`, { redirect: 'manual', headers: { cookie } });
    expect(again.status).toBe(200);
  });

  it("Keycloak's logout errors: an unregistered redirect, a redirect without a hint, a bad hint", async () => {
    const { tokens } = await browserLogin();
    const bad = await fetch(`${oidc}/logout?${new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: 'https://evil.example/' })}`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Invalid redirect uri');
    const noHint = await fetch(`${oidc}/logout?${new URLSearchParams({ post_logout_redirect_uri: 'http://127.0.0.1:9/bye' })}`);
    expect(await noHint.text()).toContain('Missing parameters: id_token_hint');
    const forged = await fetch(`${oidc}/logout?${new URLSearchParams({ id_token_hint: tokens.access_token })}`);
    expect(await forged.text()).toContain('Invalid parameter: id_token_hint');
  });

  it('without a hint the user confirms; only the browser holding the session can', async () => {
    const { cookie, tokens } = await browserLogin();
    const page = await fetch(`${oidc}/logout`, { headers: { cookie } });
    const html = await page.text();
    expect(html).toContain('Do you want to log out?');
    const code = /name="session_code" value="([^"]+)"/.exec(html)![1]!;
    const forged = await postForm(`${oidc}/logout/logout-confirm`, { session_code: code });
    expect(forged.status).toBe(400);
    const page2 = await (await fetch(`${oidc}/logout`, { headers: { cookie } })).text();
    const code2 = /name="session_code" value="([^"]+)"/.exec(page2)![1]!;
    const ok = await postForm(`${oidc}/logout/logout-confirm`, { session_code: code2 }, { cookie });
    expect(await ok.text()).toContain('You are logged out');
    expect((await postForm(`${oidc}/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'loupe-web', client_secret: 'loupe-web-secret' })).status).toBe(400);
  });

  it('back-channel: POST with the refresh token and client credentials answers 204', async () => {
    const t = await grant();
    const res = await postForm(`${oidc}/logout`, { refresh_token: t.refresh_token, ...cli });
    expect(res.status).toBe(204);
    expect((await postForm(`${oidc}/token`, { grant_type: 'refresh_token', refresh_token: t.refresh_token, ...cli })).status).toBe(400);
  });
});
