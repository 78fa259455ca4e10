/**
 * parseSamlPost is the one function both capture paths use to read the form body a browser
 * POSTs to the sign-in service; the role parsing follows what real tools accept (either order).
 */
import { describe, it, expect } from 'vitest';
import { parseSamlPost, parseRoleValue, summarizeSamlResponse, SamlPostError } from './post-body.js';
import { buildSamlResponse } from './response.js';

describe('parseSamlPost', () => {
  it('reads SAMLResponse and RelayState from a url-encoded body (+ and = encoded, line-wrapped base64)', () => {
    const b64 = 'PHNhbWxwOlJlc3BvbnNl+/9=';
    const body = `SAMLResponse=${encodeURIComponent(b64.slice(0, 10) + '\r\n' + b64.slice(10))}&RelayState=${encodeURIComponent('https://console.aws.amazon.com/?a=1&b=2')}`;
    expect(parseSamlPost(body)).toEqual({ samlResponse: b64, relayState: 'https://console.aws.amazon.com/?a=1&b=2' });
  });

  it('has no relayState when the form carries none or an empty one', () => {
    expect(parseSamlPost('SAMLResponse=QUJD&RelayState=')).toEqual({ samlResponse: 'QUJD' });
  });

  it('refuses a body without SAMLResponse, or one that is not base64', () => {
    expect(() => parseSamlPost('RelayState=x')).toThrow(SamlPostError);
    expect(() => parseSamlPost('SAMLResponse=')).toThrow('the POST carries no SAMLResponse field');
    expect(() => parseSamlPost('SAMLResponse=%3Cxml%3E')).toThrow('SAMLResponse is not base64');
  });
});

describe('Role attribute values', () => {
  const role = 'arn:aws:iam::123456789012:role/LoupeAdmin';
  const provider = 'arn:aws:iam::123456789012:saml-provider/loupe';
  it('accept role,provider and provider,role', () => {
    expect(parseRoleValue(`${role},${provider}`)).toEqual({ roleArn: role, principalArn: provider });
    expect(parseRoleValue(`${provider}, ${role}`)).toEqual({ roleArn: role, principalArn: provider });
  });
  it('skip values that are not a role/provider pair', () => {
    expect(parseRoleValue(role)).toBeUndefined();
    expect(parseRoleValue(`${role},${role}`)).toBeUndefined();
    expect(parseRoleValue('a,b,c')).toBeUndefined();
  });
  it('work in GovCloud and China partitions', () => {
    expect(parseRoleValue('arn:aws-cn:iam::123456789012:saml-provider/p,arn:aws-cn:iam::123456789012:role/R')).toEqual({ roleArn: 'arn:aws-cn:iam::123456789012:role/R', principalArn: 'arn:aws-cn:iam::123456789012:saml-provider/p' });
  });
});

describe('summarizeSamlResponse', () => {
  it('reads roles under a configured cloud domain and ignores comments inside values', () => {
    const xml = buildSamlResponse({
      issuer: 'https://idp.example/realms/x',
      destination: 'https://signin.example/saml',
      audience: 'urn:example',
      nameId: 'carol',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      now: Date.UTC(2026, 0, 1),
      lifespanSeconds: 60,
      sessionIndex: 's',
      authnInstant: Date.UTC(2026, 0, 1),
      sessionNotOnOrAfter: Date.UTC(2026, 0, 1, 10),
      attributes: [
        { name: 'https://cloud.example/SAML/Attributes/Role', values: ['arn:aws:iam::111111111111:role/A,arn:aws:iam::111111111111:saml-provider/p'] },
        { name: 'https://cloud.example/SAML/Attributes/RoleSessionName', values: ['carol'] },
      ],
    }).xml.replace('<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">carol', '<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">car<!-- x -->ol');
    const s = summarizeSamlResponse(Buffer.from(xml).toString('base64'), 'https://cloud.example');
    expect(s.subject).toBe('carol');
    expect(s.roles).toEqual([{ roleArn: 'arn:aws:iam::111111111111:role/A', principalArn: 'arn:aws:iam::111111111111:saml-provider/p' }]);
    expect(s.notBefore).toBe('2026-01-01T00:00:00.000Z');
    expect(s.notOnOrAfter).toBe('2026-01-01T00:01:00.000Z');
    expect(s.sessionNotOnOrAfter).toBe('2026-01-01T10:00:00.000Z');
    expect(s.responseSigned).toBe(false);
  });

  it('refuses documents with a DOCTYPE and things that are not a SAML Response', () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "y">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&x;</samlp:Response>';
    expect(() => summarizeSamlResponse(Buffer.from(xxe).toString('base64'))).toThrow(/DOCTYPE/);
    expect(() => summarizeSamlResponse(Buffer.from('<a/>').toString('base64'))).toThrow('SAMLResponse is not a samlp:Response');
  });
});
