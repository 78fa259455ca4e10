/**
 * Host-contract methods and events of the federation workbench, identity-provider side: what
 * the IdP holds (realms, users, groups, roles, clients, mappers), its URLs, the SAML capture in
 * a browser and the OIDC password grant. The token-service side takes the captured assertion or
 * the access token from here (see ./federation-sts.ts).
 */

export interface IdpRealmInfo {
  realm: string;
  displayName?: string;
  enabled: boolean;
  /** Prefix of the cloud's SAML attribute names, e.g. https://aws.amazon.com */
  cloudDomain: string;
  accessTokenLifespan: number;
  accessCodeLifespan: number;
  ssoSessionIdleTimeout: number;
  ssoSessionMaxLifespan: number;
  counts: { users: number; groups: number; roles: number; clients: number };
}

export interface IdpUserInfo {
  id: string;
  username: string;
  enabled: boolean;
  email?: string;
  firstName?: string;
  lastName?: string;
  /** Group paths, e.g. /engineers */
  groups: string[];
  /** Realm roles mapped to the user directly. */
  realmRoles: string[];
  /** Direct and group roles together (before any client's scope). */
  effectiveRoles: string[];
  hasPassword: boolean;
}

export interface IdpGroupInfo {
  id: string;
  name: string;
  path: string;
  realmRoles: string[];
}

export interface IdpRoleInfo {
  id: string;
  name: string;
  description?: string;
}

export interface IdpMapperInfo {
  id: string;
  name: string;
  protocol: 'saml' | 'openid-connect';
  /** Keycloak mapper type, e.g. saml-role-list-mapper */
  protocolMapper: string;
  config: Record<string, string>;
}

export interface IdpClientInfo {
  /** Internal id (admin URLs). */
  id: string;
  /** SAML: the SP entity id (Audience); OIDC: the client_id. */
  clientId: string;
  protocol: 'saml' | 'openid-connect';
  name?: string;
  enabled: boolean;
  fullScopeAllowed: boolean;
  scopeRealmRoles: string[];
  mappers: IdpMapperInfo[];
  baseUrl?: string;
  /** SAML only. */
  urlName?: string;
  acsUrls?: string[];
  /** IdP-initiated SSO URL (http listener). */
  ssoUrl?: string;
  signResponse?: boolean;
  signAssertion?: boolean;
  assertionLifespan?: number;
  /** OIDC only. */
  publicClient?: boolean;
  directAccessGrantsEnabled?: boolean;
  serviceAccountsEnabled?: boolean;
  hasSecret?: boolean;
}

export interface IdpUrlsInfo {
  /** http://127.0.0.1:8080 (or the remote Keycloak's URL). */
  base: string;
  /** The embedded IdP's HTTPS URL (self-signed certificate). */
  httpsBase?: string;
  realmUrl: string;
  discovery: string;
  certs: string;
  token: string;
  descriptor: string;
  samlEndpoint: string;
  /** IdP-initiated SSO URLs of the realm's SAML clients. */
  sso: { urlName: string; clientId: string; name?: string; url: string }[];
  /** Where the embedded IdP wrote the master realm's admin password (0600). */
  adminPasswordFile?: string;
}

export interface CapturedAssertion {
  captureId: string;
  issuer: string;
  subject: string;
  subjectFormat?: string;
  audience?: string;
  destination?: string;
  recipient?: string;
  roles: { roleArn: string; principalArn: string }[];
  roleSessionName?: string;
  /** Seconds, from the SessionDuration attribute. */
  sessionDuration?: number;
  notBefore?: string;
  notOnOrAfter?: string;
  sessionNotOnOrAfter?: string;
  relayState?: string;
  /** The sign-in URL the browser tried to POST to (stopped, never reached). */
  acsUrl: string;
  responseSigned: boolean;
  assertionSigned: boolean;
  attributes: Record<string, string[]>;
  /** The raw base64 SAMLResponse, for AssumeRoleWithSAML. */
  samlResponse: string;
  /** The decoded XML, indented for reading (display only; the base64 above is what is sent). */
  xml: string;
  /**
   * The signature checked against the certificates of the embedded token service's SAML provider
   * for this issuer; `unchecked` when there is none (a remote STS checks it on the call).
   */
  signature: { status: 'verified' | 'failed' | 'unchecked'; message: string; provider?: string };
}

