/**
 * The OIDC endpoints that end or inspect what was issued, as Keycloak serves them:
 * RFC 7662 introspection (`/token/introspect`), RFC 7009 revocation (`/revoke`) and
 * RP-initiated logout (`/logout`: id_token_hint, post_logout_redirect_uri, state; without a
 * hint a confirmation page; a back-channel POST with a refresh_token answers 204).
 */
import { sendJson, type Router } from '../../../common/http.js';
import type { IdpEngine } from '../engine.js';
import type { OidcClientRecord, RealmRecord } from '../model.js';
import { authenticateClient } from '../../oidc/token-endpoint.js';
import { OAuthError } from '../../oidc/errors.js';
import { inspectToken } from '../../oidc/token-inspection.js';
import { verifyOwnJwt } from '../../oidc/tokens.js';
import { verifyRedirectUri } from '../../oidc/redirect-uri.js';
import { authorizationResponseUrl } from '../../oidc/authorization-request.js';
import { errorPage, infoPage, logoutConfirmPage } from './pages.js';
import { type HttpCtx, SESSION_COOKIE, realmUrl, realmOr404, readForm, cookie, sendHtml, sendRedirect, noStore } from './context.js';
import { randomToken } from '../../../common/ids.js';

export function addOidcSessionRoutes(router: Router<HttpCtx>, engine: IdpEngine, prefix: string): void {
  const base = `${prefix}/realms/:realm/protocol/openid-connect`;
  router.add('POST', `${base}/token/introspect`, (ctx, p) => jsonErrors(ctx, () => introspect(engine, ctx, prefix, p.realm!)));
  router.add('POST', `${base}/revoke`, (ctx, p) => jsonErrors(ctx, () => revoke(engine, ctx, prefix, p.realm!)));
  router.add('GET', `${base}/logout`, (ctx, p) => logout(engine, ctx, prefix, p.realm!, ctx.url.searchParams));
  router.add('POST', `${base}/logout`, async (ctx, p) => logout(engine, ctx, prefix, p.realm!, await readForm(ctx)));
  router.add('POST', `${base}/logout/logout-confirm`, async (ctx, p) => confirmLogout(engine, ctx, prefix, p.realm!, await readForm(ctx)));
}

async function jsonErrors(ctx: HttpCtx, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    if (err.status === 404) return sendJson(ctx.res, 404, { error: err.error });
    sendJson(ctx.res, err.status, err.toJSON(), noStore);
  }
}

/** Keycloak's TokenIntrospectionEndpoint: confidential clients only; inactive tokens are {"active":false}. */
async function introspect(engine: IdpEngine, ctx: HttpCtx, prefix: string, realmName: string): Promise<void> {
  const realm = realmOr404(engine, ctx, realmName);
  if (!realm) return;
  const form = await readForm(ctx);
  let client: OidcClientRecord;
  try {
    client = authenticateClient(engine, realm, form, ctx.req.headers.authorization);
  } catch {
    throw new OAuthError(401, 'invalid_request', 'Authentication failed.');
  }
  if (client.publicClient) throw new OAuthError(403, 'invalid_request', 'Client not allowed.');
  for (const k of new Set(form.keys())) if (form.getAll(k).length !== 1) throw new OAuthError(400, 'invalid_request', 'duplicated parameter');
  const hint = form.get('token_type_hint') ?? 'access_token';
  const token = form.get('token');
  if (token === null) throw new OAuthError(400, 'invalid_request', 'Token not provided.');
  if (!['access_token', 'refresh_token', 'id_token', 'requesting_party_token'].includes(hint)) throw new OAuthError(400, 'invalid_request', 'Unsupported token type.');
  const found = await inspectToken(engine, realm, realmUrl(ctx, prefix, realm.realm), token);
  if (!found) return sendJson(ctx.res, 200, { active: false }, noStore);
  const c = found.claims;
  sendJson(
    ctx.res,
    200,
    {
      ...c,
      ...(typeof c.azp === 'string' ? { client_id: c.azp } : {}),
      ...(typeof c.preferred_username === 'string' ? { username: c.preferred_username } : {}),
      token_type: found.kind === 'refresh' ? 'Refresh' : found.kind === 'id' ? 'ID' : 'Bearer',
      active: true,
    },
    noStore,
  );
}

