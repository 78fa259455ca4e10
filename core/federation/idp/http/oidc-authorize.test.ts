/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies of the wire under test */
/**
 * The authorization-code flow over real HTTP, as a native app does it (RFC 8252): a loopback
 * callback server on a free port, PKCE S256, the login page, the 302 back with state and code,
 * and the code exchanged at the token endpoint; tokens checked with jose against the JWKS.
 * Error texts are Keycloak's (AuthorizationEndpointChecker, AuthorizationCodeGrantType, PkceUtils).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, createHash } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, decodeJwt } from 'jose';
import { startHarness, removeDir, postForm, submitLogin, type Harness } from '../testing/harness.js';

let h: Harness;
let realm: string;
let token: string;
let callback: http.Server;
let callbackUrl: string;
/** What the loopback server received: the query of each GET /callback. */
const received: URLSearchParams[] = [];

beforeAll(async () => {
  h = await startHarness();
  realm = `${h.idp.url}/realms/federation`;
  token = `${realm}/protocol/openid-connect/token`;
  callback = http.createServer((req, res) => {
    received.push(new URL(req.url ?? '/', 'http://x').searchParams);
    res.end('You may close this window.');
  });
  await new Promise<void>((r) => callback.listen(0, '127.0.0.1', r));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await new Promise((r) => callback.close(r));
  await h.close();
  removeDir(h.dir);
});

const verifier = () => randomBytes(32).toString('base64url');
const challengeOf = (v: string) => createHash('sha256').update(v).digest('base64url');

function authUrl(params: Record<string, string>): string {
  return `${realm}/protocol/openid-connect/auth?${new URLSearchParams(params)}`;
}

/** GET the auth URL, log in on the page, return the 302 and the cookie it set. */
async function login(params: Record<string, string>, user = 'alice', password = 'alice'): Promise<{ location: URL; cookie: string; res: Response }> {
  const page = await fetch(authUrl(params), { redirect: 'manual' });
  expect(page.status).toBe(200);
  const res = await submitLogin(page, { username: user, password });
  expect(res.status).toBe(302);
  return { location: new URL(res.headers.get('location')!), cookie: res.headers.getSetCookie().find((c) => c.startsWith('KEYCLOAK_IDENTITY='))!.split(';')[0]!, res };
}

