import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssumeRoleWithWebIdentityCommand, GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { startTestIssuer, type TestIssuer } from './testing/oidc-issuer.js';
import { ACCOUNT, ROLE_ARN, sdkFor, startTestSts, type TestSts } from './testing/harness.js';

let sts: TestSts;
let idp: TestIssuer;
let other: TestIssuer;
let providerArn: string;
const WEB_ROLE = `arn:aws:iam::${ACCOUNT}:role/WebReader`;

beforeAll(async () => {
  sts = await startTestSts();
  idp = await startTestIssuer();
  other = await startTestIssuer();
  const res = await fetch(`${sts.url}/loupe/admin/oidc-providers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: idp.issuer, clientIds: ['loupe-cli'], thumbprints: [idp.thumbprint] }),
  });
  expect(res.status).toBe(201);
  providerArn = ((await res.json()) as { arn: string }).arn;
  const id = idp.issuer.replace('https://', '');
  const role = await fetch(`${sts.url}/loupe/admin/roles`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'WebReader',
      maxSessionDuration: 3600,
      trustPolicy: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Federated: providerArn }, Action: 'sts:AssumeRoleWithWebIdentity', Condition: { StringEquals: { [`${id}:aud`]: 'loupe-cli' } } }],
      },
    }),
  });
  expect(role.status).toBe(201);
});
afterAll(async () => {
  await sts?.close();
  await idp?.close();
  await other?.close();
});

const assume = (token: string, over: Partial<{ RoleArn: string; RoleSessionName: string; DurationSeconds: number }> = {}) =>
  sts.sdk.send(new AssumeRoleWithWebIdentityCommand({ RoleArn: WEB_ROLE, RoleSessionName: 'alice', WebIdentityToken: token, ...over }));

async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const e = err as Error & { Code?: string; $metadata: { httpStatusCode?: number } };
    return { code: e.Code ?? e.name, sdkName: e.name, message: e.message, status: e.$metadata.httpStatusCode };
  }
  throw new Error('accepted');
}

describe('AssumeRoleWithWebIdentity through @aws-sdk/client-sts', () => {
  it('the provider was created with the thumbprint of the certificate the issuer presents', async () => {
    const list = (await (await fetch(`${sts.url}/loupe/admin/oidc-providers`)).json()) as { oidcProviders: { arn: string; thumbprints: string[] }[] };
    expect(list.oidcProviders).toEqual([expect.objectContaining({ arn: `arn:aws:iam::${ACCOUNT}:oidc-provider/${idp.issuer.slice(8)}`, thumbprints: [idp.thumbprint] })]);
  });

  it('a Keycloak-style access token (aud "account", azp = client) gives credentials for the role', async () => {
    const token = await idp.sign({ sub: 'user-1', aud: 'account', azp: 'loupe-cli', preferred_username: 'alice' });
    const out = await assume(token);
    expect(out.Credentials?.AccessKeyId).toMatch(/^ASIA/);
    expect(out.AssumedRoleUser?.Arn).toBe(`arn:aws:sts::${ACCOUNT}:assumed-role/WebReader/alice`);
    expect(out.SubjectFromWebIdentityToken).toBe('user-1');
    expect(out.Provider).toBe(providerArn);
    expect(out.Audience).toBe('loupe-cli');
    const c = out.Credentials!;
    const me = await sdkFor(sts.url, { accessKeyId: c.AccessKeyId!, secretAccessKey: c.SecretAccessKey!, sessionToken: c.SessionToken! } as never).send(new GetCallerIdentityCommand({}));
    expect(me.Arn).toBe(out.AssumedRoleUser?.Arn);
  });

  it('a token whose aud is the client id works too', async () => {
    const out = await assume(await idp.sign({ sub: 'user-1', aud: 'loupe-cli' }), { DurationSeconds: 900 });
    expect(out.Credentials!.Expiration!.getTime() - Date.now()).toBeLessThanOrEqual(900_000);
  });

  it('keys rotated at the IdP are fetched again', async () => {
    await idp.rotate();
    const out = await assume(await idp.sign({ sub: 'user-1', aud: 'loupe-cli' }));
    expect(out.Credentials?.AccessKeyId).toMatch(/^ASIA/);
  });

  it('an audience that is not among the client ids', async () => {
    expect(await rejection(assume(await idp.sign({ sub: 'u', aud: 'loupe-web', azp: 'loupe-web' })))).toEqual({
      code: 'InvalidIdentityToken',
      sdkName: 'InvalidIdentityTokenException',
      message: 'Incorrect token audience',
      status: 400,
    });
  });

  it('an expired token', async () => {
    const r = await rejection(assume(await idp.sign({ sub: 'u', aud: 'loupe-cli' }, { expiresInSeconds: -10 })));
    expect(r.code).toBe('ExpiredTokenException');
    expect(r.sdkName).toBe('ExpiredTokenException');
    expect(r.message).toMatch(/^Token expired: current date\/time \d+ must be before the expiration date\/time \d+$/);
  });

  it('a token signed by another key that claims the same issuer', async () => {
    const forged = await other.sign({ iss: idp.issuer, sub: 'u', aud: 'loupe-cli' });
    const r = await rejection(assume(forged));
    expect(r.code).toBe('InvalidIdentityToken');
  });

  it('refresh, offline and logout tokens are no web identity: InvalidIdentityToken, whatever their signature', async () => {
    for (const typ of ['Refresh', 'Offline', 'Logout']) {
      const r = await rejection(assume(await idp.sign({ sub: 'user-1', aud: 'loupe-cli', typ })));
      expect(r).toMatchObject({ code: 'InvalidIdentityToken', status: 400 });
      expect(r.message).toContain('not an access token or an ID token');
    }
    expect(await rejection(assume(await idp.sign({ sub: 'user-1', aud: 'loupe-cli' }, { typ: 'logout+jwt' })))).toMatchObject({ code: 'InvalidIdentityToken' });
    // Keycloak's access (Bearer) and ID tokens still pass.
    expect((await assume(await idp.sign({ sub: 'user-1', aud: 'loupe-cli', typ: 'ID' }))).Audience).toBe('loupe-cli');
    expect((await assume(await idp.sign({ sub: 'user-1', aud: 'loupe-cli', typ: 'Bearer' }))).Audience).toBe('loupe-cli');
  });

  it('unknown key ids make the STS refetch the JWKS at most once per provider per interval', async () => {
    // Warm the cache, then a stream of tokens naming key ids the provider never had.
    await assume(await idp.sign({ sub: 'user-1', aud: 'loupe-cli' }));
    const before = idp.fetches.jwks;
    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      const r = await rejection(assume(await idp.sign({ sub: 'u', aud: 'loupe-cli' }, { headerKid: `made-up-${i}` })));
      expect(r.code).toBe('InvalidIdentityToken');
    }
    const intervals = Math.floor((Date.now() - started) / 10_000);
    expect(idp.fetches.jwks - before).toBeLessThanOrEqual(1 + intervals);
    // Good tokens keep working meanwhile.
    expect((await assume(await idp.sign({ sub: 'user-1', aud: 'loupe-cli' }))).Audience).toBe('loupe-cli');
  });

  it('a token from an issuer with no provider in the account', async () => {
    const r = await rejection(assume(await other.sign({ sub: 'u', aud: 'loupe-cli' })));
    expect(r).toMatchObject({ code: 'InvalidIdentityToken', message: `No OpenIDConnect provider found in your account for ${other.issuer}` });
  });

  it('a role whose trust policy does not name the provider', async () => {
    expect(await rejection(assume(await idp.sign({ sub: 'u', aud: 'loupe-cli' }), { RoleArn: ROLE_ARN }))).toMatchObject({
      code: 'AccessDenied',
      status: 403,
      message: 'Not authorized to perform sts:AssumeRoleWithWebIdentity',
    });
  });

  it('RoleSessionName is required', async () => {
    const token = await idp.sign({ sub: 'u', aud: 'loupe-cli' });
    const r = await rejection(sts.sdk.send(new AssumeRoleWithWebIdentityCommand({ RoleArn: WEB_ROLE, WebIdentityToken: token } as never)));
    expect(r).toMatchObject({ code: 'ValidationError', message: "1 validation error detected: Value null at 'roleSessionName' failed to satisfy constraint: Member must not be null" });
  });

  it('DurationSeconds above the role maximum', async () => {
    expect(await rejection(assume(await idp.sign({ sub: 'u', aud: 'loupe-cli' }), { DurationSeconds: 7200 }))).toMatchObject({
      code: 'ValidationError',
      message: 'The requested DurationSeconds exceeds the MaxSessionDuration set for this role.',
    });
  });

  it('a provider whose thumbprint no longer matches the certificate is not trusted', async () => {
    const engine = sts.handle.api.engine;
    const p = engine.store.oidcProvider(providerArn)!;
    await engine.store.putOidcProvider({ ...p, thumbprints: ['0'.repeat(40)] });
    try {
      // A fresh provider URL object forces a key fetch over the pinned connection.
      (engine as unknown as { keys: { forget(u: string): void } }).keys.forget(p.url);
      const r = await rejection(assume(await idp.sign({ sub: 'u', aud: 'loupe-cli' })));
      expect(r.code).toBe('IDPCommunicationError');
      expect(r.message).toContain('is not in the provider\'s thumbprint list');
    } finally {
      await engine.store.putOidcProvider(p);
    }
  });

  it('creating a provider with a wrong thumbprint fails', async () => {
    const res = await fetch(`${sts.url}/loupe/admin/oidc-providers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: other.issuer, clientIds: ['x'], thumbprints: ['1'.repeat(40)] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ProviderUnreachable');
  });
});
