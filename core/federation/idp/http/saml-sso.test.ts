/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies of the wire under test */
/**
 * SAML over real HTTP against the demo seed: login form → credentials → Keycloak's auto-submit
 * form → a SAMLResponse that the real xmlsec1 accepts, with what AWS's sign-in service reads.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { startHarness, removeDir, postForm, parseAutoPost, loginFormAction, certPemFromDescriptor, xmlsecVerify, submitLogin, authSessionCookieOf, type Harness } from '../testing/harness.js';
import { summarizeSamlResponse, decodeSamlResponse } from '../../saml/post-body.js';

let h: Harness;
let realm: string;

beforeAll(async () => {
  h = await startHarness();
  realm = `${h.idp.url}/realms/federation`;
});
afterAll(async () => {
  await h.close();
  removeDir(h.dir);
});

async function loginAs(username: string, password: string, sso = `${realm}/protocol/saml/clients/cloud`) {
  const page = await fetch(sso);
  expect(page.status).toBe(200);
  const res = await submitLogin(page, { username, password });
  return { res, html: await res.text() };
}

describe('IdP-initiated SSO for the cloud client', () => {
  it('shows a login form whose inputs are named username and password, like Keycloak', async () => {
    const res = await fetch(`${realm}/protocol/saml/clients/cloud`);
    const html = await res.text();
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toMatch(/<input[^>]+name="username"/);
    expect(html).toMatch(/<input[^>]+name="password"[^>]*type="password"/);
    expect(loginFormAction(html)).toMatch(new RegExp(`^${realm}/login-actions/authenticate\\?session_code=[^&]+&execution=[0-9a-f-]{36}&client_id=urn%3Aamazon%3Awebservices&tab_id=[\\w-]+$`));
    expect(authSessionCookieOf(res)).toMatch(/^AUTH_SESSION_ID=[\w-]+$/);
  });

  it('a wrong password shows exactly "Invalid username or password." and no SAMLResponse', async () => {
    const { res, html } = await loginAs('alice', 'nope');
    expect(res.status).toBe(200);
    expect(html).toContain('<span id="input-error" class="kc-feedback-text" aria-live="polite">Invalid username or password.</span>');
    expect(html).not.toContain('SAMLResponse');
    // An unknown user gets the same words: the page does not tell which part was wrong.
    expect((await loginAs('mallory', 'x')).html).toContain('Invalid username or password.');
  });

  it("alice's login POSTs a signed response to AWS's ACS that xmlsec1 verifies (response and assertion signatures)", async () => {
    const { res, html } = await loginAs('alice', 'alice');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^KEYCLOAK_IDENTITY=[^;]+; Version=1; Path=\/realms\/federation\/; Max-Age=36000; HttpOnly; SameSite=Lax$/);
    expect(html).toContain('<BODY Onload="document.forms[0].submit()">');
    const form = parseAutoPost(html);
    expect(form.action).toBe('https://signin.aws.amazon.com/saml');
    const xml = decodeSamlResponse(form.SAMLResponse);
    const cert = certPemFromDescriptor(await (await fetch(`${realm}/protocol/saml/descriptor`)).text());
    const resp = xmlsecVerify(xml, cert, 'response');
    expect(resp.output).toContain('OK');
    expect(resp.ok).toBe(true);
    expect(xmlsecVerify(xml, cert, 'assertion').ok).toBe(true);
    // Tampering with a role value breaks the signature for xmlsec1 too.
    const tampered = xml.replace('role/LoupeReadOnly', 'role/LoupeRoot');
    expect(xmlsecVerify(tampered, cert, 'response').ok).toBe(false);
    expect(xmlsecVerify(tampered, cert, 'assertion').ok).toBe(false);
  });

  it('the assertion carries what AWS checks: issuer, destination, recipient, audience, times and the three attributes', async () => {
    const before = Date.now();
    const { html } = await loginAs('alice', 'alice');
    const xml = decodeSamlResponse(parseAutoPost(html).SAMLResponse);
    const s = summarizeSamlResponse(parseAutoPost(html).SAMLResponse);
    expect(s.issuer).toBe(realm);
    expect(xml).toContain(`<saml:Issuer>${realm}</saml:Issuer>`);
    expect(s.destination).toBe('https://signin.aws.amazon.com/saml');
    expect(s.recipient).toBe('https://signin.aws.amazon.com/saml');
    expect(s.audience).toBe('urn:amazon:webservices');
    expect(s.subject).toBe('alice');
    expect(s.roleSessionName).toBe('alice');
    expect(s.sessionDuration).toBe(3600);
    expect(s.roles.map((r) => r.roleArn)).toEqual(['arn:aws:iam::123456789012:role/LoupeAdmin', 'arn:aws:iam::123456789012:role/LoupeReadOnly']);
    expect(s.attributes['https://aws.amazon.com/SAML/Attributes/Role']).toEqual([
      'arn:aws:iam::123456789012:role/LoupeAdmin,arn:aws:iam::123456789012:saml-provider/loupe',
      'arn:aws:iam::123456789012:role/LoupeReadOnly,arn:aws:iam::123456789012:saml-provider/loupe',
    ]);
    const notBefore = Date.parse(s.notBefore!);
    const notOnOrAfter = Date.parse(s.notOnOrAfter!);
    expect(notBefore).toBeGreaterThanOrEqual(before - 1000);
    // The demo clients give 300 s (assertion lifespan), the realm session 10 h.
    expect(notOnOrAfter - notBefore).toBe(300_000);
    expect(Date.parse(s.sessionNotOnOrAfter!) - notBefore).toBeGreaterThan(35_000_000);
    expect(xml).toMatch(/<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">/);
    expect(xml).toContain('<dsig:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>');
    expect(xml).toContain('<dsig:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>');
  });

  it('every response and assertion has a fresh ID', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const xml = decodeSamlResponse(parseAutoPost((await loginAs('bob', 'bob')).html).SAMLResponse);
      for (const m of xml.matchAll(/ ID="([^"]+)"/g)) ids.add(m[1]!);
    }
    expect(ids.size).toBe(6);
  });

  it('bob only gets the read-only role (through his group)', async () => {
    const s = summarizeSamlResponse(parseAutoPost((await loginAs('bob', 'bob')).html).SAMLResponse);
    expect(s.roles).toEqual([{ roleArn: 'arn:aws:iam::123456789012:role/LoupeReadOnly', principalArn: 'arn:aws:iam::123456789012:saml-provider/loupe' }]);
  });

  it('cloud-no-session-name sends no RoleSessionName attribute', async () => {
    const s = summarizeSamlResponse(parseAutoPost((await loginAs('alice', 'alice', `${realm}/protocol/saml/clients/cloud-no-session-name`)).html).SAMLResponse);
    expect(s.roleSessionName).toBeUndefined();
    expect(s.roles).toHaveLength(2);
    expect(s.sessionDuration).toBe(3600);
  });

  it('with the session cookie the SSO URL answers the auto-submit form at once, carrying RelayState', async () => {
    const { res } = await loginAs('alice', 'alice');
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    const again = await fetch(`${realm}/protocol/saml/clients/cloud?RelayState=${encodeURIComponent('https://console.aws.amazon.com/s3')}`, { headers: { cookie } });
    const form = parseAutoPost(await again.text());
    expect(form.RelayState).toBe('https://console.aws.amazon.com/s3');
    expect(summarizeSamlResponse(form.SAMLResponse).subject).toBe('alice');
  });

  it('a POST to the SSO URL carries RelayState but never credentials (they would be a login CSRF)', async () => {
    const page = await postForm(`${realm}/protocol/saml/clients/cloud`, { username: 'alice', password: 'alice', RelayState: 'r1' });
    const html = await page.text();
    expect(html).toContain('kc-form-login');
    expect(html).not.toContain('SAMLResponse');
    expect(page.headers.getSetCookie().some((c) => c.startsWith('KEYCLOAK_IDENTITY='))).toBe(false);
    const res = await postForm(loginFormAction(html), { username: 'alice', password: 'alice' }, { cookie: authSessionCookieOf(page) });
    expect(parseAutoPost(await res.text()).RelayState).toBe('r1');
  });

  it('the /auth prefix works and puts /auth in the issuer, as older Keycloak did', async () => {
    const { html } = await loginAs('alice', 'alice', `${h.idp.url}/auth/realms/federation/protocol/saml/clients/cloud`);
    expect(summarizeSamlResponse(parseAutoPost(html).SAMLResponse).issuer).toBe(`${h.idp.url}/auth/realms/federation`);
  });

  it('an unknown client URL name is an error page, an unknown realm a 404', async () => {
    const res = await fetch(`${realm}/protocol/saml/clients/nope`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Client not found.');
    const r2 = await fetch(`${h.idp.url}/realms/nope/protocol/saml/clients/cloud`);
    expect(r2.status).toBe(404);
    expect(await r2.json() as any).toEqual({ error: 'Realm does not exist' });
  });
});

describe('the SAML descriptor', () => {
  it("is the realm's IdP metadata with its signing certificate and SSO endpoints", async () => {
    const res = await fetch(`${realm}/protocol/saml/descriptor`);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${realm}"`);
    expect(xml).toContain('<md:KeyDescriptor use="signing">');
    expect(xml).toContain(`<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${realm}/protocol/saml"/>`);
    expect(xml).toContain(`<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${realm}/protocol/saml"/>`);
  });

  it('advertises no SingleLogoutService, since a LogoutRequest is refused', async () => {
    const xml = await (await fetch(`${realm}/protocol/saml/descriptor`)).text();
    expect(xml).not.toContain('SingleLogoutService');
    const logoutRequest = `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_lo1" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>urn:amazon:webservices</saml:Issuer><saml:NameID>alice</saml:NameID></samlp:LogoutRequest>`;
    const res = await fetch(`${realm}/protocol/saml?${new URLSearchParams({ SAMLRequest: deflateRawSync(logoutRequest).toString('base64') })}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Invalid Request');
  });
});

function authnRequest(acs?: string, issuer = 'urn:amazon:webservices', id = '_req1'): string {
  return (
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}"` +
    ` ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"${acs ? ` AssertionConsumerServiceURL="${acs}"` : ''}><saml:Issuer>${issuer}</saml:Issuer></samlp:AuthnRequest>`
  );
}

describe('SP-initiated SSO', () => {
  it('HTTP-Redirect (deflated) AuthnRequest → login → response InResponseTo the request, at the registered ACS', async () => {
    const q = new URLSearchParams({ SAMLRequest: deflateRawSync(authnRequest('https://signin.aws.amazon.com/saml')).toString('base64'), RelayState: 'rs' });
    const page = await fetch(`${realm}/protocol/saml?${q}`);
    const res = await submitLogin(page, { username: 'bob', password: 'bob' });
    const form = parseAutoPost(await res.text());
    expect(form.action).toBe('https://signin.aws.amazon.com/saml');
    expect(form.RelayState).toBe('rs');
    const xml = decodeSamlResponse(form.SAMLResponse);
    expect(xml).toMatch(/<samlp:Response [^>]*InResponseTo="_req1"/);
    expect(xml).toMatch(/<saml:SubjectConfirmationData InResponseTo="_req1"/);
  });

  it('HTTP-POST AuthnRequest works the same way', async () => {
    const page = await postForm(`${realm}/protocol/saml`, { SAMLRequest: Buffer.from(authnRequest(undefined, 'urn:amazon:webservices', '_req2')).toString('base64') });
    const res = await submitLogin(page, { username: 'alice', password: 'alice' });
    expect(decodeSamlResponse(parseAutoPost(await res.text()).SAMLResponse)).toContain('InResponseTo="_req2"');
  });

  it('refuses an AssertionConsumerServiceURL that is not registered for the client', async () => {
    const q = new URLSearchParams({ SAMLRequest: deflateRawSync(authnRequest('https://evil.example/saml')).toString('base64') });
    const res = await fetch(`${realm}/protocol/saml?${q}`);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('Invalid redirect uri.');
    expect(html).not.toContain('kc-form-login');
  });

  it('bounds the work before parsing: a deflate bomb and a request of 19,000 elements get "Invalid Request"', async () => {
    const bomb = authnRequest().replace('</samlp:AuthnRequest>', `${' '.repeat(1 << 20)}</samlp:AuthnRequest>`);
    const deflated = deflateRawSync(bomb).toString('base64');
    expect(deflated.length).toBeLessThan(3000);
    const r1 = await fetch(`${realm}/protocol/saml?${new URLSearchParams({ SAMLRequest: deflated })}`);
    expect(r1.status).toBe(400);
    expect(await r1.text()).toContain('Invalid Request: SAMLRequest inflates to more than 65536 bytes');
    const many = authnRequest().replace('</saml:Issuer>', `</saml:Issuer>${'<e/>'.repeat(19_000)}`);
    const r2 = await postForm(`${realm}/protocol/saml`, { SAMLRequest: Buffer.from(many).toString('base64') });
    expect(r2.status).toBe(400);
    expect(await r2.text()).toContain('Invalid Request: SAMLRequest');
  });

  it('refuses unknown issuers, garbage and DOCTYPEs with an error page, and keeps serving', async () => {
    const unknown = new URLSearchParams({ SAMLRequest: deflateRawSync(authnRequest(undefined, 'urn:someone:else')).toString('base64') });
    expect(await (await fetch(`${realm}/protocol/saml?${unknown}`)).text()).toContain('Unknown login requester.');
    const garbage = await fetch(`${realm}/protocol/saml?SAMLRequest=%%%not-base64`);
    expect(garbage.status).toBe(400);
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${authnRequest()}`;
    const r = await postForm(`${realm}/protocol/saml`, { SAMLRequest: Buffer.from(xxe).toString('base64') });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('Invalid Request');
    expect((await fetch(`${realm}/protocol/saml/descriptor`)).status).toBe(200);
  });
});
