import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssumeRoleWithSAMLCommand, GetCallerIdentityCommand, type Credentials } from '@aws-sdk/client-sts';
import { SignatureV4 } from '@smithy/signature-v4';
import { HttpRequest } from '@smithy/protocol-http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { awsAttr, signedResponseBase64 } from './testing/saml-signer.js';
import { PROVIDER_ARN, ROLE_ARN, sdkFor, startTestSts, TEST_ISSUER, type TestSts } from './testing/harness.js';

const clock = { offset: 0, now: () => Date.now() + clock.offset };
let sts: TestSts;
let creds: Credentials;
beforeAll(async () => {
  sts = await startTestSts({ clock });
  const out = await sts.sdk.send(
    new AssumeRoleWithSAMLCommand({
      RoleArn: ROLE_ARN,
      PrincipalArn: PROVIDER_ARN,
      SAMLAssertion: signedResponseBase64({ issuer: TEST_ISSUER, attributes: { [awsAttr('Role')]: [`${ROLE_ARN},${PROVIDER_ARN}`], [awsAttr('RoleSessionName')]: ['bob'] } }, sts.key),
      DurationSeconds: 900,
    }),
  );
  creds = out.Credentials!;
});
afterAll(async () => {
  await sts?.close();
});

const who = (c: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) => sdkFor(sts.url, c as never).send(new GetCallerIdentityCommand({}));

async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const e = err as Error & { Code?: string; $metadata: { httpStatusCode?: number } };
    return { code: e.Code ?? e.name, message: e.message, status: e.$metadata.httpStatusCode };
  }
  throw new Error('accepted');
}

describe('GetCallerIdentity with temporary credentials (SigV4 verified)', () => {
  it('the issued credentials prove who the caller is', async () => {
    const me = await who({ accessKeyId: creds.AccessKeyId!, secretAccessKey: creds.SecretAccessKey!, sessionToken: creds.SessionToken! });
    expect(me).toMatchObject({ Arn: 'arn:aws:sts::123456789012:assumed-role/Reader/bob', Account: '123456789012' });
    expect(me.UserId).toMatch(/^AROA[A-Z0-9]{17}:bob$/);
  });

  it('a wrong secret does not match the signature', async () => {
    expect(await rejection(who({ accessKeyId: creds.AccessKeyId!, secretAccessKey: 'x'.repeat(40), sessionToken: creds.SessionToken! }))).toEqual({
      code: 'SignatureDoesNotMatch',
      status: 403,
      message:
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    });
  });

  it('the session token is required', async () => {
    expect(await rejection(who({ accessKeyId: creds.AccessKeyId!, secretAccessKey: creds.SecretAccessKey! }))).toEqual({
      code: 'InvalidClientTokenId',
      status: 403,
      message: 'The security token included in the request is invalid.',
    });
  });

  it('an unknown access key', async () => {
    expect(await rejection(who({ accessKeyId: 'ASIAAAAAAAAAAAAAAAAA', secretAccessKey: creds.SecretAccessKey!, sessionToken: creds.SessionToken! }))).toMatchObject({ code: 'InvalidClientTokenId' });
  });

  it('an unsigned request', async () => {
    const res = await fetch(sts.url + '/', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'Action=GetCallerIdentity&Version=2011-06-15' });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>MissingAuthenticationToken</Code>');
  });

  it('credentials past their expiration are rejected as expired', async () => {
    clock.offset = 901_000;
    try {
      expect(await rejection(who({ accessKeyId: creds.AccessKeyId!, secretAccessKey: creds.SecretAccessKey!, sessionToken: creds.SessionToken! }))).toEqual({
        code: 'ExpiredToken',
        status: 403,
        message: 'The security token included in the request is expired',
      });
    } finally {
      clock.offset = 0;
    }
  });

  /** A presigned GetCallerIdentity URL, as `aws eks get-token` makes one (with the x-k8s-aws-id header signed). */
  async function presignedUrl(over: { secret?: string; expiresIn?: number } = {}) {
    const u = new URL(sts.url);
    const signer = new SignatureV4({
      credentials: { accessKeyId: creds.AccessKeyId!, secretAccessKey: over.secret ?? creds.SecretAccessKey!, sessionToken: creds.SessionToken! },
      region: 'us-east-1',
      service: 'sts',
      sha256: Sha256,
    });
    const req = new HttpRequest({ method: 'GET', protocol: 'http:', hostname: u.hostname, port: Number(u.port), path: '/', query: { Action: 'GetCallerIdentity', Version: '2011-06-15' }, headers: { host: u.host, 'x-k8s-aws-id': 'demo-cluster' } });
    const signed = await signer.presign(req, { expiresIn: over.expiresIn ?? 60 });
    return `${sts.url}/?${new URLSearchParams(signed.query as Record<string, string>).toString()}`;
  }

  it('a presigned URL (query-string SigV4) answers GetCallerIdentity', async () => {
    const res = await fetch(await presignedUrl(), { headers: { 'x-k8s-aws-id': 'demo-cluster' } });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain('<Arn>arn:aws:sts::123456789012:assumed-role/Reader/bob</Arn>');
  });

  it('a presigned URL with a wrong secret, a missing signed header, or past its X-Amz-Expires is refused', async () => {
    const bad = await fetch(await presignedUrl({ secret: 'y'.repeat(40) }), { headers: { 'x-k8s-aws-id': 'demo-cluster' } });
    expect(bad.status).toBe(403);
    expect(await bad.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    const noHeader = await fetch(await presignedUrl());
    expect(noHeader.status).toBe(403);
    const url = await presignedUrl({ expiresIn: 60 });
    clock.offset = 120_000;
    try {
      const late = await fetch(url, { headers: { 'x-k8s-aws-id': 'demo-cluster' } });
      expect(late.status).toBe(403);
      expect(await late.text()).toContain('<Message>Request has expired</Message>');
    } finally {
      clock.offset = 0;
    }
  });
});
