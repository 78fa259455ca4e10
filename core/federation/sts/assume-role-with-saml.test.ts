import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { AssumeRoleWithSAMLCommand, GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { awsAttr, signedResponseBase64, type ResponseSpec } from './testing/saml-signer.js';
import { ACCOUNT, ADMIN_ROLE_ARN, PROVIDER_ARN, ROLE_ARN, sdkFor, startTestSts, TEST_ISSUER, type TestSts } from './testing/harness.js';

let sts: TestSts;
beforeAll(async () => {
  sts = await startTestSts();
});
afterAll(async () => {
  await sts?.close();
});

const spec = (over: Partial<ResponseSpec> = {}): ResponseSpec => ({
  issuer: TEST_ISSUER,
  nameId: 'alice',
  attributes: {
    [awsAttr('Role')]: [`${ROLE_ARN},${PROVIDER_ARN}`, `${PROVIDER_ARN},${ADMIN_ROLE_ARN}`],
    [awsAttr('RoleSessionName')]: ['alice'],
    [awsAttr('SessionDuration')]: ['1800'],
  },
  ...over,
});

describe('AssumeRoleWithSAML through @aws-sdk/client-sts', () => {
  it('a signed assertion naming the role gives ASIA credentials and the assumed-role ARN', async () => {
    const before = Date.now();
    const out = await sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: signedResponseBase64(spec(), sts.key) }));
    const after = Date.now();
    expect(out.Credentials?.AccessKeyId).toMatch(/^ASIA[A-Z2-7]{16}$/);
    expect(out.Credentials?.SecretAccessKey).toHaveLength(40);
    expect(out.Credentials?.SessionToken?.length).toBeGreaterThan(100);
    // SessionDuration 1800 from the assertion applies when DurationSeconds is absent, counted
    // from when the service answered (the first SAML request also starts its reading thread).
    const expires = out.Credentials!.Expiration!.getTime();
    expect(expires - before).toBeGreaterThan(1795_000);
    expect(expires - after).toBeLessThanOrEqual(1801_000);
    expect(out.AssumedRoleUser?.Arn).toBe(`arn:aws:sts::${ACCOUNT}:assumed-role/Reader/alice`);
    expect(out.AssumedRoleUser?.AssumedRoleId).toMatch(/^AROA[A-Z0-9]{17}:alice$/);
    expect(out.Subject).toBe('alice');
    expect(out.SubjectType).toBe('persistent');
    expect(out.Issuer).toBe(TEST_ISSUER);
    expect(out.Audience).toBe('https://signin.aws.amazon.com/saml');
    // AWS documents NameQualifier as BASE64(SHA1(issuer + account id + "/" + provider name)).
    expect(out.NameQualifier).toBe(createHash('sha1').update(`${TEST_ISSUER}${ACCOUNT}/TestIdP`).digest('base64'));
    expect(out.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts the role/provider pair in either order and DurationSeconds within the role maximum', async () => {
    const before = Date.now();
    const out = await sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ADMIN_ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: signedResponseBase64(spec(), sts.key), DurationSeconds: 7200 }));
    const ttl = out.Credentials!.Expiration!.getTime() - before;
    expect(ttl).toBeGreaterThan(7195_000);
    expect(out.AssumedRoleUser?.Arn).toBe(`arn:aws:sts::${ACCOUNT}:assumed-role/Admin/alice`);
  });

  it('a response signed at the Response level (not the assertion) is accepted too', async () => {
    const out = await sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: signedResponseBase64(spec(), sts.key, 'Response') }));
    expect(out.AssumedRoleUser?.Arn).toContain('assumed-role/Reader/alice');
  });

  it('the same assertion may be presented again while it is valid (saml2aws caches it)', async () => {
    const assertion = signedResponseBase64(spec(), sts.key, 'both');
    const a = await sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: assertion }));
    const b = await sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: assertion }));
    expect(a.Credentials?.AccessKeyId).not.toBe(b.Credentials?.AccessKeyId);
  });

  it('SessionNotOnOrAfter shortens the session', async () => {
    const before = Date.now();
    const out = await sts.sdk.send(
      new AssumeRoleWithSAMLCommand({ RoleArn: ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: signedResponseBase64(spec({ sessionNotOnOrAfter: before + 1000_000 }), sts.key) }),
    );
    const ttl = out.Credentials!.Expiration!.getTime() - before;
    expect(ttl).toBeLessThanOrEqual(1000_000);
    expect(ttl).toBeGreaterThan(990_000);
  });

  it('GetCallerIdentity signed with the returned credentials names the assumed role', async () => {
    const out = await sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: signedResponseBase64(spec(), sts.key) }));
    const c = out.Credentials!;
    const me = await sdkFor(sts.url, { accessKeyId: c.AccessKeyId!, secretAccessKey: c.SecretAccessKey!, sessionToken: c.SessionToken! } as never).send(new GetCallerIdentityCommand({}));
    expect(me.Arn).toBe(`arn:aws:sts::${ACCOUNT}:assumed-role/Reader/alice`);
    expect(me.Account).toBe(ACCOUNT);
    expect(me.UserId).toBe(out.AssumedRoleUser?.AssumedRoleId);
  });

  it('answers the exact STS XML with the request id header', async () => {
    const body = new URLSearchParams({ Action: 'AssumeRoleWithSAML', Version: '2011-06-15', RoleArn: ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: signedResponseBase64(spec(), sts.key) });
    const res = await fetch(sts.url + '/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/xml');
    const text = await res.text();
    expect(text).toMatch(/^<AssumeRoleWithSAMLResponse xmlns="https:\/\/sts\.amazonaws\.com\/doc\/2011-06-15\/">\n {2}<AssumeRoleWithSAMLResult>\n {4}<Credentials>\n {6}<AccessKeyId>ASIA/);
    expect(text).toMatch(/<Expiration>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/Expiration>/);
    expect(text).toContain(`<RequestId>${res.headers.get('x-amzn-requestid')}</RequestId>`);
    // GET with a query string works as on AWS.
    const get = await fetch(`${sts.url}/?${body.toString()}`);
    expect(get.status).toBe(200);
  });
});
