/**
 * Engine records ⇄ Keycloak admin representations (RealmRepresentation, UserRepresentation,
 * ClientRepresentation …), so Keycloak admin scripts and the UI read the same JSON.
 */
import type { ClientRecord, GroupRecord, ProtocolMapper, RealmRecord, RoleRecord, SamlClientRecord, UserRecord } from './model.js';
import { IdpError, EXC_C14N } from './model.js';
import type { NewOidcClient, NewSamlClient } from './store.js';

const NAME_ID_FORMATS: Record<string, string> = {
  username: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
  email: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  transient: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
};

export function realmRep(r: RealmRecord): Record<string, unknown> {
  return {
    id: r.id,
    realm: r.realm,
    ...(r.displayName ? { displayName: r.displayName } : {}),
    enabled: r.enabled,
    accessTokenLifespan: r.accessTokenLifespan,
    accessCodeLifespan: r.accessCodeLifespan,
    ssoSessionIdleTimeout: r.ssoSessionIdleTimeout,
    ssoSessionMaxLifespan: r.ssoSessionMaxLifespan,
    attributes: { cloudDomain: r.cloudDomain },
  };
}

export function userRep(r: RealmRecord, u: UserRecord): Record<string, unknown> {
  return {
    id: u.id,
    username: u.username,
    enabled: u.enabled,
    emailVerified: false,
    ...(u.email ? { email: u.email } : {}),
    ...(u.firstName ? { firstName: u.firstName } : {}),
    ...(u.lastName ? { lastName: u.lastName } : {}),
    createdTimestamp: u.createdTimestamp,
    attributes: u.attributes,
    realmRoles: u.realmRoles,
    groups: u.groups.map((g) => r.groups.find((x) => x.id === g)?.path ?? g),
    totp: false,
    hasPassword: u.credentials.length > 0,
  };
}

export function groupRep(g: GroupRecord): Record<string, unknown> {
  return { id: g.id, name: g.name, path: g.path, realmRoles: g.realmRoles, subGroups: [] };
}

export function roleRep(r: RealmRecord, role: RoleRecord): Record<string, unknown> {
  return { id: role.id, name: role.name, ...(role.description ? { description: role.description } : {}), composite: false, clientRole: false, containerId: r.id };
}

export function mapperRep(m: ProtocolMapper): ProtocolMapper {
  return { id: m.id, name: m.name, protocol: m.protocol, protocolMapper: m.protocolMapper, config: { ...m.config } };
}

export function clientRep(c: ClientRecord): Record<string, unknown> {
  const common = {
    id: c.id,
    clientId: c.clientId,
    ...(c.name ? { name: c.name } : {}),
    ...(c.description ? { description: c.description } : {}),
    ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}),
    enabled: c.enabled,
    protocol: c.protocol,
    fullScopeAllowed: c.fullScopeAllowed,
    protocolMappers: c.protocolMappers.map(mapperRep),
    scopeRealmRoles: c.scopeRealmRoles,
  };
  if (c.protocol === 'openid-connect') {
    return {
      ...common,
      publicClient: c.publicClient,
      clientAuthenticatorType: 'client-secret',
      ...(c.secret ? { secret: c.secret } : {}),
      directAccessGrantsEnabled: c.directAccessGrantsEnabled,
      serviceAccountsEnabled: c.serviceAccountsEnabled,
      standardFlowEnabled: c.standardFlowEnabled,
      implicitFlowEnabled: false,
      redirectUris: c.redirectUris,
      attributes: { 'pkce.code.challenge.method': c.pkceCodeChallengeMethod ?? (c.publicClient ? 'S256' : '') },
    };
  }
  const nameIdKey = Object.entries(NAME_ID_FORMATS).find(([, v]) => v === c.nameIdFormat)?.[0] ?? 'username';
  return {
    ...common,
    publicClient: false,
    frontchannelLogout: true,
    // Keycloak's "Valid redirect URIs" of a SAML client are the ACS URLs it may be answered at.
    redirectUris: c.acsUrls,
    attributes: {
      saml_idp_initiated_sso_url_name: c.urlName,
      saml_assertion_consumer_url_post: c.acsUrls[0],
      ...(c.defaultRelayState ? { saml_idp_initiated_sso_relay_state: c.defaultRelayState } : {}),
      'saml.server.signature': String(c.signResponse),
      'saml.assertion.signature': String(c.signAssertion),
      'saml.signature.algorithm': 'RSA_SHA256',
      saml_signature_canonicalization_method: EXC_C14N,
      'saml.client.signature': 'false',
      'saml.authnstatement': 'true',
      saml_name_id_format: nameIdKey,
      ...(c.assertionLifespan !== undefined ? { 'saml.assertion.lifespan': String(c.assertionLifespan) } : {}),
    },
  };
}

