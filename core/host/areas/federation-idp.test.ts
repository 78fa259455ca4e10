/**
 * The federation IdP contract methods against a real embedded IdP: what the UI lists, the URLs
 * it shows and the password grant over HTTP (the capture: federation-capture.test.ts).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../common/log.js';
import type { ServiceHandle, ServiceName } from '../../common/service.js';
import { startIdpService } from '../../federation/idp/service.js';
import type { IdpApi } from '../../federation/idp/api.js';
import type { HostRuntime } from '../area.js';
import { HostCallError } from '../area.js';
import type { MethodName, Params, Result } from '../contract.js';
import { federationIdpArea } from './federation-idp.js';

let idp: ServiceHandle<IdpApi>;
let dir: string;
let rt: HostRuntime;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'loupe-idp-area-'));
  idp = await startIdpService({ host: '127.0.0.1', port: 0, httpsPort: 0, dataDir: dir, log: silentLogger, peers: {} });
  rt = {
    handle: <Api,>(name: ServiceName) => (name === 'idp' ? (idp as unknown as ServiceHandle<Api>) : undefined),
    urlOf: (name) => (name === 'idp' ? idp.url : 'http://127.0.0.1:1'),
    emit: () => {},
    dataDir: dir,
    log: silentLogger,
  };
});
afterAll(async () => {
  await idp?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call<M extends keyof typeof federationIdpArea & MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
  const spec = federationIdpArea[method];
  const parsed = spec.params.parse(params);
  return (await spec.handler(parsed as never, rt)) as Result<M>;
}

describe('federation IdP contract', () => {
  it('lists the demo realm, its users with effective roles, and its clients with SSO URLs', async () => {
    const realms = await call('federation.realms', {});
    expect(realms.find((r) => r.realm === 'federation')).toMatchObject({ cloudDomain: 'https://aws.amazon.com', accessTokenLifespan: 300, counts: { users: 2, clients: 5 } });
    const users = await call('federation.users', { realm: 'federation' });
    expect(users.find((u) => u.username === 'bob')).toMatchObject({ groups: ['/engineers'], realmRoles: [], effectiveRoles: ['arn:aws:iam::123456789012:role/LoupeReadOnly,arn:aws:iam::123456789012:saml-provider/loupe'] });
    const clients = await call('federation.clients', { realm: 'federation' });
    const cloud = clients.find((c) => c.urlName === 'cloud')!;
    expect(cloud).toMatchObject({ clientId: 'urn:amazon:webservices', ssoUrl: `${idp.url}/realms/federation/protocol/saml/clients/cloud`, acsUrls: ['https://signin.aws.amazon.com/saml'], signResponse: true, signAssertion: true, assertionLifespan: 300 });
    expect(cloud.mappers.map((m) => m.name)).toEqual(['Role', 'RoleSessionName', 'SessionDuration']);
    expect(clients.find((c) => c.clientId === 'loupe-web')).toMatchObject({ directAccessGrantsEnabled: false, hasSecret: true });
    const mappers = await call('federation.mappers', { realm: 'federation', client: cloud.id });
    expect(mappers[0]!.config['attribute.name']).toBe('https://aws.amazon.com/SAML/Attributes/Role');
  });

  it('shows the realm URLs, http and https', async () => {
    const urls = await call('federation.idpUrls', { realm: 'federation' });
    expect(urls.discovery).toBe(`${idp.url}/realms/federation/.well-known/openid-configuration`);
    expect(urls.descriptor).toBe(`${idp.url}/realms/federation/protocol/saml/descriptor`);
    expect(urls.sso.map((s) => s.urlName)).toEqual(['cloud', 'cloud-no-session-name']);
    const secure = await call('federation.idpUrls', { realm: 'federation', https: true });
    expect(secure.realmUrl).toBe(`${idp.extraUrls!.https}/realms/federation`);
  });

  it('password grant returns the token response and decoded claims; a Keycloak error arrives as detail', async () => {
    const r = await call('federation.passwordGrant', { realm: 'federation', clientId: 'loupe-cli', clientSecret: 'loupe-cli-secret', username: 'alice', password: 'alice' });
    expect(r.response.token_type).toBe('Bearer');
    expect(r.claims).toMatchObject({ preferred_username: 'alice', aud: 'loupe-cli', iss: `${idp.url}/realms/federation` });
    expect(r.header).toMatchObject({ alg: 'RS256' });
    const err = await call('federation.passwordGrant', { realm: 'federation', clientId: 'loupe-web', clientSecret: 'loupe-web-secret', username: 'alice', password: 'alice' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostCallError);
    expect((err as HostCallError).detail).toEqual({ status: 400, error: 'unauthorized_client', error_description: 'Client not allowed for direct access grants' });
  });

  it('an unknown realm is a clear error', async () => {
    await expect(call('federation.users', { realm: 'nope' })).rejects.toThrow('Realm does not exist');
  });
});

describe('password grant over HTTPS', () => {
  it("gets a token whose issuer is the IdP's HTTPS realm, trusting only the IdP's own certificate", async () => {
    const spec = federationIdpArea['federation.passwordGrant'];
    const r = await spec.handler(spec.params.parse({ realm: 'federation', clientId: 'loupe-cli', clientSecret: 'loupe-cli-secret', username: 'bob', password: 'bob', https: true }), rt);
    expect(r.tokenEndpoint).toBe(`${idp.extraUrls!.https}/realms/federation/protocol/openid-connect/token`);
    expect(r.claims.iss).toBe(`${idp.extraUrls!.https}/realms/federation`);
    expect(r.claims.preferred_username).toBe('bob');
  });
});

describe('a client secret kept by the desktop', () => {
  it('is used for the password grant when none is typed', async () => {
    const { ClientSecrets } = await import('../../federation/credentials/client-secrets.js');
    // Stands in for Electron's safeStorage.
    const secretCipher = { isEncryptionAvailable: () => true, encryptString: (s: string) => Buffer.from(s).reverse(), decryptString: (b: Buffer) => Buffer.from(b).reverse().toString() };
    const desk = { ...rt, secretCipher };
    await new ClientSecrets(dir, secretCipher).set('loupe-cli', 'loupe-cli-secret');
    const spec = federationIdpArea['federation.passwordGrant'];
    const r = await spec.handler(spec.params.parse({ realm: 'federation', clientId: 'loupe-cli', username: 'bob', password: 'bob' }), desk);
    expect(r.claims.preferred_username).toBe('bob');
    await expect(spec.handler(spec.params.parse({ realm: 'federation', clientId: 'loupe-cli', username: 'bob', password: 'bob' }), rt)).rejects.toThrow(/invalid_client|unauthorized_client/);
  });
});
