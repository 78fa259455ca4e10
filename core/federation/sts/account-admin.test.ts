import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { AssumeRoleWithSAMLCommand, GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { parseIdpMetadata } from './account/saml-metadata.js';
import { awsAttr, generateSigningKey, idpMetadataXml, signedResponseBase64 } from './testing/saml-signer.js';
import { PROVIDER_ARN, ROLE_ARN, samlTrust, sdkFor, startTestSts, TEST_ISSUER, type TestSts } from './testing/harness.js';

let sts: TestSts;
beforeAll(async () => {
  sts = await startTestSts();
});
afterAll(async () => {
  await sts?.close();
});

const admin = (p: string, method = 'GET', body?: unknown) =>
  fetch(`${sts.url}/loupe/admin${p}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });

describe('the account admin API', () => {
  it('creates a SAML provider from IdP metadata, keeping its entityID and signing certificate', async () => {
    const key = await generateSigningKey('second-idp');
    const res = await admin('/saml-providers', 'POST', { name: 'Second', metadataXml: idpMetadataXml('https://idp.example/second', key) });
    expect(res.status).toBe(201);
    const p = (await res.json()) as { arn: string; entityId: string; certificates: string[] };
    expect(p.arn).toBe('arn:aws:iam::123456789012:saml-provider/Second');
    expect(p.entityId).toBe('https://idp.example/second');
    expect(p.certificates.map((c) => new X509Certificate(c).fingerprint256)).toEqual([new X509Certificate(key.certPem).fingerprint256]);
    expect((await admin('/saml-providers', 'POST', { name: 'Second', metadataXml: idpMetadataXml('x', key) })).status).toBe(409);
    expect((await admin('/saml-providers/Second', 'DELETE')).status).toBe(200);
    expect((await admin('/saml-providers/Second')).status).toBe(404);
  });

  it('refuses metadata that is not SAML metadata, and a DOCTYPE in it', async () => {
    const bad = await admin('/saml-providers', 'POST', { name: 'Bad', metadataXml: '<html/>' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('InvalidInput');
    expect(() => parseIdpMetadata('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&e;"/>')).toThrow(/DOCTYPE/);
  });

  it('creates roles with a trust policy and a maximum session duration, and checks them', async () => {
    const ok = await admin('/roles', 'POST', { name: 'Ops', trustPolicy: samlTrust(), maxSessionDuration: 7200 });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ arn: 'arn:aws:iam::123456789012:role/Ops', maxSessionDuration: 7200, roleId: expect.stringMatching(/^AROA/) });
    expect((await admin('/roles', 'POST', { name: 'Bad', trustPolicy: { Statement: [] } })).status).toBe(400);
    expect((await admin('/roles', 'POST', { name: 'Bad', trustPolicy: samlTrust(), maxSessionDuration: 60 })).status).toBe(400);
    const roles = (await (await admin('/roles')).json()) as { roles: { name: string }[] };
    expect(roles.roles.map((r) => r.name).sort()).toEqual(['Admin', 'Ops', 'Reader']);
  });

  it('answers bad JSON and unknown paths with errors, not crashes', async () => {
    const res = await fetch(`${sts.url}/loupe/admin/roles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(res.status).toBe(400);
    expect((await admin('/nothing')).status).toBe(404);
    expect((await admin('/roles', 'PUT', {})).status).toBe(405);
  });

  it('refuses requests a web page could forge: another Host name, or a body that is not JSON', async () => {
    const port = new URL(sts.url).port;
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/loupe/admin/roles', headers: { host: `evil.example:${port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(rebound).toBe(403);
    const form = await fetch(`${sts.url}/loupe/admin/roles`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ name: 'Csrf', trustPolicy: samlTrust() }) });
    expect(form.status).toBe(415);
    expect(((await (await admin('/roles')).json()) as { roles: { name: string }[] }).roles.map((r) => r.name)).not.toContain('Csrf');
  });

  it('serves the sign-in SAML metadata an IdP imports to register the cloud', async () => {
    const res = await fetch(`${sts.url}/saml-metadata.xml`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain('entityID="urn:amazon:webservices"');
    expect(xml).toContain('Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://signin.aws.amazon.com/saml"');
    expect(xml).toContain('Name="https://aws.amazon.com/SAML/Attributes/Role"');
  });
});

describe('what a user created survives a restart', () => {
  it('providers, roles and issued sessions (with working credentials) come back', async () => {
    const out = await sts.sdk.send(
      new AssumeRoleWithSAMLCommand({
        RoleArn: ROLE_ARN,
        PrincipalArn: PROVIDER_ARN,
        SAMLAssertion: signedResponseBase64({ issuer: TEST_ISSUER, attributes: { [awsAttr('Role')]: [`${ROLE_ARN},${PROVIDER_ARN}`], [awsAttr('RoleSessionName')]: ['carol'] } }, sts.key),
      }),
    );
    const before = (await (await admin('/account')).json()) as unknown;
    await sts.restart();
    expect(await (await admin('/account')).json()).toEqual(before);
    const sessions = (await (await admin('/sessions')).json()) as { sessions: { accessKeyId: string; expiration: string; secretAccessKey?: string }[] };
    const s = sessions.sessions.find((x) => x.accessKeyId === out.Credentials?.AccessKeyId);
    expect(s?.expiration).toBe(out.Credentials!.Expiration!.toISOString().replace('.000Z', 'Z'));
    expect(s?.secretAccessKey).toBeUndefined();
    const c = out.Credentials!;
    const me = await sdkFor(sts.url, { accessKeyId: c.AccessKeyId!, secretAccessKey: c.SecretAccessKey!, sessionToken: c.SessionToken! } as never).send(new GetCallerIdentityCommand({}));
    expect(me.Arn).toContain('assumed-role/Reader/carol');
    // The files hold secrets: owner-only.
    expect(statSync(path.join(sts.dir, 'sessions.jsonl')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(sts.dir, 'account.json')).mode & 0o777).toBe(0o600);
  });
});
