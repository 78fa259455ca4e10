/**
 * The attacks a SAML verifier must stop (shared/reference/federation.md), each sent through
 * @aws-sdk/client-sts so the test also proves the SDK surfaces AWS's error name and message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssumeRoleWithSAMLCommand } from '@aws-sdk/client-sts';
import { awsAttr, buildResponseXml, generateSigningKey, signXml, type ResponseSpec, type SigningKey } from './testing/saml-signer.js';
import { ADMIN_ROLE_ARN, PROVIDER_ARN, ROLE_ARN, startTestSts, TEST_ISSUER, type TestSts } from './testing/harness.js';

let sts: TestSts;
let foreign: SigningKey;
beforeAll(async () => {
  sts = await startTestSts();
  foreign = await generateSigningKey('someone-else');
});
afterAll(async () => {
  await sts?.close();
});

const spec = (over: Partial<ResponseSpec> = {}, sessionName = 'alice'): ResponseSpec => ({
  issuer: TEST_ISSUER,
  nameId: 'alice',
  attributes: { [awsAttr('Role')]: [`${ROLE_ARN},${PROVIDER_ARN}`], [awsAttr('RoleSessionName')]: [sessionName] },
  ...over,
});
const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
const signed = (over: Partial<ResponseSpec> = {}, what: 'Assertion' | 'Response' = 'Assertion', key?: SigningKey) => signXml(buildResponseXml(spec(over)), key ?? sts.key, what);
const evilAssertion = (id = 'ID_evil') =>
  buildResponseXml(spec({ nameId: 'mallory', assertionId: id, attributes: { [awsAttr('Role')]: [`${ADMIN_ROLE_ARN},${PROVIDER_ARN}`], [awsAttr('RoleSessionName')]: ['mallory'] } })).match(
    /<saml:Assertion[\s\S]*<\/saml:Assertion>/,
  )![0];
const signedAssertionOf = (xml: string) => xml.match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)![0];

async function send(samlAssertion: string, roleArn = ROLE_ARN, extra: { DurationSeconds?: number } = {}) {
  return sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: roleArn, PrincipalArn: PROVIDER_ARN, SAMLAssertion: samlAssertion, ...extra }));
}

async function rejectionOf(samlAssertion: string, roleArn = ROLE_ARN, extra: { DurationSeconds?: number } = {}) {
  try {
    await send(samlAssertion, roleArn, extra);
  } catch (err) {
    const e = err as Error & { $metadata: { httpStatusCode?: number }; Code?: string };
    // `Code` is the wire code; `name` is the SDK's modeled exception class (checked below).
    return { code: e.Code ?? e.name, message: e.message, status: e.$metadata.httpStatusCode, sdkName: e.name };
  }
  throw new Error('the request was accepted');
}

async function rejection(samlAssertion: string, roleArn = ROLE_ARN, extra: { DurationSeconds?: number } = {}) {
  const { sdkName, ...rest } = await rejectionOf(samlAssertion, roleArn, extra);
  expect(sdkName).toBe(SDK_NAMES[rest.code!] ?? rest.code);
  return rest;
}

/** The exception classes @aws-sdk/client-sts models for STS's wire codes. */
const SDK_NAMES: Record<string, string> = {
  InvalidIdentityToken: 'InvalidIdentityTokenException',
  IDPRejectedClaim: 'IDPRejectedClaimException',
  ExpiredTokenException: 'ExpiredTokenException',
};

const XXE = (inner: string) => `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${inner.replace('>alice<', '>&x;<')}`;
const LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>';

