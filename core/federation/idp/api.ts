/**
 * The in-process API the host uses for what has no wire protocol (listing for the UI, URLs).
 * Everything here is plain JSON; password hashes never leave the engine.
 */
import type { IdpEngine, RegisterFromMetadata } from './engine.js';
import type { NewUser } from './store.js';
import type { ProtocolMapper } from './model.js';
import { realmRep, userRep, groupRep, roleRep, clientRep, mapperRep, samlClientFromRep, oidcClientFromRep, clientPatchFromRep } from './representations.js';
import { keysMetadata } from './http/admin-routes.js';

export interface IdpUrls {
  realmUrl: string;
  discovery: string;
  certs: string;
  token: string;
  /** OIDC authorization endpoint (authorization-code flow with PKCE). */
  authorization: string;
  /** RP-initiated logout (end_session_endpoint). */
  logout: string;
  introspection: string;
  revocation: string;
  userinfo: string;
  descriptor: string;
  samlEndpoint: string;
  sso: { urlName: string; clientId: string; name?: string; url: string }[];
}

export interface IdpApi {
  readonly url: string;
  readonly httpsUrl: string;
  /** PEM of the HTTPS listener's self-signed certificate, for clients that must trust it. */
  readonly tlsCertPem: string;
  /** Where the master realm's admin password was written (0600). */
  readonly adminPasswordFile: string;
  realms(): Record<string, unknown>[];
  users(realm: string): Record<string, unknown>[];
  groups(realm: string): Record<string, unknown>[];
  roles(realm: string): Record<string, unknown>[];
  clients(realm: string): Record<string, unknown>[];
  mappers(realm: string, client: string): Record<string, unknown>[];
  urls(realm: string, opts?: { https?: boolean }): IdpUrls;
  cloudDomain(realm: string): string;
  keys(): Record<string, unknown>;
  rotateKeys(): Promise<{ kid: string }>;
  registerSamlClientFromMetadata(realm: string, input: RegisterFromMetadata): Promise<Record<string, unknown>>;
  /** The same operations as the admin HTTP API, for the host; results are Keycloak representations. */
  admin: IdpAdmin;
}

type Rep = Record<string, unknown>;

export interface IdpAdmin {
  createRealm(input: { realm: string; displayName?: string; cloudDomain?: string }): Promise<Rep>;
  deleteRealm(realm: string): Promise<void>;
  createUser(realm: string, input: NewUser): Promise<Rep>;
  resetPassword(realm: string, user: string, password: string): Promise<void>;
  deleteUser(realm: string, user: string): Promise<void>;
  createRole(realm: string, input: { name: string; description?: string }): Promise<Rep>;
  deleteRole(realm: string, name: string): Promise<void>;
  createGroup(realm: string, input: { name: string; realmRoles?: string[] }): Promise<Rep>;
  mapUserRoles(realm: string, user: string, roles: string[], add: boolean): Promise<Rep>;
  mapGroupRoles(realm: string, group: string, roles: string[], add: boolean): Promise<Rep>;
  setUserGroup(realm: string, user: string, group: string, member: boolean): Promise<Rep>;
  /** A Keycloak ClientRepresentation (protocol saml or openid-connect). */
  createClient(realm: string, rep: Rep): Promise<Rep>;
  updateClient(realm: string, client: string, rep: Rep): Promise<Rep>;
  deleteClient(realm: string, client: string): Promise<void>;
  addMapper(realm: string, client: string, mapper: Omit<ProtocolMapper, 'id'>): Promise<ProtocolMapper>;
  removeMapper(realm: string, client: string, mapperId: string): Promise<void>;
}

