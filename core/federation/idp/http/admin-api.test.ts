/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies of the wire under test */
/**
 * The admin API on Keycloak's paths, used the way Keycloak's is: a master-realm token from the
 * password grant with client admin-cli, then Bearer calls. Builds a realm from nothing and logs
 * into it over SAML.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { startHarness, removeDir, postForm, ssoLogin, parseAutoPost, certPemFromDescriptor, xmlsecVerify, type Harness } from '../testing/harness.js';
import { summarizeSamlResponse, decodeSamlResponse } from '../../saml/post-body.js';
import { awsSigninMetadata } from '../engine.js';

let h: Harness;
let admin: string;
let auth: Record<string, string>;

beforeAll(async () => {
  h = await startHarness();
  const password = readFileSync(path.join(h.dir, 'admin-password'), 'utf8').trim();
  const res = await postForm(`${h.idp.url}/realms/master/protocol/openid-connect/token`, { grant_type: 'password', client_id: 'admin-cli', username: 'admin', password });
  expect(res.status).toBe(200);
  auth = { authorization: `Bearer ${(await res.json() as any).access_token}`, 'content-type': 'application/json' };
  admin = `${h.idp.url}/admin/realms`;
});
afterAll(async () => {
  await h.close();
  removeDir(h.dir);
});

const call = (method: string, url: string, body?: unknown) => fetch(url, { method, headers: auth, ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}) });

describe('admin API protection', () => {
  it('the generated admin password is kept in a 0600 file', () => {
    expect(statSync(path.join(h.dir, 'admin-password')).mode & 0o777).toBe(0o600);
  });

  it('without a token → 401; with a token from another realm (not master) → 401', async () => {
    expect((await fetch(admin)).status).toBe(401);
    const alice = await (await postForm(`${h.idp.url}/realms/federation/protocol/openid-connect/token`, { grant_type: 'password', client_id: 'loupe-cli', client_secret: 'loupe-cli-secret', username: 'alice', password: 'alice' })).json() as any;
    expect((await fetch(admin, { headers: { authorization: `Bearer ${alice.access_token}` } })).status).toBe(401);
  });

  it('a request naming another host (DNS rebinding) is refused even with a token', async () => {
    const port = new URL(h.idp.url).port;
    const status = await new Promise<number>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/admin/realms', headers: { host: `evil.example:${port}`, authorization: auth.authorization } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(status).toBe(403);
  });
});

describe('building a realm through the admin API', () => {
  it('lists the seeded realms and the demo clients with their SAML settings', async () => {
    const realms = await (await call('GET', admin)).json() as any;
    expect(realms.map((r: { realm: string }) => r.realm).sort()).toEqual(['federation', 'master']);
    const clients = await (await call('GET', `${admin}/federation/clients`)).json() as any;
    const cloud = clients.find((c: { attributes?: Record<string, string> }) => c.attributes?.saml_idp_initiated_sso_url_name === 'cloud');
    expect(cloud).toMatchObject({ clientId: 'urn:amazon:webservices', protocol: 'saml', fullScopeAllowed: false, baseUrl: '/realms/federation/protocol/saml/clients/cloud' });
    expect(cloud.attributes).toMatchObject({ saml_assertion_consumer_url_post: 'https://signin.aws.amazon.com/saml', 'saml.signature.algorithm': 'RSA_SHA256' });
    expect(cloud.protocolMappers.map((m: { protocolMapper: string }) => m.protocolMapper)).toEqual(['saml-role-list-mapper', 'saml-user-property-mapper', 'saml-hardcode-attribute-mapper']);
    const noName = clients.find((c: { attributes?: Record<string, string> }) => c.attributes?.saml_idp_initiated_sso_url_name === 'cloud-no-session-name');
    expect(noName.protocolMappers.map((m: { name: string }) => m.name)).toEqual(['Role', 'SessionDuration']);
    const cli = clients.find((c: { clientId: string }) => c.clientId === 'loupe-cli');
    expect(cli).toMatchObject({ protocol: 'openid-connect', publicClient: false, secret: 'loupe-cli-secret', directAccessGrantsEnabled: true });
    expect(clients.find((c: { clientId: string }) => c.clientId === 'loupe-web').directAccessGrantsEnabled).toBe(false);
    const users = await (await call('GET', `${admin}/federation/users`)).json() as any;
    expect(JSON.stringify(users)).not.toMatch(/scrypt|credentials/);
  });

  it('realm, role, group, user, SAML client from metadata and a mapper → a working login with a custom cloud domain', async () => {
    expect((await call('POST', admin, { realm: 'acme', displayName: 'ACME', attributes: { cloudDomain: 'https://cloud.example' } })).status).toBe(201);
    expect((await call('POST', admin, { realm: 'acme' })).status).toBe(409);
    const pair = 'arn:aws:iam::210987654321:role/Dev,arn:aws:iam::210987654321:saml-provider/acme';
    expect((await call('POST', `${admin}/acme/roles`, { name: pair })).status).toBe(201);
    expect((await call('POST', `${admin}/acme/groups`, { name: 'devs' })).status).toBe(201);
    const groups = await (await call('GET', `${admin}/acme/groups`)).json() as any;
    expect((await call('POST', `${admin}/acme/groups/${groups[0].id}/role-mappings/realm`, [{ name: pair }])).status).toBe(204);
    const created = await call('POST', `${admin}/acme/users`, { username: 'Carol', email: 'carol@acme.test', enabled: true, credentials: [{ type: 'password', value: 'c4rol', temporary: false }] });
    expect(created.status).toBe(201);
    const userId = created.headers.get('location')!.split('/').pop()!;
    expect((await call('POST', `${admin}/acme/users`, { username: 'carol' })).status).toBe(409);
    expect((await call('PUT', `${admin}/acme/users/${userId}/groups/${groups[0].id}`)).status).toBe(204);

    // Keycloak's import step: metadata XML → ClientRepresentation.
    const converted = await (await call('POST', `${admin}/acme/client-description-converter`, awsSigninMetadata())).json() as any;
    expect(converted).toMatchObject({ clientId: 'urn:amazon:webservices', protocol: 'saml', redirectUris: ['https://signin.aws.amazon.com/saml'] });
    const reg = await call('POST', `${admin}/acme/clients/from-saml-metadata`, { metadataXml: awsSigninMetadata(), urlName: 'aws', scopeRealmRoles: [pair], cloudMappers: { roleSessionName: false, sessionDuration: 7200 } });
    expect(reg.status).toBe(201);
    const client = await reg.json() as any;
    const mapper = await call('POST', `${admin}/acme/clients/${client.id}/protocol-mappers/models`, {
      name: 'session name from email',
      protocol: 'saml',
      protocolMapper: 'saml-user-property-mapper',
      config: { 'user.attribute': 'email', 'attribute.name': 'https://cloud.example/SAML/Attributes/RoleSessionName', 'attribute.nameformat': 'Basic' },
    });
    expect(mapper.status).toBe(201);
    const mappers = await (await call('GET', `${admin}/acme/clients/${client.id}/protocol-mappers/models`)).json() as any;
    expect(mappers.map((m: { name: string }) => m.name)).toEqual(['Role', 'SessionDuration', 'session name from email']);

    const res = await ssoLogin(`${h.idp.url}/realms/acme/protocol/saml/clients/aws`, { username: 'carol', password: 'c4rol' });
    const s = summarizeSamlResponse(parseAutoPost(await res.text()).SAMLResponse, 'https://cloud.example');
    expect(s.roles).toEqual([{ roleArn: 'arn:aws:iam::210987654321:role/Dev', principalArn: 'arn:aws:iam::210987654321:saml-provider/acme' }]);
    expect(s.roleSessionName).toBe('carol@acme.test');
    expect(s.sessionDuration).toBe(7200);
    expect(s.issuer).toBe(`${h.idp.url}/realms/acme`);
  });

  it('Full Scope Allowed off: a role outside the client scope is not sent', async () => {
    const other = 'arn:aws:iam::210987654321:role/Other,arn:aws:iam::210987654321:saml-provider/acme';
    await call('POST', `${admin}/acme/roles`, { name: other });
    const users = await (await call('GET', `${admin}/acme/users?username=carol&exact=true`)).json() as any;
    expect((await call('POST', `${admin}/acme/users/${users[0].id}/role-mappings/realm`, [{ name: other }])).status).toBe(204);
    const res = await ssoLogin(`${h.idp.url}/realms/acme/protocol/saml/clients/aws`, { username: 'carol', password: 'c4rol' });
    const s = summarizeSamlResponse(parseAutoPost(await res.text()).SAMLResponse, 'https://cloud.example');
    expect(s.roles.map((r) => r.roleArn)).toEqual(['arn:aws:iam::210987654321:role/Dev']);
  });

  it('bad input gets a clear 4xx and nothing changes', async () => {
    const bad = await call('POST', `${admin}/acme/users`, '{"username":');
    expect(bad.status).toBe(400);
    expect(await bad.json() as any).toEqual({ errorMessage: 'Cannot parse the JSON' });
    const noAcs = await call('POST', `${admin}/acme/clients/from-saml-metadata`, { metadataXml: '<x/>', urlName: 'y' });
    expect(noAcs.status).toBe(400);
    expect((await noAcs.json() as any).errorMessage).toMatch(/^Could not read the SAML metadata/);
    const missing = await call('GET', `${admin}/nope/users`);
    expect(missing.status).toBe(404);
    expect((await call('GET', `${admin}/acme/users`)).status).toBe(200);
  });

  it('PUT on a SAML client changes its signing: assertion-only signatures still verify with xmlsec1', async () => {
    const clients = await (await call('GET', `${admin}/federation/clients?clientId=urn:amazon:webservices`)).json() as any;
    const cloud = clients.find((c: any) => c.attributes.saml_idp_initiated_sso_url_name === 'cloud-no-session-name');
    expect((await call('PUT', `${admin}/federation/clients/${cloud.id}`, { attributes: { 'saml.server.signature': 'false', 'saml.assertion.signature': 'true' } })).status).toBe(204);
    const after = await (await call('GET', `${admin}/federation/clients/${cloud.id}`)).json() as any;
    expect(after.attributes).toMatchObject({ 'saml.server.signature': 'false', 'saml.assertion.signature': 'true', saml_idp_initiated_sso_url_name: 'cloud-no-session-name' });
    expect(after.redirectUris).toEqual(['https://signin.aws.amazon.com/saml']);
    const res = await ssoLogin(`${h.idp.url}/realms/federation/protocol/saml/clients/cloud-no-session-name`, { username: 'alice', password: 'alice' });
    const form = parseAutoPost(await res.text());
    const s = summarizeSamlResponse(form.SAMLResponse);
    expect([s.responseSigned, s.assertionSigned]).toEqual([false, true]);
    const cert = certPemFromDescriptor(await (await fetch(`${h.idp.url}/realms/federation/protocol/saml/descriptor`)).text());
    expect(xmlsecVerify(decodeSamlResponse(form.SAMLResponse), cert, 'assertion').ok).toBe(true);
  });

  it('the in-process admin API does the same as the HTTP one', async () => {
    const api = h.idp.api.admin;
    await api.createRealm({ realm: 'inproc' });
    await api.createRole('inproc', { name: 'r1' });
    const u = await api.createUser('inproc', { username: 'dave', password: 'd', realmRoles: ['r1'] });
    expect(u).toMatchObject({ username: 'dave', realmRoles: ['r1'], hasPassword: true });
    const c = await api.createClient('inproc', { clientId: 'app', protocol: 'openid-connect', secret: 's3', directAccessGrantsEnabled: true });
    expect(c).toMatchObject({ clientId: 'app', secret: 's3', directAccessGrantsEnabled: true });
    const t = await postForm(`${h.idp.url}/realms/inproc/protocol/openid-connect/token`, { grant_type: 'password', client_id: 'app', client_secret: 's3', username: 'dave', password: 'd' });
    expect(t.status).toBe(200);
    await expect(api.createUser('inproc', { username: 'DAVE' })).rejects.toThrow('User exists with same username');
  });

  it('a disabled user: Keycloak\'s "Account disabled" to the right password only, and the login page says so', async () => {
    const [bob] = await (await call('GET', `${admin}/federation/users?username=bob&exact=true`)).json() as any;
    expect((await call('PUT', `${admin}/federation/users/${bob.id}`, { enabled: false })).status).toBe(204);
    const token = `${h.idp.url}/realms/federation/protocol/openid-connect/token`;
    const cli = { grant_type: 'password', client_id: 'loupe-cli', client_secret: 'loupe-cli-secret', username: 'bob' };
    const right = await postForm(token, { ...cli, password: 'bob' });
    expect(right.status).toBe(400);
    expect(await right.json() as any).toEqual({ error: 'invalid_grant', error_description: 'Account disabled' });
    const wrong = await postForm(token, { ...cli, password: 'nope' });
    expect(await wrong.json() as any).toEqual({ error: 'invalid_grant', error_description: 'Invalid user credentials' });
    const page = await (await ssoLogin(`${h.idp.url}/realms/federation/protocol/saml/clients/cloud`, { username: 'bob', password: 'bob' })).text();
    expect(page).toContain('Account is disabled, contact your administrator.');
    expect(page).not.toContain('SAMLResponse');
    expect((await call('PUT', `${admin}/federation/users/${bob.id}`, { enabled: true })).status).toBe(204);
    expect((await postForm(token, { ...cli, password: 'bob' })).status).toBe(200);
  });

  it('the root page links every realm and its SSO URLs', async () => {
    const html = await (await fetch(`${h.idp.url}/`)).text();
    expect(html).toContain(`${h.idp.url}/realms/federation/protocol/saml/clients/cloud`);
    expect(html).toContain(`${h.idp.url}/realms/federation/protocol/saml/descriptor`);
  });

  it('passwords can be reset and clients deleted', async () => {
    const users = await (await call('GET', `${admin}/acme/users?username=carol`)).json() as any;
    expect((await call('PUT', `${admin}/acme/users/${users[0].id}/reset-password`, { type: 'password', value: 'n3w', temporary: false })).status).toBe(204);
    const ok = await ssoLogin(`${h.idp.url}/realms/acme/protocol/saml/clients/aws`, { username: 'carol', password: 'n3w' });
    expect(await ok.text()).toContain('SAMLResponse');
    const clients = await (await call('GET', `${admin}/acme/clients?clientId=urn:amazon:webservices`)).json() as any;
    expect((await call('DELETE', `${admin}/acme/clients/${clients[0].id}`)).status).toBe(204);
    expect((await fetch(`${h.idp.url}/realms/acme/protocol/saml/clients/aws`)).status).toBe(400);
  });
});