describe('signature wrapping is refused', () => {
  it('an unsigned assertion beside the signed one', async () => {
    const xml = signed().replace('<saml:Assertion', `${evilAssertion()}<saml:Assertion`);
    expect(await rejection(b64(xml), ADMIN_ROLE_ARN)).toEqual({ code: 'InvalidIdentityToken', status: 400, message: 'Response signature invalid: the Response holds 2 Assertion elements; exactly one is allowed' });
  });

  it('the signed assertion moved into Extensions while an unsigned one sits where it is read', async () => {
    const orig = signed();
    const moved = orig.replace(signedAssertionOf(orig), evilAssertion()).replace('<samlp:Status>', `<samlp:Extensions>${signedAssertionOf(orig)}</samlp:Extensions><samlp:Status>`);
    const r = await rejection(b64(moved), ADMIN_ROLE_ARN);
    expect(r.code).toBe('InvalidIdentityToken');
    expect(r.message).toMatch(/^Response signature invalid/);
  });

  it('the signed assertion hidden in a ds:Object of a signature on the unsigned assertion', async () => {
    const orig = signed();
    const evil = evilAssertion().replace('</saml:Issuer>', `</saml:Issuer><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:Object>${signedAssertionOf(orig)}</ds:Object></ds:Signature>`);
    const r = await rejection(b64(orig.replace(signedAssertionOf(orig), evil)), ADMIN_ROLE_ARN);
    expect(r.code).toBe('InvalidIdentityToken');
    expect(r.message).toMatch(/^Response signature invalid/);
  });

  it('a new Response wrapping the signed Response', async () => {
    const inner = signed({}, 'Response').replace(/^<\?xml[^>]*>/, '');
    const wrapper = buildResponseXml(spec({ nameId: 'mallory' })).replace(/<saml:Assertion[\s\S]*<\/saml:Assertion>/, evilAssertion()).replace('<samlp:Status>', `<samlp:Extensions>${inner}</samlp:Extensions><samlp:Status>`);
    const r = await rejection(b64(wrapper), ADMIN_ROLE_ARN);
    expect(r.code).toBe('InvalidIdentityToken');
    expect(r.message).toMatch(/^Response signature invalid/);
  });

  it('an unsigned assertion carrying the signed assertion ID', async () => {
    const orig = signed();
    const id = /<saml:Assertion ID="([^"]+)"/.exec(orig)![1]!;
    const xml = orig.replace('</samlp:Status>', `</samlp:Status>${evilAssertion(id)}`);
    const r = await rejection(b64(xml), ADMIN_ROLE_ARN);
    expect(r.code).toBe('InvalidIdentityToken');
    expect(r.message).toMatch(/^Response signature invalid/);
  });
});

describe('signatures that do not hold are refused', () => {
  it('a stripped signature', async () => {
    const xml = signed().replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
    expect(await rejection(b64(xml))).toEqual({ code: 'InvalidIdentityToken', status: 400, message: 'Response signature invalid' });
  });

  it('a signature by a key other than the provider metadata key (even with its cert in KeyInfo)', async () => {
    expect(await rejection(b64(signed({}, 'Assertion', foreign)))).toEqual({ code: 'InvalidIdentityToken', status: 400, message: 'Response signature invalid' });
  });

  it('a value changed after signing', async () => {
    const xml = signed().replace('>alice</saml:NameID>', '>admin</saml:NameID>');
    expect(await rejection(b64(xml))).toEqual({ code: 'InvalidIdentityToken', status: 400, message: 'Response signature invalid' });
  });

  it('a comment inserted into a signed value does not truncate it: the session is named after the whole value', async () => {
    const xml = signXml(buildResponseXml(spec({ nameId: 'alice.evil' }, 'alice.evil')), sts.key, 'Assertion').replace(/>alice\.evil</g, '>alice<!---->.evil<');
    expect(xml.match(/alice<!---->\.evil/g)).toHaveLength(2);
    const out = await send(b64(xml));
    expect(out.Subject).toBe('alice.evil');
    expect(out.AssumedRoleUser?.Arn).toMatch(/assumed-role\/Reader\/alice\.evil$/);
  });

  it('a comment-truncated Role value does not grant the shorter role', async () => {
    const value = `${ADMIN_ROLE_ARN}Evil,${PROVIDER_ARN}`;
    const xml = signXml(buildResponseXml(spec({ attributes: { [awsAttr('Role')]: [value], [awsAttr('RoleSessionName')]: ['alice'] } })), sts.key, 'Assertion').replace(`${ADMIN_ROLE_ARN}Evil`, `${ADMIN_ROLE_ARN}<!---->Evil`);
    expect(await rejection(b64(xml), ADMIN_ROLE_ARN)).toEqual({ code: 'AccessDenied', status: 403, message: 'Not authorized to perform sts:AssumeRoleWithSAML' });
  });
});

