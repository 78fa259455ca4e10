/**
 * The token endpoint's grants (authorization_code with PKCE, password, client_credentials,
 * refresh_token) with Keycloak's
 * order of checks and its error texts. Transport-free: the HTTP layer passes the form and the
 * Authorization header and serializes the result or the OAuthError.
 */
import type { Clock } from '../../common/clock.js';
import type { RealmStore } from '../idp/store.js';
import type { SessionStore } from '../idp/sessions.js';
import type { OidcClientRecord, RealmRecord, UserRecord } from '../idp/model.js';
import type { KeyStore } from './keys.js';
import { KC, OAuthError } from './errors.js';
import { signJwt, signRefreshJwt, verifyRefreshJwt, jti } from './tokens.js';
import { checkCodeVerifier } from './pkce.js';
import { createHash } from 'node:crypto';

export interface TokenDeps {
  store: RealmStore;
  keys: KeyStore;
  sessions: SessionStore;
  clock: Clock;
}

export interface TokenRequest {
  realm: string;
  /** The realm URL the request came in on, e.g. http://127.0.0.1:8080/realms/federation */
  issuer: string;
  form: URLSearchParams;
  authorization?: string;
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  refresh_expires_in: number;
  refresh_token?: string;
  token_type: 'Bearer';
  id_token?: string;
  'not-before-policy': number;
  session_state?: string;
  scope: string;
}

export async function handleTokenRequest(deps: TokenDeps, req: TokenRequest): Promise<TokenResponse> {
  if (!deps.store.hasRealm(req.realm)) throw KC.realmNotFound();
  const realm = deps.store.realm(req.realm);
  const grantType = req.form.get('grant_type');
  if (!grantType) throw KC.missingGrantType();
  const client = authenticateClient(deps, realm, req.form, req.authorization);
  switch (grantType) {
    case 'authorization_code':
      return authorizationCodeGrant(deps, realm, client, req);
    case 'password':
      return passwordGrant(deps, realm, client, req);
    case 'client_credentials':
      return clientCredentialsGrant(deps, realm, client, req);
    case 'refresh_token':
      return refreshGrant(deps, realm, client, req);
    default:
      throw KC.unsupportedGrantType();
  }
}