type Rep = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined);
const strs = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined);

function mappersFrom(rep: Rep): Omit<ProtocolMapper, 'id'>[] | undefined {
  const list = rep.protocolMappers;
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) throw new IdpError(400, 'invalid_request', 'protocolMappers must be a list');
  return list.map((m: Rep) => ({
    name: str(m.name) ?? '',
    protocol: (str(m.protocol) as ProtocolMapper['protocol']) ?? 'saml',
    protocolMapper: str(m.protocolMapper) ?? '',
    config: Object.fromEntries(Object.entries((m.config as Rep) ?? {}).map(([k, v]) => [k, String(v)])),
  }));
}

function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A SAML ClientRepresentation (Keycloak attributes, or Loupe's flat fields) as the store's input. */
export function samlClientFromRep(rep: Rep): NewSamlClient {
  const attrs = (rep.attributes as Rep | undefined) ?? {};
  const post = str(attrs.saml_assertion_consumer_url_post);
  const acs = strs(rep.acsUrls) ?? [...new Set([...(post ? [post] : []), ...(strs(rep.redirectUris) ?? [])])];
  const lifespan = rep.assertionLifespan ?? attrs['saml.assertion.lifespan'];
  const nameId = str(attrs.saml_name_id_format);
  return defined({
    clientId: str(rep.clientId) ?? '',
    urlName: str(rep.urlName) ?? str(attrs.saml_idp_initiated_sso_url_name) ?? '',
    acsUrls: acs,
    name: str(rep.name),
    description: str(rep.description),
    baseUrl: str(rep.baseUrl),
    enabled: bool(rep.enabled),
    fullScopeAllowed: bool(rep.fullScopeAllowed),
    scopeRealmRoles: strs(rep.scopeRealmRoles),
    signResponse: bool(rep.signResponse) ?? bool(attrs['saml.server.signature']),
    signAssertion: bool(rep.signAssertion) ?? bool(attrs['saml.assertion.signature']),
    assertionLifespan: lifespan !== undefined && lifespan !== '' ? Number(lifespan) : undefined,
    defaultRelayState: str(rep.defaultRelayState) ?? str(attrs.saml_idp_initiated_sso_relay_state),
    nameIdFormat: str(rep.nameIdFormat) ?? (nameId ? NAME_ID_FORMATS[nameId] ?? nameId : undefined),
    protocolMappers: mappersFrom(rep),
  });
}

export function oidcClientFromRep(rep: Rep): NewOidcClient {
  const attrs = (rep.attributes as Rep | undefined) ?? {};
  return defined({
    clientId: str(rep.clientId) ?? '',
    name: str(rep.name),
    description: str(rep.description),
    baseUrl: str(rep.baseUrl),
    enabled: bool(rep.enabled),
    publicClient: bool(rep.publicClient),
    secret: str(rep.secret),
    directAccessGrantsEnabled: bool(rep.directAccessGrantsEnabled),
    serviceAccountsEnabled: bool(rep.serviceAccountsEnabled),
    standardFlowEnabled: bool(rep.standardFlowEnabled),
    redirectUris: strs(rep.redirectUris),
    pkceCodeChallengeMethod: str(attrs['pkce.code.challenge.method']) as NewOidcClient['pkceCodeChallengeMethod'],
    fullScopeAllowed: bool(rep.fullScopeAllowed),
    scopeRealmRoles: strs(rep.scopeRealmRoles),
    protocolMappers: mappersFrom(rep),
  });
}

export function isSamlClient(c: ClientRecord): c is SamlClientRecord {
  return c.protocol === 'saml';
}

/** A PUT body as a patch: the clientId stays, and empty ACS lists or URL names mean "unchanged". */
export function clientPatchFromRep(c: ClientRecord, rep: Rep): Partial<NewSamlClient & NewOidcClient> {
  const patch: Partial<NewSamlClient & NewOidcClient> = c.protocol === 'saml' ? samlClientFromRep({ ...rep, clientId: c.clientId }) : oidcClientFromRep({ ...rep, clientId: c.clientId });
  if (patch.acsUrls !== undefined && patch.acsUrls.length === 0) delete patch.acsUrls;
  if (patch.urlName === '') delete patch.urlName;
  return patch;
}
