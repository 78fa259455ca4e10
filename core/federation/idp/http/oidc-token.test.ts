/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies of the wire under test */
/**
 * The OpenID Connect side over real HTTP: discovery, JWKS, the three grants with tokens verified
 * by jose against the JWKS, and Keycloak's exact error bodies (texts from Keycloak's
 * TokenEndpoint / ClientIdAndSecretAuthenticator; the wire shapes are quoted in
 * shared/reference/federation.md).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createRemoteJWKSet, jwtVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import { startHarness, removeDir, postForm, type Harness } from '../testing/harness.js';

let h: Harness;
let realm: string;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  realm = `${h.idp.url}/realms/federation`;
  token = `${realm}/protocol/openid-connect/token`;
});
afterAll(async () => {
  await h.close();
  removeDir(h.dir);
});

const cli = { client_id: 'loupe-cli', client_secret: 'loupe-cli-secret' };
const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });

describe('discovery and keys', () => {
  it('the discovery document names the realm URL as issuer and Keycloak endpoint paths, with and without /auth', async () => {
    const doc = await (await fetch(`${realm}/.well-known/openid-configuration`)).json() as any;
    expect(doc.issuer).toBe(realm);
    expect(doc.token_endpoint).toBe(`${realm}/protocol/openid-connect/token`);
    expect(doc.jwks_uri).toBe(`${realm}/protocol/openid-connect/certs`);
    expect(doc.id_token_signing_alg_values_supported).toContain('RS256');
    const old = await (await fetch(`${h.idp.url}/auth/realms/federation/.well-known/openid-configuration`)).json() as any;
    expect(old.issuer).toBe(`${h.idp.url}/auth/realms/federation`);
  });

  it('the JWKS has an RS256 signing key with its certificate', async () => {
    const jwks = await (await fetch(`${realm}/protocol/openid-connect/certs`)).json() as any;
    expect(jwks.keys.length).toBeGreaterThanOrEqual(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
    expect(jwks.keys[0].x5c[0]).toMatch(/^MII/);
  });
});

describe('password grant', () => {
  it('alice gets an RS256 access token that jose verifies against the JWKS, with Keycloak claims', async () => {
    const res = await postForm(token, { grant_type: 'password', username: 'alice', password: 'alice', ...cli });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json() as any;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 300, refresh_expires_in: 1800, 'not-before-policy': 0, scope: 'profile email' });
    const jwks = createRemoteJWKSet(new URL(`${realm}/protocol/openid-connect/certs`));
    const { payload, protectedHeader } = await jwtVerify(body.access_token, jwks, { issuer: realm, audience: 'loupe-cli', algorithms: ['RS256'] });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(payload).toMatchObject({ iss: realm, aud: 'loupe-cli', azp: 'loupe-cli', typ: 'Bearer', preferred_username: 'alice', email: 'alice@example.com' });
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(typeof payload.sub).toBe('string');
    expect((payload.realm_access as { roles: string[] }).roles).toHaveLength(2);
  });

  it('scope=openid adds an ID token; HTTP Basic client authentication works', async () => {
    const res = await postForm(token, { grant_type: 'password', username: 'bob', password: 'bob', scope: 'openid' }, basic('loupe-cli', 'loupe-cli-secret'));
    const body = await res.json() as any;
    expect(body.scope).toBe('openid profile email');
    const id = decodeJwt(body.id_token);
    expect(id).toMatchObject({ typ: 'ID', aud: 'loupe-cli', preferred_username: 'bob' });
  });

  it('the refresh token gets a new access token for the same user', async () => {
    const first = await (await postForm(token, { grant_type: 'password', username: 'alice', password: 'alice', ...cli })).json() as any;
    const res = await postForm(token, { grant_type: 'refresh_token', refresh_token: first.refresh_token, ...cli });
    expect(res.status).toBe(200);
    const body = await res.json() as any;
    expect(decodeJwt(body.access_token).preferred_username).toBe('alice');
    expect(body.session_state).toBe(first.session_state);
  });

  it('client_credentials gives a service-account token and no refresh token', async () => {
    const body = await (await postForm(token, { grant_type: 'client_credentials', ...cli })).json() as any;
    expect(decodeJwt(body.access_token).preferred_username).toBe('service-account-loupe-cli');
    expect(body.refresh_token).toBeUndefined();
    expect(body.refresh_expires_in).toBe(0);
  });
});

describe('userinfo', () => {
  it("returns the token's user profile; a bad token gets 401 invalid_token", async () => {
    const t = await (await postForm(token, { grant_type: 'password', username: 'alice', password: 'alice', ...cli })).json() as any;
    const res = await fetch(`${realm}/protocol/openid-connect/userinfo`, { headers: { authorization: `Bearer ${t.access_token}` } });
    expect(await res.json() as any).toMatchObject({ preferred_username: 'alice', email: 'alice@example.com', given_name: 'Alice', family_name: 'Liddell', sub: decodeJwt(t.access_token).sub });
    const bad = await fetch(`${realm}/protocol/openid-connect/userinfo`, { headers: { authorization: 'Bearer x.y.z' } });
    expect(bad.status).toBe(401);
    expect(await bad.json() as any).toEqual({ error: 'invalid_token', error_description: 'Token verification failed' });
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer realm="federation", error="invalid_token"/);
  });
});

describe("Keycloak's token errors", () => {
  const cases: [string, Record<string, string>, Record<string, string>, number, unknown][] = [
    ['client without direct access grants', { grant_type: 'password', username: 'alice', password: 'alice', client_id: 'loupe-web', client_secret: 'loupe-web-secret' }, {}, 400, { error: 'unauthorized_client', error_description: 'Client not allowed for direct access grants' }],
    ['wrong password', { grant_type: 'password', username: 'alice', password: 'wrong', ...cli }, {}, 401, { error: 'invalid_grant', error_description: 'Invalid user credentials' }],
    ['unknown user', { grant_type: 'password', username: 'nobody', password: 'x', ...cli }, {}, 401, { error: 'invalid_grant', error_description: 'Invalid user credentials' }],
    ['wrong client secret', { grant_type: 'password', username: 'alice', password: 'alice', client_id: 'loupe-cli', client_secret: 'nope' }, {}, 401, { error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' }],
    ['wrong client secret by HTTP Basic', { grant_type: 'password', username: 'alice', password: 'alice' }, basic('loupe-cli', 'nope'), 401, { error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' }],
    ['missing client secret', { grant_type: 'password', username: 'alice', password: 'alice', client_id: 'loupe-cli' }, {}, 401, { error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' }],
    ['unknown client', { grant_type: 'password', username: 'alice', password: 'alice', client_id: 'ghost', client_secret: 'x' }, {}, 401, { error: 'invalid_client', error_description: 'Invalid client or Invalid client credentials' }],
    ['missing client_id', { grant_type: 'password', username: 'alice', password: 'alice' }, {}, 400, { error: 'invalid_client', error_description: 'Missing client_id parameter' }],
    ['missing grant_type', { ...cli }, {}, 400, { error: 'invalid_request', error_description: 'Missing form parameter: grant_type' }],
    ['unsupported grant type', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', ...cli }, {}, 400, { error: 'unsupported_grant_type', error_description: 'Unsupported grant_type' }],
    ['missing username', { grant_type: 'password', password: 'x', ...cli }, {}, 401, { error: 'invalid_request', error_description: 'Missing parameter: username' }],
    ['missing refresh_token', { grant_type: 'refresh_token', ...cli }, {}, 400, { error: 'invalid_request', error_description: 'Missing parameter: refresh_token' }],
    ['garbage refresh_token', { grant_type: 'refresh_token', refresh_token: 'not.a.jwt', ...cli }, {}, 400, { error: 'invalid_grant', error_description: 'Invalid refresh token' }],
    ['client_credentials without service accounts', { grant_type: 'client_credentials', client_id: 'loupe-web', client_secret: 'loupe-web-secret' }, {}, 401, { error: 'unauthorized_client', error_description: 'Client not enabled to retrieve service account' }],
  ];
  it.each(cases)('%s', async (_name, fields, headers, status, body) => {
    const res = await postForm(token, fields, headers);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json() as any).toEqual(body);
  });

  it("a refresh token used by another client is refused with Keycloak's words", async () => {
    const first = await (await postForm(token, { grant_type: 'password', username: 'alice', password: 'alice', ...cli })).json() as any;
    const res = await postForm(token, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: 'loupe-web', client_secret: 'loupe-web-secret' });
    expect(res.status).toBe(400);
    expect(await res.json() as any).toEqual({ error: 'invalid_grant', error_description: "Invalid refresh token. Token client and authorized client don't match" });
  });

  it('unknown realm → 404 {"error":"Realm does not exist"}', async () => {
    const res = await postForm(`${h.idp.url}/realms/nope/protocol/openid-connect/token`, { grant_type: 'password', ...cli });
    expect(res.status).toBe(404);
    expect(await res.json() as any).toEqual({ error: 'Realm does not exist' });
  });
});

describe('the server stays up after garbage', () => {
  it('answers bad bodies, methods and paths with errors and keeps serving tokens', async () => {
    const junk = await fetch(token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":"password"' });
    expect(junk.status).toBe(400);
    const badBasic = await postForm(token, { grant_type: 'password' }, { authorization: 'Basic %%%' });
    expect(badBasic.status).toBe(401);
    const get = await fetch(token);
    expect(get.status).toBe(405);
    const nothing = await fetch(`${h.idp.url}/nothing/here`);
    expect(nothing.status).toBe(404);
    expect(await nothing.json() as any).toEqual({ error: 'Unable to find matching target resource method' });
    const huge = await fetch(token, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=' + 'x'.repeat(2 * 1024 * 1024) }).catch(() => undefined);
    if (huge) expect(huge.status).toBe(413);
    const ok = await postForm(token, { grant_type: 'password', username: 'bob', password: 'bob', ...cli });
    expect(ok.status).toBe(200);
  });
});

describe('key rotation', () => {
  it('a token signed before rotation still verifies against the JWKS, which now has both keys', async () => {
    const before = await (await postForm(token, { grant_type: 'password', username: 'alice', password: 'alice', ...cli })).json() as any;
    const oldKid = decodeProtectedHeader(before.access_token).kid;
    const { kid: newKid } = await h.idp.api.rotateKeys();
    expect(newKid).not.toBe(oldKid);
    const jwks = await (await fetch(`${realm}/protocol/openid-connect/certs`)).json() as any;
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    const remote = createRemoteJWKSet(new URL(`${realm}/protocol/openid-connect/certs`));
    await expect(jwtVerify(before.access_token, remote, { issuer: realm })).resolves.toBeTruthy();
    const after = await (await postForm(token, { grant_type: 'password', username: 'alice', password: 'alice', ...cli })).json() as any;
    expect(decodeProtectedHeader(after.access_token).kid).toBe(newKid);
    // The descriptor publishes both certificates, active first... and SAML is signed with the new one.
    const xml = await (await fetch(`${realm}/protocol/saml/descriptor`)).text();
    expect(xml.match(/<md:KeyDescriptor use="signing">/g)).toHaveLength(2);
  });
});