describe('authorization-code flow with PKCE for the native-app client', () => {
  it('login → 302 to the loopback callback with state, iss and a code → tokens whose ID token echoes the nonce', async () => {
    const v = verifier();
    const { location, res } = await login({ client_id: 'loupe-desktop', redirect_uri: callbackUrl, response_type: 'code', scope: 'openid', state: 'st-1', nonce: 'n-1', code_challenge: challengeOf(v), code_challenge_method: 'S256' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(`${location.origin}${location.pathname}`).toBe(callbackUrl);
    expect([...location.searchParams.keys()]).toEqual(['state', 'session_state', 'iss', 'code']);
    expect(location.searchParams.get('state')).toBe('st-1');
    expect(location.searchParams.get('iss')).toBe(realm);
    // The browser follows the redirect: the app's loopback server gets the code.
    await fetch(location);
    const got = received.at(-1)!;
    const code = got.get('code')!;
    const tokens = await postForm(token, { grant_type: 'authorization_code', client_id: 'loupe-desktop', code, redirect_uri: callbackUrl, code_verifier: v });
    expect(tokens.status).toBe(200);
    const body = await tokens.json() as any;
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'openid profile email', session_state: got.get('session_state') });
    const jwks = createRemoteJWKSet(new URL(`${realm}/protocol/openid-connect/certs`));
    const { payload: id } = await jwtVerify(body.id_token, jwks, { issuer: realm, audience: 'loupe-desktop' });
    expect(id).toMatchObject({ typ: 'ID', nonce: 'n-1', preferred_username: 'alice', azp: 'loupe-desktop' });
    expect(typeof id.auth_time).toBe('number');
    expect(id.at_hash).toBe(createHash('sha256').update(body.access_token).digest().subarray(0, 16).toString('base64url'));
    const { payload: access } = await jwtVerify(body.access_token, jwks, { issuer: realm });
    expect(access).toMatchObject({ typ: 'Bearer', azp: 'loupe-desktop', preferred_username: 'alice' });
    // The refresh token works for the public client.
    const refreshed = await postForm(token, { grant_type: 'refresh_token', client_id: 'loupe-desktop', refresh_token: body.refresh_token });
    expect(refreshed.status).toBe(200);
  });

  it('a code works once; its replay is "Code not valid" and ends that client session (refresh refused)', async () => {
    const v = verifier();
    const { location } = await login({ client_id: 'loupe-desktop', redirect_uri: callbackUrl, response_type: 'code', scope: 'openid', code_challenge: challengeOf(v), code_challenge_method: 'S256' });
    const form = { grant_type: 'authorization_code', client_id: 'loupe-desktop', code: location.searchParams.get('code')!, redirect_uri: callbackUrl, code_verifier: v };
    const first = await (await postForm(token, form)).json() as any;
    expect(first.access_token).toBeTruthy();
    const again = await postForm(token, form);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: 'invalid_grant', error_description: 'Code not valid' });
    const refresh = await postForm(token, { grant_type: 'refresh_token', client_id: 'loupe-desktop', refresh_token: first.refresh_token });
    expect(await refresh.json()).toEqual({ error: 'invalid_grant', error_description: "Session doesn't have required client" });
  });

  it('PKCE: the public client must send S256; a wrong or missing verifier is refused', async () => {
    const base = { client_id: 'loupe-desktop', redirect_uri: callbackUrl, response_type: 'code', scope: 'openid', state: 'x' };
    const none = await fetch(authUrl(base), { redirect: 'manual' });
    expect(none.status).toBe(302);
    const loc = new URL(none.headers.get('location')!);
    expect(Object.fromEntries(loc.searchParams)).toEqual({ error: 'invalid_request', error_description: 'Missing parameter: code_challenge_method', state: 'x', iss: realm });
    const plain = new URL((await fetch(authUrl({ ...base, code_challenge: verifier() + 'aaaaaaaaaaa', code_challenge_method: 'plain' }), { redirect: 'manual' })).headers.get('location')!);
    expect(plain.searchParams.get('error_description')).toBe('Invalid parameter: code challenge method is not matching the configured one');
    const short = new URL((await fetch(authUrl({ ...base, code_challenge: 'abc', code_challenge_method: 'S256' }), { redirect: 'manual' })).headers.get('location')!);
    expect(short.searchParams.get('error_description')).toBe('Invalid parameter: code_challenge');

    const v = verifier();
    for (const [cv, text] of [
      [undefined, 'PKCE code verifier not specified'],
      [verifier(), 'PKCE verification failed: Code mismatch'],
      ['short', 'PKCE verification failed: Invalid code verifier'],
    ] as const) {
      const { location } = await login({ ...base, code_challenge: challengeOf(v), code_challenge_method: 'S256' });
      const res = await postForm(token, { grant_type: 'authorization_code', client_id: 'loupe-desktop', code: location.searchParams.get('code')!, redirect_uri: callbackUrl, ...(cv ? { code_verifier: cv } : {}) });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'invalid_grant', error_description: text });
    }
  });

  it('a confidential client may use plain PKCE, or none; its secret is required for the exchange', async () => {
    const redirect = 'http://localhost:7777/app/cb';
    const v = verifier();
    const { location } = await login({ client_id: 'loupe-web', redirect_uri: redirect, response_type: 'code', scope: 'openid', code_challenge: v, code_challenge_method: 'plain' }, 'bob', 'bob');
    expect(`${location.origin}${location.pathname}`).toBe(redirect);
    const code = location.searchParams.get('code')!;
    const noSecret = await postForm(token, { grant_type: 'authorization_code', client_id: 'loupe-web', code, redirect_uri: redirect, code_verifier: v });
    expect(noSecret.status).toBe(401);
    expect(await noSecret.json()).toEqual({ error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' });
    const ok = await postForm(token, { grant_type: 'authorization_code', client_id: 'loupe-web', client_secret: 'loupe-web-secret', code, redirect_uri: redirect, code_verifier: v });
    expect(ok.status).toBe(200);
    expect(decodeJwt((await ok.json() as any).access_token).preferred_username).toBe('bob');

    const plainFlow = await login({ client_id: 'loupe-web', redirect_uri: redirect, response_type: 'code', scope: 'openid' }, 'bob', 'bob');
    const wrongRedirect = await postForm(token, { grant_type: 'authorization_code', client_id: 'loupe-web', client_secret: 'loupe-web-secret', code: plainFlow.location.searchParams.get('code')!, redirect_uri: 'http://localhost:7777/other' });
    expect(await wrongRedirect.json()).toEqual({ error: 'invalid_grant', error_description: 'Incorrect redirect_uri' });
  });

  it('a code issued to one client is refused to another; a missing code is invalid_request', async () => {
    const v = verifier();
    const { location } = await login({ client_id: 'loupe-desktop', redirect_uri: callbackUrl, response_type: 'code', scope: 'openid', code_challenge: challengeOf(v), code_challenge_method: 'S256' });
    const res = await postForm(token, { grant_type: 'authorization_code', client_id: 'loupe-web', client_secret: 'loupe-web-secret', code: location.searchParams.get('code')!, redirect_uri: callbackUrl, code_verifier: v });
    expect(await res.json()).toEqual({ error: 'invalid_grant', error_description: 'Auth error: Found different client_id in clientSession' });
    const missing = await postForm(token, { grant_type: 'authorization_code', client_id: 'loupe-desktop' });
    expect(await missing.json()).toEqual({ error: 'invalid_request', error_description: 'Missing parameter: code' });
  });
});

