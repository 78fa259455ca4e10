/**
 * The identity provider's data, shaped like Keycloak's representations (realm export JSON) so
 * the admin API can hand them out almost as stored. Password hashes stay inside: the admin API
 * strips `credentials` before anything leaves the engine.
 */

export const SAML_POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
export const SAML_REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';

export interface PasswordCredential {
  type: 'password';
  /** `scrypt$N$r$p$saltB64$hashB64` */
  hash: string;
  createdDate: number;
}

export interface UserRecord {
  id: string;
  username: string;
  enabled: boolean;
  email?: string;
  firstName?: string;
  lastName?: string;
  createdTimestamp: number;
  /** Realm role names mapped directly to the user. */
  realmRoles: string[];
  /** Group ids the user is a member of. */
  groups: string[];
  attributes: Record<string, string[]>;
  credentials: PasswordCredential[];
}

export interface GroupRecord {
  id: string;
  name: string;
  path: string;
  realmRoles: string[];
}

export interface RoleRecord {
  id: string;
  name: string;
  description?: string;
}

/** A Keycloak protocol mapper; `config` keys are Keycloak's own. */
export interface ProtocolMapper {
  id: string;
  name: string;
  protocol: 'saml' | 'openid-connect';
  /** e.g. saml-role-list-mapper, saml-user-property-mapper, saml-hardcode-attribute-mapper */
  protocolMapper: string;
  config: Record<string, string>;
}

interface ClientBase {
  /** Internal id (uuid), what admin URLs use. */
  id: string;
  /** For SAML the SP's entity id (the Audience); for OIDC the client_id. */
  clientId: string;
  name?: string;
  description?: string;
  enabled: boolean;
  fullScopeAllowed: boolean;
  /** Realm roles in the client's scope (used when fullScopeAllowed is off). */
  scopeRealmRoles: string[];
  protocolMappers: ProtocolMapper[];
  baseUrl?: string;
}

export interface SamlClientRecord extends ClientBase {
  protocol: 'saml';
  /** Keycloak's "IDP-Initiated SSO URL name": …/protocol/saml/clients/{urlName} */
  urlName: string;
  /** Registered HTTP-POST assertion consumer URLs; the first is the default. */
  acsUrls: string[];
  /** "Sign documents": the whole Response is signed. */
  signResponse: boolean;
  /** "Sign assertions": the Assertion carries its own signature. */
  signAssertion: boolean;
  /** Seconds the assertion is valid for (Keycloak: saml.assertion.lifespan; falls back to the realm's access code lifespan). */
  assertionLifespan?: number;
  /** RelayState sent with IdP-initiated logins when the request carries none. */
  defaultRelayState?: string;
  nameIdFormat: string;
}

export interface OidcClientRecord extends ClientBase {
  protocol: 'openid-connect';
  publicClient: boolean;
  secret?: string;
  directAccessGrantsEnabled: boolean;
  serviceAccountsEnabled: boolean;
  standardFlowEnabled: boolean;
  redirectUris: string[];
  /**
   * Keycloak's `pkce.code.challenge.method`: the PKCE method the client must use. Unset on a
   * public client means S256 (PKCE required, OAuth 2.1 BCP); '' switches enforcement off.
   */
  pkceCodeChallengeMethod?: 'S256' | 'plain' | '';
}

/** The PKCE method an authorization request of this client must carry, if any. */
export function enforcedPkceMethod(c: OidcClientRecord): 'S256' | 'plain' | undefined {
  const m = c.pkceCodeChallengeMethod ?? (c.publicClient ? 'S256' : '');
  return m === '' ? undefined : m;
}

export type ClientRecord = SamlClientRecord | OidcClientRecord;

export interface RealmRecord {
  id: string;
  realm: string;
  displayName?: string;
  enabled: boolean;
  /** Seconds; Keycloak's defaults. */
  accessTokenLifespan: number;
  accessCodeLifespan: number;
  ssoSessionIdleTimeout: number;
  ssoSessionMaxLifespan: number;
  /** e.g. https://aws.amazon.com — the prefix of the SAML attribute names the cloud reads. */
  cloudDomain: string;
  users: UserRecord[];
  groups: GroupRecord[];
  roles: RoleRecord[];
  clients: ClientRecord[];
}

/** Keycloak's realm defaults (RealmManager): access token 5 min, login code 1 min, SSO idle 30 min, SSO max 10 h. */
export const REALM_DEFAULTS = {
  accessTokenLifespan: 300,
  accessCodeLifespan: 60,
  ssoSessionIdleTimeout: 1800,
  ssoSessionMaxLifespan: 36000,
} as const;

export const DEFAULT_CLOUD_DOMAIN = 'https://aws.amazon.com';

export function cloudAttribute(cloudDomain: string, name: 'Role' | 'RoleSessionName' | 'SessionDuration'): string {
  return `${cloudDomain.replace(/\/+$/, '')}/SAML/Attributes/${name}`;
}

/** What the IdP's errors carry: a Keycloak-shaped OAuth error or an admin error. */
export class IdpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'IdpError';
  }
}