describe('unsafe XML is refused before parsing', () => {
  const detail = /^Invalid SAML response: DOCTYPE is not allowed \(Service: AWSOpenIdDiscoveryService; Status Code: 400; Error Code: AuthSamlInvalidSamlResponseException; Request ID: [0-9a-f-]{36}\)$/;
  it('an external entity (XXE)', async () => {
    const r = await rejection(b64(XXE(signed()).replace(/^(<\?xml[^>]*>)(<!DOCTYPE[^\]]*\]>)<\?xml[^>]*>/, '$1$2')));
    expect(r.code).toBe('InvalidIdentityToken');
    expect(r.message).toMatch(detail);
  });

  it('entity expansion (billion laughs)', async () => {
    const r = await rejection(b64(LAUGHS + signed().replace('>alice</saml:NameID>', '>&lol3;</saml:NameID>')));
    expect(r.code).toBe('InvalidIdentityToken');
    expect(r.message).toMatch(detail);
  });
});

describe('assertions for someone else or out of time are refused', () => {
  it('a foreign issuer', async () => {
    const r = await rejection(b64(signed({ issuer: 'https://evil.example/idp' })));
    expect(r.code).toBe('InvalidIdentityToken');
    expect(r.message).toMatch(/^Issuer not present in specified provider \(Service: AWSOpenIdDiscoveryService; Status Code: 400; Error Code: AuthSamlInvalidSamlResponseException; Request ID: /);
  });

  it('a wrong audience', async () => {
    expect(await rejection(b64(signed({ audience: 'https://other.example/sp' })))).toEqual({ code: 'InvalidIdentityToken', status: 400, message: 'Response does not contain the required audience' });
  });

  it('a second AudienceRestriction naming someone else (every restriction must be met)', async () => {
    const xml = signXml(
      buildResponseXml(spec()).replace('</saml:AudienceRestriction>', '</saml:AudienceRestriction><saml:AudienceRestriction><saml:Audience>https://other.example/sp</saml:Audience></saml:AudienceRestriction>'),
      sts.key,
      'Assertion',
    );
    expect(await rejection(b64(xml))).toEqual({ code: 'InvalidIdentityToken', status: 400, message: 'Response does not contain the required audience' });
  });

  it('a wrong recipient', async () => {
    expect(await rejection(b64(signed({ recipient: 'https://evil.example/saml' })))).toEqual({
      code: 'InvalidIdentityToken',
      status: 400,
      message: 'Invalid SAML response: Recipient https://evil.example/saml is not an AWS sign-in endpoint',
    });
  });

  it('a wrong destination', async () => {
    const r = await rejection(b64(signed({ destination: 'https://evil.example/acs', recipient: 'https://signin.aws.amazon.com/saml' }, 'Response')));
    expect(r).toEqual({ code: 'InvalidIdentityToken', status: 400, message: 'Invalid SAML response: Destination https://evil.example/acs is not an AWS sign-in endpoint' });
  });

  it('an expired assertion (never accepted after NotOnOrAfter)', async () => {
    const now = Date.now();
    const r = await rejection(b64(signed({ issueInstant: now - 600_000, notBefore: now - 600_000, notOnOrAfter: now - 1000 })));
    expect(r.code).toBe('ExpiredTokenException');
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^Token expired: current date\/time \S+ must be before the Conditions NotOnOrAfter date\/time \S+$/);
  });

  it('an assertion issued more than 5 minutes ago, though its conditions still hold (AWS wording)', async () => {
    const now = Date.now();
    const r = await rejection(b64(signed({ issueInstant: now - 360_000, notBefore: now - 360_000, notOnOrAfter: now + 600_000 })));
    expect(r).toEqual({ code: 'ExpiredTokenException', status: 400, message: 'Token must be redeemed within 5 minutes of issuance' });
  });

  it('an assertion that is not valid yet', async () => {
    const now = Date.now();
    const r = await rejection(b64(signed({ notBefore: now + 600_000, notOnOrAfter: now + 900_000 })));
    expect(r.code).toBe('InvalidIdentityToken');
    expect(r.message).toMatch(/not yet valid/);
  });

  it('a response whose status is not Success (the IdP rejected the claim)', async () => {
    expect(await rejection(b64(signed({ status: 'urn:oasis:names:tc:SAML:2.0:status:Requester' }, 'Response')))).toEqual({
      code: 'IDPRejectedClaim',
      status: 403,
      message: 'The identity provider did not report a successful login (StatusCode urn:oasis:names:tc:SAML:2.0:status:Requester)',
    });
  });

  it('a role that is not among the assertion Role values', async () => {
    expect(await rejection(b64(signed()), ADMIN_ROLE_ARN)).toEqual({ code: 'AccessDenied', status: 403, message: 'Not authorized to perform sts:AssumeRoleWithSAML' });
  });

  it('DurationSeconds above the role maximum (AWS wording)', async () => {
    expect(await rejection(b64(signed()), ROLE_ARN, { DurationSeconds: 7200 })).toEqual({
      code: 'ValidationError',
      status: 400,
      message: 'The requested DurationSeconds exceeds the MaxSessionDuration set for this role.',
    });
  });
});