/** client_secret_basic or client_secret_post; public clients only name themselves. */
export function authenticateClient(deps: TokenDeps, realm: RealmRecord, form: URLSearchParams, authorization?: string): OidcClientRecord {
  let clientId = form.get('client_id') ?? undefined;
  let secret = form.get('client_secret') ?? undefined;
  if (authorization && /^basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw KC.invalidClient();
    // RFC 6749 2.3.1: both parts are form-urlencoded before base64.
    const dec = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    const basicId = dec(decoded.slice(0, colon));
    if (clientId !== undefined && clientId !== basicId) throw KC.invalidClient();
    clientId = basicId;
    secret = dec(decoded.slice(colon + 1));
  }
  if (!clientId) throw KC.missingClientId();
  const client = deps.store.oidcClient(realm, clientId);
  if (!client || !client.enabled) throw KC.invalidClient();
  if (client.publicClient) return client;
  if (!secret || !client.secret || !constantTimeEqual(secret, client.secret)) throw KC.invalidClient();
  return client;
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

async function passwordGrant(deps: TokenDeps, realm: RealmRecord, client: OidcClientRecord, req: TokenRequest): Promise<TokenResponse> {
  if (!client.directAccessGrantsEnabled) throw KC.noDirectGrants();
  const username = req.form.get('username');
  if (!username) throw KC.missingUsername();
  const user = await deps.store.authenticate(realm.realm, username, req.form.get('password') ?? '');
  if (user === 'disabled') throw KC.accountDisabled();
  if (user === 'invalid') throw KC.invalidUserCredentials();
  const session = deps.sessions.create(realm.realm, user.id, realm.ssoSessionIdleTimeout, realm.ssoSessionMaxLifespan);
  session.clients.add(client.clientId);
  return issueTokens(deps, realm, client, user, session.id, req.issuer, req.form.get('scope') ?? '', true);
}

/** Keycloak's AuthorizationCodeGrantType: the checks and texts in its order. */
async function authorizationCodeGrant(deps: TokenDeps, realm: RealmRecord, client: OidcClientRecord, req: TokenRequest): Promise<TokenResponse> {
  const invalidGrant = (d: string) => new OAuthError(400, 'invalid_grant', d);
  const code = req.form.get('code');
  if (code === null) throw new OAuthError(400, 'invalid_request', 'Missing parameter: code');
  const data = deps.sessions.redeemCode(code);
  if (data === undefined || data === 'replayed') throw invalidGrant('Code not valid');
  if (data === 'expired') throw invalidGrant('Code is expired');
  if (data.realm !== realm.realm) throw invalidGrant('Code not valid');
  const session = deps.sessions.get(data.sessionId, realm.realm);
  if (!session) throw invalidGrant('User session not found');
  const user = realm.users.find((u) => u.id === session.userId);
  if (!user) throw invalidGrant('User not found');
  if (!user.enabled) throw invalidGrant('User disabled');
  if (data.redirectUriParam !== undefined && data.redirectUriParam !== (req.form.get('redirect_uri') ?? undefined)) throw invalidGrant('Incorrect redirect_uri');
  if (data.clientId !== client.clientId) throw invalidGrant('Auth error: Found different client_id in clientSession');
  if (!client.standardFlowEnabled) throw invalidGrant('Client not allowed to exchange code');
  if (!session.clients.has(client.clientId)) throw invalidGrant('Session not active');
  checkCodeVerifier(req.form.get('code_verifier') ?? undefined, data.codeChallenge, data.codeChallengeMethod);
  return issueTokens(deps, realm, client, user, session.id, req.issuer, data.scope, true, data.nonce);
}

async function clientCredentialsGrant(deps: TokenDeps, realm: RealmRecord, client: OidcClientRecord, req: TokenRequest): Promise<TokenResponse> {
  if (client.publicClient) throw KC.publicServiceAccount();
  if (!client.serviceAccountsEnabled) throw KC.noServiceAccount();
  const serviceUser: UserRecord = {
    id: client.id,
    username: `service-account-${client.clientId}`,
    enabled: true,
    createdTimestamp: 0,
    realmRoles: [],
    groups: [],
    attributes: {},
    credentials: [],
  };
  // Keycloak (since 12) issues no refresh token to client_credentials by default.
  return issueTokens(deps, realm, client, serviceUser, undefined, req.issuer, req.form.get('scope') ?? '', false);
}

async function refreshGrant(deps: TokenDeps, realm: RealmRecord, client: OidcClientRecord, req: TokenRequest): Promise<TokenResponse> {
  const token = req.form.get('refresh_token');
  if (!token) throw KC.missingRefreshToken();
  const claims = await verifyRefreshJwt(deps.keys, token, { issuer: req.issuer, now: deps.clock.now() });
  if (claims === 'expired') throw KC.refreshNotActive();
  if (!claims) throw KC.invalidRefreshToken();
  if (claims.azp !== client.clientId) throw KC.refreshClientMismatch();
  const session = deps.sessions.get(typeof claims.sid === 'string' ? claims.sid : undefined, realm.realm);
  if (!session) throw KC.sessionNotActive();
  if (!session.clients.has(client.clientId)) throw KC.sessionWithoutClient();
  const user = realm.users.find((u) => u.id === claims.sub);
  if (!user || !user.enabled) throw KC.invalidRefreshToken();
  return issueTokens(deps, realm, client, user, session.id, req.issuer, typeof claims.scope === 'string' ? claims.scope : '', true);
}

async function issueTokens(
  deps: TokenDeps,
  realm: RealmRecord,
  client: OidcClientRecord,
  user: UserRecord,
  sid: string | undefined,
  issuer: string,
  requestedScope: string,
  withRefresh: boolean,
  nonce?: string,
): Promise<TokenResponse> {
  const iat = Math.floor(deps.clock.now() / 1000);
  const session = sid ? deps.sessions.get(sid, realm.realm) : undefined;
  const authTime = session ? { auth_time: Math.floor(session.started / 1000) } : {};
  const exp = iat + realm.accessTokenLifespan;
  const wantsOpenId = requestedScope.split(/\s+/).includes('openid');
  const scope = [...(wantsOpenId ? ['openid'] : []), 'profile', 'email'].join(' ');
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const profile = {
    email_verified: false,
    ...(name ? { name } : {}),
    preferred_username: user.username,
    ...(user.firstName ? { given_name: user.firstName } : {}),
    ...(user.lastName ? { family_name: user.lastName } : {}),
    ...(user.email ? { email: user.email } : {}),
  };
  const roles = deps.store.effectiveRoles(realm, user, client);
  const access = await signJwt(
    deps.keys,
    {
      exp,
      iat,
      jti: jti(),
      iss: issuer,
      aud: client.clientId,
      sub: user.id,
      typ: 'Bearer',
      azp: client.clientId,
      ...(sid ? { sid } : {}),
      acr: '1',
      realm_access: { roles },
      scope,
      ...profile,
    },
    'JWT',
  );
  const out: TokenResponse = {
    access_token: access,
    expires_in: realm.accessTokenLifespan,
    refresh_expires_in: 0,
    token_type: 'Bearer',
    'not-before-policy': 0,
    ...(sid ? { session_state: sid } : {}),
    scope,
  };
  if (wantsOpenId) {
    // at_hash: the left half of the access token's SHA-256, as OIDC Core 3.1.3.6 defines for RS256.
    const atHash = createHash('sha256').update(access).digest().subarray(0, 16).toString('base64url');
    out.id_token = await signJwt(deps.keys, {
      exp,
      iat,
      ...authTime,
      jti: jti(),
      iss: issuer,
      aud: client.clientId,
      sub: user.id,
      typ: 'ID',
      azp: client.clientId,
      ...(nonce !== undefined ? { nonce } : {}),
      ...(sid ? { sid } : {}),
      at_hash: atHash,
      acr: '1',
      ...profile,
    });
  }
  if (withRefresh && session) {
    const refreshExp = Math.min(iat + realm.ssoSessionIdleTimeout, Math.floor((session.started + realm.ssoSessionMaxLifespan * 1000) / 1000));
    out.refresh_expires_in = refreshExp - iat;
    out.refresh_token = await signRefreshJwt(deps.keys, { exp: refreshExp, iat, jti: jti(), iss: issuer, aud: issuer, sub: user.id, typ: 'Refresh', azp: client.clientId, sid: session.id, scope });
  }
  return out;
}

export { OAuthError };