/** Keycloak's TokenRevocationEndpoint: a refresh token ends its client's sessions, an access token is remembered as revoked. */
async function revoke(engine: IdpEngine, ctx: HttpCtx, prefix: string, realmName: string): Promise<void> {
  const realm = realmOr404(engine, ctx, realmName);
  if (!realm) return;
  const form = await readForm(ctx);
  const client = authenticateClient(engine, realm, form, ctx.req.headers.authorization);
  const token = form.get('token');
  if (token === null) throw new OAuthError(400, 'invalid_request', 'Token not provided');
  const found = await inspectToken(engine, realm, realmUrl(ctx, prefix, realm.realm), token);
  // RFC 7009 2.2: an invalid token is no error for the client; Keycloak says so with a 200.
  if (!found) return sendJson(ctx.res, 200, { error: 'invalid_token', error_description: 'Invalid token' }, noStore);
  if (found.kind === 'id') throw new OAuthError(400, 'unsupported_token_type', 'Unsupported token type');
  if (found.claims.azp !== client.clientId) throw new OAuthError(400, 'invalid_request', 'Unmatching clients');
  if (found.kind === 'refresh') {
    // The client's sessions of that user end; a user session left with no client ends too.
    for (const s of engine.sessions.forUser(realm.realm, String(found.claims.sub))) {
      s.clients.delete(client.clientId);
      if (s.clients.size === 0) engine.sessions.remove(s.id);
    }
  } else {
    engine.sessions.revokeToken(String(found.claims.jti), Math.max(Number(found.claims.exp) * 1000, engine.clock.now() + 10_000));
  }
  ctx.res.writeHead(200, { 'content-length': 0, ...noStore });
  ctx.res.end();
}

/** Logout confirmations waiting for the user's click: code → what to do then. */
const confirmations = new Map<string, { realm: string; sessionId?: string; redirect?: string; state?: string; expires: number }>();

