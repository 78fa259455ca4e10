/**
 * Interop with what other IdPs send, checked against the real xmlsec1: a Response signed with
 * inclusive C14N, a document in ISO-8859-1 (declared), and an oversized request answered in STS
 * error XML.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssumeRoleWithSAMLCommand } from '@aws-sdk/client-sts';
import { awsAttr, buildResponseXml } from './testing/saml-signer.js';
import { PROVIDER_ARN, ROLE_ARN, startTestSts, TEST_ISSUER, type TestSts } from './testing/harness.js';
import { xmlsecSignResponse, C14N_INCLUSIVE } from './testing/xmlsec-sign.js';
import { xmlsecVerify } from '../idp/testing/harness.js';

let sts: TestSts;
beforeAll(async () => {
  sts = await startTestSts();
});
afterAll(async () => {
  await sts?.close();
});

const attributes = (name: string) => ({ [awsAttr('Role')]: [`${ROLE_ARN},${PROVIDER_ARN}`], [awsAttr('RoleSessionName')]: [name] });
const assume = (b64: string) => sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: b64 }));

describe('SAML interop', () => {
  it('a Response signed by xmlsec1 with inclusive C14N is accepted (xmlsec1 verifies it too)', async () => {
    const xml = buildResponseXml({ issuer: TEST_ISSUER, nameId: 'alice', responseId: 'ID_incl', attributes: attributes('alice') });
    const signed = xmlsecSignResponse(Buffer.from(xml, 'utf8'), sts.key.privateKeyPem, 'ID_incl', C14N_INCLUSIVE).toString('utf8');
    expect(signed).toContain(`Algorithm="${C14N_INCLUSIVE}"`);
    expect(xmlsecVerify(signed, sts.key.certPem, 'response').ok).toBe(true);
    const out = await assume(Buffer.from(signed, 'utf8').toString('base64'));
    expect(out.AssumedRoleUser?.Arn).toBe('arn:aws:sts::123456789012:assumed-role/Reader/alice');
  });

  it('an Assertion signed by xmlsec1 with inclusive C14N (its ancestors\' namespaces in the signed bytes) is accepted', async () => {
    const xml = buildResponseXml({ issuer: TEST_ISSUER, nameId: 'alice', assertionId: 'ID_incl_a', attributes: attributes('alice') });
    const signed = xmlsecSignResponse(Buffer.from(xml, 'utf8'), sts.key.privateKeyPem, 'ID_incl_a', C14N_INCLUSIVE, 'Assertion').toString('utf8');
    expect(xmlsecVerify(signed, sts.key.certPem, 'assertion').ok).toBe(true);
    const out = await assume(Buffer.from(signed, 'utf8').toString('base64'));
    expect(out.AssumedRoleUser?.Arn).toBe('arn:aws:sts::123456789012:assumed-role/Reader/alice');
  });

  it('a validly signed ISO-8859-1 document is read in its declared encoding', async () => {
    const xml = `<?xml version="1.0" encoding="ISO-8859-1"?>\n` + buildResponseXml({ issuer: TEST_ISSUER, nameId: 'Zoë Ångström', responseId: 'ID_latin1', attributes: attributes('zoe') });
    const signed = xmlsecSignResponse(Buffer.from(xml, 'latin1'), sts.key.privateKeyPem, 'ID_latin1', C14N_INCLUSIVE);
    // The bytes are Latin-1: ë is one byte 0xEB, not UTF-8's two.
    expect(signed.includes(Buffer.from([0x5a, 0x6f, 0xeb]))).toBe(true);
    const out = await assume(signed.toString('base64'));
    expect(out.Subject).toBe('Zoë Ångström');
  });

  it('a 10 MB request gets STS error XML, and the service keeps answering', async () => {
    const body = `Action=AssumeRoleWithSAML&Version=2011-06-15&RoleArn=${encodeURIComponent(ROLE_ARN)}&PrincipalArn=${encodeURIComponent(PROVIDER_ARN)}&SAMLAssertion=${'A'.repeat(10 * 1024 * 1024)}`;
    const res = await fetch(sts.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const text = await res.text();
    expect(text.replace(/\s*\n\s*/g, '')).toMatch(/^<ErrorResponse xmlns="https:\/\/sts\.amazonaws\.com\/doc\/2011-06-15\/"><Error><Type>Sender<\/Type><Code>RequestEntityTooLarge<\/Code><Message>[^<]+<\/Message><\/Error><RequestId>[0-9a-f-]{36}<\/RequestId><\/ErrorResponse>$/);
    const small = buildResponseXml({ issuer: TEST_ISSUER, nameId: 'alice', responseId: 'ID_after', attributes: attributes('alice') });
    const out = await assume(xmlsecSignResponse(Buffer.from(small, 'utf8'), sts.key.privateKeyPem, 'ID_after').toString('base64'));
    expect(out.AssumedRoleUser).toBeDefined();
  });
});
