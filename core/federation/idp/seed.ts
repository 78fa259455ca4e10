/**
 * What exists on first start. The master realm holds the admin user (Keycloak's own way in:
 * password grant with client `admin-cli`). The demo realm `federation` matches the token
 * service's demo account 123456789012, so the click-through works with nothing configured.
 */
import type { IdpEngine } from './engine.js';
import { awsSigninMetadata } from './engine.js';

export const DEMO = {
  realm: 'federation',
  account: '123456789012',
  provider: 'arn:aws:iam::123456789012:saml-provider/loupe',
  readOnlyRole: 'arn:aws:iam::123456789012:role/LoupeReadOnly',
  adminRole: 'arn:aws:iam::123456789012:role/LoupeAdmin',
  sessionDuration: 3600,
  cliSecret: 'loupe-cli-secret',
  webSecret: 'loupe-web-secret',
  /** The public client for the authorization-code flow from a desktop app. */
  nativeClient: 'loupe-desktop',
  /**
   * Fixed user ids, so the token service's demo trust can name them: an OIDC token's `sub` is
   * the user id, and IAM trust conditions on `<provider>:sub` are how AWS tells users apart.
   * The token service's seed (sts/seed.ts) carries the same two values.
   */
  aliceId: '4f1c6a52-7d0e-4b8a-9c43-a11ce0000001',
  bobId: '4f1c6a52-7d0e-4b8a-9c43-b0b000000002',
} as const;

/** Role names are the attribute values the cloud reads: "role_arn,provider_arn". */
export const DEMO_ROLE_VALUES = {
  readOnly: `${DEMO.readOnlyRole},${DEMO.provider}`,
  admin: `${DEMO.adminRole},${DEMO.provider}`,
} as const;

export async function seedMaster(engine: IdpEngine, adminPassword: string): Promise<void> {
  const s = engine.store;
  await s.createRealm({ realm: 'master', displayName: 'Keycloak' });
  await s.createRole('master', { name: 'admin', description: 'May use the admin API' });
  await s.createUser('master', { username: 'admin', password: adminPassword, realmRoles: ['admin'] });
  await s.createOidcClient('master', { clientId: 'admin-cli', name: 'admin-cli', publicClient: true, directAccessGrantsEnabled: true, standardFlowEnabled: false });
}

export async function seedDemo(engine: IdpEngine): Promise<void> {
  const s = engine.store;
  const realm = DEMO.realm;
  await s.createRealm({ realm, displayName: 'Loupe federation demo' });
  await s.createRole(realm, { name: DEMO_ROLE_VALUES.readOnly, description: 'LoupeReadOnly in account 123456789012' });
  await s.createRole(realm, { name: DEMO_ROLE_VALUES.admin, description: 'LoupeAdmin in account 123456789012' });
  // bob gets read-only through the group; alice through the group and admin directly.
  await s.createGroup(realm, { name: 'engineers', realmRoles: [DEMO_ROLE_VALUES.readOnly] });
  await s.createUser(realm, { id: DEMO.aliceId, username: 'alice', password: 'alice', email: 'alice@example.com', firstName: 'Alice', lastName: 'Liddell', groups: ['engineers'], realmRoles: [DEMO_ROLE_VALUES.admin] });
  await s.createUser(realm, { id: DEMO.bobId, username: 'bob', password: 'bob', email: 'bob@example.com', firstName: 'Bob', lastName: 'Builder', groups: ['engineers'] });
  const metadataXml = awsSigninMetadata();
  const scope = [DEMO_ROLE_VALUES.readOnly, DEMO_ROLE_VALUES.admin];
  for (const [urlName, roleSessionName] of [
    ['cloud', true],
    ['cloud-no-session-name', false],
  ] as const) {
    await engine.registerSamlClientFromMetadata(realm, {
      metadataXml,
      urlName,
      name: roleSessionName ? 'AWS (demo account)' : 'AWS without RoleSessionName (shows the error)',
      baseUrl: `/realms/${realm}/protocol/saml/clients/${urlName}`,
      scopeRealmRoles: scope,
      cloudMappers: { roleSessionName, sessionDuration: DEMO.sessionDuration },
      signResponse: true,
      signAssertion: true,
      // Five minutes to pick a role, as saml2aws caches an assertion.
      assertionLifespan: 300,
    });
  }
  await s.createOidcClient(realm, { clientId: 'loupe-cli', name: 'Loupe CLI', secret: DEMO.cliSecret, directAccessGrantsEnabled: true, serviceAccountsEnabled: true, standardFlowEnabled: false });
  await s.createOidcClient(realm, { clientId: 'loupe-web', name: 'Loupe web', secret: DEMO.webSecret, directAccessGrantsEnabled: false, standardFlowEnabled: true, redirectUris: ['http://127.0.0.1/*', 'http://localhost/*'] });
  // A native app (RFC 8252): public, PKCE S256 required, any loopback port (Keycloak ignores the
  // port of http://127.0.0.1 and http://localhost redirect URIs).
  await s.createOidcClient(realm, {
    clientId: DEMO.nativeClient,
    name: 'Loupe desktop (native app)',
    publicClient: true,
    directAccessGrantsEnabled: false,
    standardFlowEnabled: true,
    pkceCodeChallengeMethod: 'S256',
    redirectUris: ['http://127.0.0.1/*', 'http://localhost/*'],
  });
}