describe('SSO session, prompt and response modes', () => {
  it('with the KEYCLOAK_IDENTITY cookie the code comes at once; prompt=login shows the form; prompt=none without a session is login_required', async () => {
    const v = verifier();
    const params = { client_id: 'loupe-desktop', redirect_uri: callbackUrl, response_type: 'code', scope: 'openid', code_challenge: challengeOf(v), code_challenge_method: 'S256', state: 's2' };
    const { cookie } = await login(params);
    expect(cookie).toMatch(/^KEYCLOAK_IDENTITY=/);
    const sso = await fetch(authUrl(params), { redirect: 'manual', headers: { cookie } });
    expect(sso.status).toBe(302);
    const loc = new URL(sso.headers.get('location')!);
    expect(loc.searchParams.get('state')).toBe('s2');
    const ok = await postForm(token, { grant_type: 'authorization_code', client_id: 'loupe-desktop', code: loc.searchParams.get('code')!, redirect_uri: callbackUrl, code_verifier: v });
    expect(ok.status).toBe(200);
    const forced = await fetch(authUrl({ ...params, prompt: 'login' }), { redirect: 'manual', headers: { cookie } });
    expect(forced.status).toBe(200);
    expect(await forced.text()).toContain('kc-form-login');
    const silent = await fetch(authUrl({ ...params, prompt: 'none' }), { redirect: 'manual' });
    expect(Object.fromEntries(new URL(silent.headers.get('location')!).searchParams)).toEqual({ error: 'login_required', state: 's2', iss: realm });
  });

  it('response_mode=form_post answers with a page that POSTs state and code; fragment puts them after #', async () => {
    const v = verifier();
    const base = { client_id: 'loupe-desktop', redirect_uri: callbackUrl, response_type: 'code', scope: 'openid', code_challenge: challengeOf(v), code_challenge_method: 'S256', state: 'fp' };
    const page = await fetch(authUrl({ ...base, response_mode: 'form_post' }));
    const res = await submitLogin(page, { username: 'alice', password: 'alice' });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<FORM METHOD="POST" ACTION="${callbackUrl}">`);
    expect(html).toContain('<INPUT TYPE="HIDDEN" NAME="state" VALUE="fp" />');
    expect(html).toMatch(/NAME="code" VALUE="[^"]+"/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('KEYCLOAK_IDENTITY='))!.split(';')[0]!;
    const frag = await fetch(authUrl({ ...base, response_mode: 'fragment' }), { redirect: 'manual', headers: { cookie } });
    const location = frag.headers.get('location')!;
    expect(location.startsWith(`${callbackUrl}#state=fp&session_state=`)).toBe(true);
  });
});