export interface CaptureParams {
  /** Either an SSO URL, or realm + urlName of a client of the configured IdP. */
  ssoUrl?: string;
  realm?: string;
  urlName?: string;
  relayState?: string;
  /** Default false: a window the user signs in with. */
  headless?: boolean;
  /** Default 300. */
  timeoutSeconds?: number;
  /** Extra sign-in URL patterns (`*` wildcard) besides AWS's. */
  extraPatterns?: string[];
  /** Accept the embedded IdP's self-signed HTTPS certificate. */
  ignoreHttpsErrors?: boolean;
  /** Chosen by the caller to cancel or follow progress; generated when absent. */
  captureId?: string;
}

/** Where a capture would run here, for the UI to say so before it starts. */
export interface CaptureEnvironment {
  /** 'electron': a Loupe window; 'chromium': Chromium through playwright-core. */
  kind: 'electron' | 'chromium';
  /** False on a machine without a display: the browser runs headless. */
  visible: boolean;
  /** LOUPE_CAPTURE_CDP_PORT when set. */
  cdpPort?: number;
  /** The sign-in URL patterns stopped (AWS's, then the realm's configured ACS URLs). */
  patterns: string[];
}

export interface PasswordGrantParams {
  realm: string;
  clientId: string;
  clientSecret?: string;
  username: string;
  password: string;
  /** e.g. "openid" to get an ID token too. */
  scope?: string;
  /**
   * Ask the IdP's HTTPS listener: its tokens carry the HTTPS issuer, which is the one AWS (and the
   * embedded token service) trusts for AssumeRoleWithWebIdentity.
   */
  https?: boolean;
}

export interface PasswordGrantResult {
  tokenEndpoint: string;
  /** Keycloak's token response as returned. */
  response: {
    access_token: string;
    expires_in: number;
    refresh_expires_in: number;
    refresh_token?: string;
    token_type: string;
    id_token?: string;
    scope?: string;
    session_state?: string;
  };
  /** Decoded (not verified here; the STS verifies) access-token claims and header. */
  claims: Record<string, unknown>;
  header: Record<string, unknown>;
  idTokenClaims?: Record<string, unknown>;
}

export interface CaptureProgressEvent {
  captureId: string;
  stage: 'launching' | 'opened' | 'navigated' | 'login-failed' | 'captured' | 'closed' | 'failed';
  message: string;
  url?: string;
  at: string;
}

export interface FederationIdpMethods {
  'federation.realms'(params: Record<string, never>): IdpRealmInfo[];
  'federation.users'(params: { realm: string }): IdpUserInfo[];
  'federation.groups'(params: { realm: string }): IdpGroupInfo[];
  'federation.roles'(params: { realm: string }): IdpRoleInfo[];
  'federation.clients'(params: { realm: string }): IdpClientInfo[];
  'federation.mappers'(params: { realm: string; client: string }): IdpMapperInfo[];
  'federation.idpUrls'(params: { realm: string; https?: boolean }): IdpUrlsInfo;
  'federation.capture'(params: CaptureParams): CapturedAssertion;
  'federation.cancelCapture'(params: { captureId: string }): { cancelled: boolean };
  'federation.captureEnvironment'(params: { realm?: string }): CaptureEnvironment;
  'federation.passwordGrant'(params: PasswordGrantParams): PasswordGrantResult;
  /**
   * OIDC sign-in in the capture browser: authorization code with PKCE (S256), the code coming
   * back to a loopback redirect on 127.0.0.1, exchanged at the realm's HTTPS token endpoint.
   * Progress arrives as federation.capture.progress with this captureId; cancelCapture stops it.
   */
  'federation.oidcSignIn'(params: { realm: string; clientId: string; clientSecret?: string; captureId?: string; timeoutSeconds?: number }): PasswordGrantResult;
}

export interface FederationIdpEvents {
  'federation.capture.progress': CaptureProgressEvent;
}