export function createIdpApi(engine: IdpEngine, url: string, httpsUrl: string, tlsCertPem: string): IdpApi {
  const s = engine.store;
  return {
    url,
    httpsUrl,
    tlsCertPem,
    adminPasswordFile: engine.adminPasswordFile,
    realms: () => s.listRealms().map((r) => ({ ...realmRep(r), counts: { users: r.users.length, groups: r.groups.length, roles: r.roles.length, clients: r.clients.length } })),
    users: (realm) => {
      const r = s.realm(realm);
      return r.users.map((u) => ({ ...userRep(r, u), effectiveRoles: s.effectiveRoles(r, u) }));
    },
    groups: (realm) => s.realm(realm).groups.map(groupRep),
    roles: (realm) => {
      const r = s.realm(realm);
      return r.roles.map((x) => roleRep(r, x));
    },
    clients: (realm) => s.realm(realm).clients.map(clientRep),
    mappers: (realm, client) => s.client(s.realm(realm), client).protocolMappers.map((m) => ({ ...mapperRep(m) })),
    urls: (realm, opts = {}) => {
      const r = s.realm(realm);
      const realmUrl = `${opts.https ? httpsUrl : url}/realms/${encodeURIComponent(r.realm)}`;
      return {
        realmUrl,
        discovery: `${realmUrl}/.well-known/openid-configuration`,
        certs: `${realmUrl}/protocol/openid-connect/certs`,
        token: `${realmUrl}/protocol/openid-connect/token`,
        authorization: `${realmUrl}/protocol/openid-connect/auth`,
        logout: `${realmUrl}/protocol/openid-connect/logout`,
        introspection: `${realmUrl}/protocol/openid-connect/token/introspect`,
        revocation: `${realmUrl}/protocol/openid-connect/revoke`,
        userinfo: `${realmUrl}/protocol/openid-connect/userinfo`,
        descriptor: `${realmUrl}/protocol/saml/descriptor`,
        samlEndpoint: `${realmUrl}/protocol/saml`,
        sso: r.clients.flatMap((c) => (c.protocol === 'saml' ? [{ urlName: c.urlName, clientId: c.clientId, ...(c.name ? { name: c.name } : {}), url: `${realmUrl}/protocol/saml/clients/${encodeURIComponent(c.urlName)}` }] : [])),
      };
    },
    cloudDomain: (realm) => s.realm(realm).cloudDomain,
    keys: () => keysMetadata(engine),
    rotateKeys: async () => ({ kid: (await engine.keys.rotate()).kid }),
    registerSamlClientFromMetadata: async (realm, input) => clientRep((await engine.registerSamlClientFromMetadata(realm, input)).client),
    admin: {
      createRealm: async (input) => realmRep(await s.createRealm(input)),
      deleteRealm: (realm) => s.deleteRealm(realm),
      createUser: async (realm, input) => userRep(s.realm(realm), await s.createUser(realm, input)),
      resetPassword: (realm, user, password) => s.setPassword(realm, user, password),
      deleteUser: (realm, user) => s.deleteUser(realm, user),
      createRole: async (realm, input) => roleRep(s.realm(realm), await s.createRole(realm, input)),
      deleteRole: (realm, name) => s.deleteRole(realm, name),
      createGroup: async (realm, input) => groupRep(await s.createGroup(realm, input)),
      mapUserRoles: async (realm, user, roles, add) => userRep(s.realm(realm), await s.mapUserRoles(realm, user, roles, add)),
      mapGroupRoles: async (realm, group, roles, add) => groupRep(await s.mapGroupRoles(realm, group, roles, add)),
      setUserGroup: async (realm, user, group, member) => userRep(s.realm(realm), await s.setUserGroup(realm, user, group, member)),
      createClient: async (realm, rep) => clientRep(rep.protocol === 'saml' ? await s.createSamlClient(realm, samlClientFromRep(rep)) : await s.createOidcClient(realm, oidcClientFromRep(rep))),
      updateClient: async (realm, client, rep) => {
        const c = s.client(s.realm(realm), client);
        return clientRep(await s.updateClient(realm, c.id, clientPatchFromRep(c, rep)));
      },
      deleteClient: (realm, client) => s.deleteClient(realm, client),
      addMapper: (realm, client, mapper) => s.addMapper(realm, client, mapper),
      removeMapper: (realm, client, mapperId) => s.removeMapper(realm, client, mapperId),
    },
  };
}