async function logout(engine: IdpEngine, ctx: HttpCtx, prefix: string, realmName: string, params: URLSearchParams): Promise<void> {
  const realm = realmOr404(engine, ctx, realmName);
  if (!realm) return;
  const issuer = realmUrl(ctx, prefix, realm.realm);
  // Back-channel logout (Keycloak's POST with client authentication and refresh_token): 204.
  if (ctx.req.method === 'POST' && params.has('refresh_token')) {
    return jsonErrors(ctx, async () => {
      const client = authenticateClient(engine, realm, params, ctx.req.headers.authorization);
      const found = await inspectToken(engine, realm, issuer, params.get('refresh_token')!);
      if (!found || found.kind !== 'refresh') throw new OAuthError(400, 'invalid_grant', 'Invalid refresh token');
      if (found.claims.azp !== client.clientId) throw new OAuthError(400, 'invalid_grant', "Invalid refresh token. Token client and authorized client don't match");
      if (typeof found.claims.sid === 'string') engine.sessions.remove(found.claims.sid);
      ctx.res.writeHead(204, noStore);
      ctx.res.end();
    });
  }
  const hint = params.get('id_token_hint') ?? undefined;
  const redirectParam = params.get('post_logout_redirect_uri') ?? undefined;
  const clientIdParam = params.get('client_id') ?? undefined;
  const state = params.get('state') ?? undefined;
  if (redirectParam && !hint && !clientIdParam) return sendHtml(ctx, 400, errorPage('Missing parameters: id_token_hint'));
  let hintClaims;
  if (hint) {
    const c = await verifyOwnJwt(engine.keys, hint, { issuer, now: engine.clock.now(), typ: 'ID', allowExpired: true });
    if (typeof c !== 'object') return sendHtml(ctx, 400, errorPage('Invalid parameter: id_token_hint'));
    hintClaims = c;
  }
  const clientId = clientIdParam ?? (typeof hintClaims?.azp === 'string' ? hintClaims.azp : undefined);
  if (clientIdParam && hintClaims && hintClaims.azp !== clientIdParam) return sendHtml(ctx, 400, errorPage('Parameter client_id does not match the client from id_token_hint'));
  let redirect: string | undefined;
  if (redirectParam) {
    const client = realm.clients.find((c): c is OidcClientRecord => c.clientId === clientId && c.protocol === 'openid-connect' && c.enabled);
    redirect = client ? verifyRedirectUri({ redirectUri: redirectParam, registered: client.redirectUris, required: true, origin: ctx.base }) : undefined;
    if (!redirect) return sendHtml(ctx, 400, errorPage('Invalid redirect uri'));
  }
  const cookieSession = engine.sessions.get(cookie(ctx, SESSION_COOKIE), realm.realm);
  const sessionId = cookieSession?.id ?? (typeof hintClaims?.sid === 'string' ? hintClaims.sid : undefined);
  // The hint proves the request comes from the client the user logged in to; without one the user confirms.
  if (!hintClaims) {
    if (!cookieSession) return finishLogout(ctx, prefix, realm, redirect, state);
    const code = randomToken(18);
    sweep(engine.clock.now());
    confirmations.set(code, { realm: realm.realm, sessionId, ...(redirect ? { redirect } : {}), ...(state !== undefined ? { state } : {}), expires: engine.clock.now() + 1_800_000 });
    return sendHtml(ctx, 200, logoutConfirmPage(`${issuer}/protocol/openid-connect/logout/logout-confirm`, code));
  }
  // The browser's session and the one the hint names both end.
  if (cookieSession) engine.sessions.remove(cookieSession.id);
  if (typeof hintClaims.sid === 'string') engine.sessions.remove(hintClaims.sid);
  return finishLogout(ctx, prefix, realm, redirect, state);
}

async function confirmLogout(engine: IdpEngine, ctx: HttpCtx, prefix: string, realmName: string, form: URLSearchParams): Promise<void> {
  const realm = realmOr404(engine, ctx, realmName);
  if (!realm) return;
  const code = form.get('session_code') ?? '';
  const pending = confirmations.get(code);
  confirmations.delete(code);
  const cookieSession = engine.sessions.get(cookie(ctx, SESSION_COOKIE), realm.realm);
  // Only the browser whose session it is may confirm (the cookie must name the same session).
  if (!pending || pending.realm !== realm.realm || pending.expires < engine.clock.now() || !cookieSession || cookieSession.id !== pending.sessionId) {
    return sendHtml(ctx, 400, errorPage('Logout failed'));
  }
  engine.sessions.remove(cookieSession.id);
  return finishLogout(ctx, prefix, realm, pending.redirect, pending.state);
}

function finishLogout(ctx: HttpCtx, prefix: string, realm: RealmRecord, redirect: string | undefined, state: string | undefined): void {
  const expire = `${SESSION_COOKIE}=; Version=1; Path=${prefix}/realms/${encodeURIComponent(realm.realm)}/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:10 GMT; HttpOnly; SameSite=Lax${ctx.secure ? '; Secure' : ''}`;
  if (redirect) return sendRedirect(ctx, state !== undefined ? authorizationResponseUrl(redirect, 'query', [['state', state]]) : redirect, { 'set-cookie': expire });
  sendHtml(ctx, 200, infoPage('You are logged out'), { 'set-cookie': expire });
}

function sweep(now: number): void {
  for (const [k, v] of confirmations) if (v.expires < now) confirmations.delete(k);
  // Bounded like the other login state.
  for (const k of confirmations.keys()) {
    if (confirmations.size <= 10_000) break;
    confirmations.delete(k);
  }
}