describe('the specification error rows', () => {
  it('a missing RoleSessionName mapping is named in the message', async () => {
    const xml = signXml(buildResponseXml(spec({ attributes: { [awsAttr('Role')]: [`${ROLE_ARN},${PROVIDER_ARN}`] } })), sts.key, 'Assertion');
    expect(await rejection(b64(xml))).toEqual({ code: 'InvalidIdentityToken', status: 400, message: 'RoleSessionName is required in AuthnResponse' });
  });

  it('a missing Role mapping is named in the message', async () => {
    const xml = signXml(buildResponseXml(spec({ attributes: { [awsAttr('RoleSessionName')]: ['alice'] } })), sts.key, 'Assertion');
    expect(await rejection(b64(xml))).toEqual({ code: 'InvalidIdentityToken', status: 400, message: 'Role is required in AuthnResponse' });
  });

  it('a RoleSessionName AWS would not accept', async () => {
    const xml = signXml(buildResponseXml(spec({}, 'alice smith')), sts.key, 'Assertion');
    expect(await rejection(b64(xml))).toEqual({ code: 'InvalidIdentityToken', status: 400, message: 'RoleSessionName in AuthnResponse must match [a-zA-Z_0-9+=,.@-]{2,64}' });
  });

  it('a SAMLResponse that is not base64 carries AuthSamlInvalidSamlResponseException', async () => {
    const r = await rejection('this is not base64!!');
    expect(r.code).toBe('InvalidIdentityToken');
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/^Invalid base64 SAMLResponse \(Service: AWSOpenIdDiscoveryService; Status Code: 400; Error Code: AuthSamlInvalidSamlResponseException; Request ID: [0-9a-f-]{36}\)$/);
  });

  it('base64 of something that is not XML is an invalid base64 SAMLResponse too', async () => {
    const r = await rejection(Buffer.from('just some text').toString('base64'));
    expect(r.message).toMatch(/^Invalid base64 SAMLResponse/);
  });

  it('DurationSeconds below 900 is a validation error in AWS wording', async () => {
    expect(await rejection(b64(signed()), ROLE_ARN, { DurationSeconds: 100 })).toEqual({
      code: 'ValidationError',
      status: 400,
      message: "1 validation error detected: Value '100' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900",
    });
  });

  it('a session Policy that is not a policy document', async () => {
    try {
      await sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: b64(signed()), Policy: '{not json' }));
      throw new Error('accepted');
    } catch (err) {
      expect(err).toMatchObject({ name: 'MalformedPolicyDocumentException', Code: 'MalformedPolicyDocument', message: 'Syntax errors in policy.' });
    }
  });

  it('a provider that does not exist', async () => {
    try {
      await sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ROLE_ARN, PrincipalArn: 'arn:aws:iam::123456789012:saml-provider/Nope', SAMLAssertion: b64(signed()) }));
      throw new Error('accepted');
    } catch (err) {
      expect((err as Error & { Code?: string }).Code).toBe('InvalidIdentityToken');
      expect((err as Error).name).toBe('InvalidIdentityTokenException');
      expect((err as Error).message).toMatch(/^Specified provider doesn't exist/);
    }
  });

  it('missing parameters and unknown actions answer STS error XML, and the server stays up', async () => {
    const post = (form: Record<string, string>) => fetch(sts.url + '/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
    const missing = await post({ Action: 'AssumeRoleWithSAML', Version: '2011-06-15', SAMLAssertion: b64(signed()) });
    expect(missing.status).toBe(400);
    const text = await missing.text();
    expect(text).toContain('<Type>Sender</Type>');
    expect(text).toContain('<Code>ValidationError</Code>');
    expect(text).toContain(
      "<Message>2 validation errors detected: Value null at 'roleArn' failed to satisfy constraint: Member must not be null; Value null at 'principalArn' failed to satisfy constraint: Member must not be null</Message>",
    );
    const unknown = await post({ Action: 'DescribeEverything', Version: '2011-06-15' });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('<Code>InvalidAction</Code>');
    const ok = await send(b64(signed()));
    expect(ok.Credentials?.AccessKeyId).toMatch(/^ASIA/);
  });
});
