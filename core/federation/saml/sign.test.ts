/**
 * Each client signing setting (response only, assertion only, both) yields signatures the real
 * xmlsec1 accepts; the layout is the SAML schema's (Signature right after Issuer).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { generateKeyAndCert } from '../oidc/certificates.js';
import { xmlsecVerify } from '../idp/testing/harness.js';
import { buildSamlResponse } from './response.js';
import { signSamlResponse } from './sign.js';

let key: { privateKeyPem: string; certPem: string };
let other: { privateKeyPem: string; certPem: string };
beforeAll(async () => {
  key = await generateKeyAndCert({ commonName: 'test-idp' });
  other = await generateKeyAndCert({ commonName: 'someone-else' });
});

const unsigned = () =>
  buildSamlResponse({
    issuer: 'http://127.0.0.1:8080/realms/federation',
    destination: 'https://signin.aws.amazon.com/saml',
    audience: 'urn:amazon:webservices',
    nameId: 'alice',
    nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    now: Date.now(),
    lifespanSeconds: 60,
    sessionIndex: 's1',
    authnInstant: Date.now(),
    sessionNotOnOrAfter: Date.now() + 36_000_000,
    attributes: [{ name: 'https://aws.amazon.com/SAML/Attributes/RoleSessionName', values: ['alice & <co>'] }],
  }).xml;

describe('SAML signing', () => {
  it('response only: xmlsec1 verifies the response signature; the assertion has none', () => {
    const xml = signSamlResponse(unsigned(), key, { response: true, assertion: false });
    expect(xml).toMatch(/<samlp:Response [^>]+><saml:Issuer>[^<]+<\/saml:Issuer><dsig:Signature /);
    expect(xml.match(/<dsig:Signature /g)).toHaveLength(1);
    expect(xmlsecVerify(xml, key.certPem, 'response').ok).toBe(true);
  });

  it('assertion only: xmlsec1 verifies the assertion signature', () => {
    const xml = signSamlResponse(unsigned(), key, { response: false, assertion: true });
    expect(xml).toMatch(/<saml:Assertion [^>]+><saml:Issuer>[^<]+<\/saml:Issuer><dsig:Signature /);
    expect(xmlsecVerify(xml, key.certPem, 'assertion').ok).toBe(true);
  });

  it('both: each signature verifies, and escaped attribute values survive canonicalization', () => {
    const xml = signSamlResponse(unsigned(), key, { response: true, assertion: true });
    expect(xml).toContain('alice &amp; &lt;co&gt;');
    expect(xmlsecVerify(xml, key.certPem, 'response').ok).toBe(true);
    expect(xmlsecVerify(xml, key.certPem, 'assertion').ok).toBe(true);
  });

  it("xmlsec1 refuses the signature with another key's certificate", () => {
    const xml = signSamlResponse(unsigned(), key, { response: true, assertion: false });
    expect(xmlsecVerify(xml, other.certPem, 'response').ok).toBe(false);
  });
});