describe("Keycloak's authorization endpoint errors", () => {
  const page = async (params: Record<string, string>) => {
    const res = await fetch(authUrl(params), { redirect: 'manual' });
    return { status: res.status, text: await res.text() };
  };

  it('before the redirect URI is known good, errors are pages, never redirects', async () => {
    expect(await page({ response_type: 'code' })).toMatchObject({ status: 400, text: expect.stringContaining('Missing parameters: client_id') });
    expect(await page({ client_id: 'ghost', response_type: 'code' })).toMatchObject({ status: 400, text: expect.stringContaining('Client not found.') });
    expect((await page({ client_id: 'urn:amazon:webservices', response_type: 'code' })).text).toContain('Wrong client protocol.');
    for (const bad of ['http://evil.example/callback', 'http://127.0.0.1.evil.example/cb', 'http://127.0.0.1:80@evil.example/cb', 'https://127.0.0.1/cb', 'http://127.0.0.1:5x/cb']) {
      const r = await page({ client_id: 'loupe-desktop', redirect_uri: bad, response_type: 'code', scope: 'openid' });
      expect(r.status).toBe(400);
      expect(r.text).toContain('Invalid parameter: redirect_uri');
    }
    // An OIDC request must name its redirect URI.
    expect((await page({ client_id: 'loupe-desktop', response_type: 'code', scope: 'openid' })).text).toContain('Invalid parameter: redirect_uri');
  });

  it('after it, errors go back to the client with state and iss', async () => {
    const redirect = async (params: Record<string, string>) => {
      const res = await fetch(authUrl({ redirect_uri: callbackUrl, state: 'e', ...params }), { redirect: 'manual' });
      expect(res.status).toBe(302);
      return Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
    };
    expect(await redirect({ client_id: 'loupe-desktop' })).toEqual({ error: 'invalid_request', error_description: 'Missing parameter: response_type', state: 'e', iss: realm });
    expect(await redirect({ client_id: 'loupe-desktop', response_type: 'bogus' })).toEqual({ error: 'unsupported_response_type', state: 'e', iss: realm });
    expect(await redirect({ client_id: 'loupe-desktop', response_type: 'code', response_mode: 'nope' })).toMatchObject({ error: 'invalid_request', error_description: 'Invalid parameter: response_mode' });
    expect(await redirect({ client_id: 'loupe-desktop', response_type: 'code', scope: 'openid admin' })).toMatchObject({ error: 'invalid_scope', error_description: 'Invalid scopes: openid admin' });
    const implicit = await fetch(authUrl({ client_id: 'loupe-desktop', redirect_uri: callbackUrl, response_type: 'id_token token', nonce: 'n' }), { redirect: 'manual' });
    expect(new URLSearchParams(new URL(implicit.headers.get('location')!).hash.slice(1)).get('error_description')).toBe('Client is not allowed to initiate browser login with given response_type. Implicit flow is disabled for the client.');
  });

  it('a client with the standard flow off is unauthorized_client', async () => {
    await h.idp.api.admin.updateClient('federation', 'loupe-cli', { redirectUris: ['http://127.0.0.1/*'] });
    const res = await fetch(authUrl({ client_id: 'loupe-cli', redirect_uri: callbackUrl, response_type: 'code' }), { redirect: 'manual' });
    expect(Object.fromEntries(new URL(res.headers.get('location')!).searchParams)).toMatchObject({
      error: 'unauthorized_client',
      error_description: 'Client is not allowed to initiate browser login with given response_type. Standard flow is disabled for the client.',
    });
  });

  it('discovery advertises the grant and response modes that are served', async () => {
    const doc = await (await fetch(`${realm}/.well-known/openid-configuration`)).json() as any;
    expect(doc.grant_types_supported).toContain('authorization_code');
    expect(doc.response_modes_supported).toEqual(['query', 'fragment', 'form_post']);
    expect((await fetch(doc.authorization_endpoint)).status).toBe(400);
    // The in-process API names the same endpoints for the host.
    const urls = h.idp.api.urls('federation');
    expect([urls.authorization, urls.logout, urls.introspection, urls.revocation, urls.userinfo]).toEqual([doc.authorization_endpoint, doc.end_session_endpoint, doc.introspection_endpoint, doc.revocation_endpoint, doc.userinfo_endpoint]);
  });
});
