/**
 * The in-process API the host uses for what has no wire protocol (listing for the UI, URLs).
 * Everything here is plain JSON; password hashes never leave the engine.
 */
import type { IdpEngine, RegisterFromMetadata } from './engine.js';
import { realmRep, userRep, groupRep, roleRep, clientRep, mapperRep } from './representations.js';
import { keysMetadata } from './http/admin-routes.js';

export interface IdpUrls {
  realmUrl: string;
  discovery: string;
  certs: string;
  token: string;
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
        descriptor: `${realmUrl}/protocol/saml/descriptor`,
        samlEndpoint: `${realmUrl}/protocol/saml`,
        sso: r.clients.flatMap((c) => (c.protocol === 'saml' ? [{ urlName: c.urlName, clientId: c.clientId, ...(c.name ? { name: c.name } : {}), url: `${realmUrl}/protocol/saml/clients/${encodeURIComponent(c.urlName)}` }] : [])),
      };
    },
    cloudDomain: (realm) => s.realm(realm).cloudDomain,
    keys: () => keysMetadata(engine),
    rotateKeys: async () => ({ kid: (await engine.keys.rotate()).kid }),
    registerSamlClientFromMetadata: async (realm, input) => clientRep((await engine.registerSamlClientFromMetadata(realm, input)).client),
  };
}
