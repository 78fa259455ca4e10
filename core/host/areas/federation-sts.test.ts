/**
 * The federation STS contract methods against a real embedded token service: the calls go
 * through @aws-sdk/client-sts to the service URL, errors keep STS's code and message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../common/log.js';
import type { ServiceHandle, ServiceName } from '../../common/service.js';
import type { HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { MethodName, Params, Result } from '../contract.js';
import { federationStsArea } from './federation-sts.js';
import { startTestSts, PROVIDER_ARN, ROLE_ARN, TEST_ISSUER, type TestSts } from '../../federation/sts/testing/harness.js';
import { awsAttr, generateSigningKey, idpMetadataXml, signedResponseBase64 } from '../../federation/sts/testing/saml-signer.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../../common/http.js';

let sts: TestSts;
let rt: HostRuntime;
beforeAll(async () => {
  sts = await startTestSts();
  rt = {
    handle: <Api,>(name: ServiceName) => (name === 'sts' ? (sts.handle as unknown as ServiceHandle<Api>) : undefined),
    urlOf: (name) => (name === 'sts' ? sts.url : 'http://127.0.0.1:1'),
    emit: () => {},
    dataDir: sts.dir,
    log: silentLogger,
  };
});
afterAll(async () => {
  await sts?.close();
});

async function call<M extends keyof typeof federationStsArea & MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
  const spec = federationStsArea[method];
  return (await spec.handler(spec.params.parse(params) as never, rt)) as Result<M>;
}

const assertion = (session = 'alice') => signedResponseBase64({ issuer: TEST_ISSUER, attributes: { [awsAttr('Role')]: [`${ROLE_ARN},${PROVIDER_ARN}`], [awsAttr('RoleSessionName')]: [session] } }, sts.key);

describe('federation STS contract', () => {
  it('lists the account with providers, roles and what each role trusts', async () => {
    const a = await call('federation.stsAccount', {});
    expect(a).toMatchObject({ accountId: '123456789012', endpoint: sts.url, signinMetadataUrl: `${sts.url}/saml-metadata.xml`, seedPending: [] });
    expect(a.samlProviders).toEqual([expect.objectContaining({ arn: PROVIDER_ARN, entityId: TEST_ISSUER, certificateFingerprints: [expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)] })]);
    expect(a.roles.find((r) => r.arn === ROLE_ARN)).toMatchObject({ maxSessionDuration: 3600, trustedProviders: [{ providerArn: PROVIDER_ARN, action: 'sts:AssumeRoleWithSAML' }] });
  });

  it('assumes a role with a SAML response, proves it with GetCallerIdentity, and lists the session', async () => {
    const r = await call('federation.assumeRoleWithSaml', { samlResponse: assertion(), roleArn: ROLE_ARN, principalArn: PROVIDER_ARN, durationSeconds: 900 });
    expect(r.credentials.accessKeyId).toMatch(/^ASIA/);
    expect(r.credentials.expiration).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(r).toMatchObject({ assumedRoleUser: { arn: 'arn:aws:sts::123456789012:assumed-role/Reader/alice' }, issuer: TEST_ISSUER, subjectType: 'persistent' });
    const me = await call('federation.callerIdentity', { credentials: r.credentials });
    expect(me).toEqual({ arn: 'arn:aws:sts::123456789012:assumed-role/Reader/alice', userId: r.assumedRoleUser.assumedRoleId, account: '123456789012' });
    const sessions = await call('federation.stsSessions', {});
    expect(sessions[0]).toMatchObject({ accessKeyId: r.credentials.accessKeyId, expired: false, via: 'AssumeRoleWithSAML' });
    expect(sessions[0]!.remainingSeconds).toBeGreaterThan(880);
    expect(sessions[0]).not.toHaveProperty('secretAccessKey');
  });

  it('STS errors reach the UI with their code and message', async () => {
    const err = await call('federation.assumeRoleWithSaml', { samlResponse: assertion(), roleArn: ROLE_ARN, principalArn: PROVIDER_ARN, durationSeconds: 7200 }).catch((e) => e);
    expect(err).toBeInstanceOf(HostCallError);
    expect(err.message).toBe('ValidationError: The requested DurationSeconds exceeds the MaxSessionDuration set for this role.');
    expect(err.detail).toMatchObject({ Code: 'ValidationError', httpStatusCode: 400 });
  });

  it('writes the credentials as a profile (0600), credential_process JSON or env lines', async () => {
    const r = await call('federation.assumeRoleWithSaml', { samlResponse: assertion('writer'), roleArn: ROLE_ARN, principalArn: PROVIDER_ARN });
    const file = path.join(sts.dir, 'home', '.aws', 'credentials');
    expect(await call('federation.writeCredentials', { credentials: r.credentials, target: { kind: 'profile', profile: 'loupe', file } })).toEqual({ file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(`aws_session_token = ${r.credentials.sessionToken}`);
    const cp = await call('federation.writeCredentials', { credentials: r.credentials, target: { kind: 'credential_process' } });
    expect(JSON.parse(cp.text!)).toEqual({ Version: 1, AccessKeyId: r.credentials.accessKeyId, SecretAccessKey: r.credentials.secretAccessKey, SessionToken: r.credentials.sessionToken, Expiration: r.credentials.expiration });
    const env = await call('federation.writeCredentials', { credentials: r.credentials, target: { kind: 'env' } });
    expect(env.text).toContain(`export AWS_CREDENTIAL_EXPIRATION='${r.credentials.expiration}'`);
  });

  it('creates a SAML provider from a metadata URL, a role trusting it, and deletes both', async () => {
    const key = await generateSigningKey('ui-idp');
    const server = http.createServer((_req, res) => res.end(idpMetadataXml('https://idp.example/ui', key)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/descriptor`;
      const p = await call('federation.stsCreateSamlProvider', { name: 'FromUi', metadataUrl: url });
      expect(p).toMatchObject({ arn: 'arn:aws:iam::123456789012:saml-provider/FromUi', entityId: 'https://idp.example/ui' });
      const dup = await call('federation.stsCreateSamlProvider', { name: 'FromUi', metadataUrl: url }).catch((e) => e);
      expect(dup).toBeInstanceOf(HostCallError);
      expect(dup.detail).toMatchObject({ Code: 'EntityAlreadyExists' });
      const role = await call('federation.stsCreateRole', {
        name: 'UiRole',
        maxSessionDuration: 7200,
        trustPolicy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Federated: p.arn }, Action: 'sts:AssumeRoleWithSAML' }] },
      });
      expect(role.trustedProviders).toEqual([{ providerArn: p.arn, action: 'sts:AssumeRoleWithSAML' }]);
      await call('federation.stsDelete', { kind: 'role', arn: role.arn });
      await call('federation.stsDelete', { kind: 'samlProvider', arn: p.arn });
      const a = await call('federation.stsAccount', {});
      expect(a.roles.map((r) => r.name)).not.toContain('UiRole');
      expect(a.samlProviders.map((x) => x.name)).not.toContain('FromUi');
    } finally {
      await closeServer(server);
    }
  });
});

describe('the region calls are signed for', () => {
  it('is the one a regional AWS endpoint names, else us-east-1', async () => {
    const { stsRegion } = await import('./federation-sts.js');
    expect(stsRegion('https://sts.eu-west-1.amazonaws.com')).toBe('eu-west-1');
    expect(stsRegion('https://sts.us-gov-west-1.amazonaws.com')).toBe('us-gov-west-1');
    expect(stsRegion('https://sts.cn-north-1.amazonaws.com.cn')).toBe('cn-north-1');
    expect(stsRegion('https://sts.amazonaws.com')).toBe('us-east-1');
    expect(stsRegion('http://127.0.0.1:8090')).toBe('us-east-1');
  });
});
