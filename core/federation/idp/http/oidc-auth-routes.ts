/**
 * The OpenID Connect authorization endpoint (`/protocol/openid-connect/auth`, GET or POST):
 * the authorization-code flow with PKCE. A browser with a live SSO session gets its code at
 * once; otherwise the login page is shown and `finishOidcLogin` answers after the password is
 * checked. The answer goes to the verified redirect URI in the response mode asked for.
 */
import type { Router } from '../../../common/http.js';
import type { IdpEngine } from '../engine.js';
import type { OidcClientRecord, RealmRecord } from '../model.js';
import type { OidcAuthorization, OidcPendingLogin, ResponseMode, UserSession } from '../sessions.js';
import { checkAuthorizationRequest, authorizationResponseUrl } from '../../oidc/authorization-request.js';
import { errorPage, formPostPage } from './pages.js';
import { type HttpCtx, SESSION_COOKIE, AUTH_SESSION_COOKIE, LOGIN_FORM_LIFESPAN, realmUrl, realmOr404, readForm, cookie, sendHtml, sendRedirect, showLoginPage } from './context.js';

export function addOidcAuthRoutes(router: Router<HttpCtx>, engine: IdpEngine, prefix: string): void {
  const path = `${prefix}/realms/:realm/protocol/openid-connect/auth`;
  router.add('GET', path, (ctx, p) => authorize(engine, ctx, prefix, p.realm!, ctx.url.searchParams));
  router.add('POST', path, async (ctx, p) => authorize(engine, ctx, prefix, p.realm!, await readForm(ctx)));
}

function authorize(engine: IdpEngine, ctx: HttpCtx, prefix: string, realmName: string, params: URLSearchParams): void {
  const realm = realmOr404(engine, ctx, realmName);
  if (!realm) return;
  const outcome = checkAuthorizationRequest(realm, params, ctx.base);
  if (outcome.kind === 'page') return sendHtml(ctx, outcome.status, errorPage(outcome.message));
  const issuer = realmUrl(ctx, prefix, realm.realm);
  if (outcome.kind === 'error') {
    const fields: [string, string][] = [['error', outcome.error]];
    if (outcome.description !== undefined) fields.push(['error_description', outcome.description]);
    if (outcome.state !== undefined) fields.push(['state', outcome.state]);
    fields.push(['iss', issuer]);
    return respond(ctx, outcome.redirectUri, outcome.responseMode, fields);
  }
  const { client, authorization, prompt } = outcome;
  const session = prompt.includes('login') ? undefined : engine.sessions.get(cookie(ctx, SESSION_COOKIE), realm.realm);
  if (session && realm.users.some((u) => u.id === session.userId && u.enabled)) return answerWithCode(engine, ctx, issuer, realm, client, session, authorization);
  if (prompt.includes('none')) {
    const fields: [string, string][] = [['error', 'login_required'], ...(authorization.state !== undefined ? [['state', authorization.state] as [string, string]] : []), ['iss', issuer]];
    return respond(ctx, authorization.redirectUri, authorization.responseMode, fields);
  }
  const pending = engine.sessions.addPending({ protocol: 'openid-connect', realm: realm.realm, clientId: client.id, ...authorization }, LOGIN_FORM_LIFESPAN, cookie(ctx, AUTH_SESSION_COOKIE));
  showLoginPage(engine, ctx, prefix, realm, pending, authorization.loginHint ? { username: authorization.loginHint } : {});
}

/** After the login form: the user is authenticated and `session` is new; answer the client. */
export function finishOidcLogin(engine: IdpEngine, ctx: HttpCtx, prefix: string, realm: RealmRecord, pending: OidcPendingLogin, session: UserSession, headers: Record<string, string>): void {
  const client = realm.clients.find((c): c is OidcClientRecord => c.id === pending.clientId && c.protocol === 'openid-connect' && c.enabled);
  if (!client) return sendHtml(ctx, 400, errorPage('Client disabled.'));
  answerWithCode(engine, ctx, realmUrl(ctx, prefix, realm.realm), realm, client, session, pending, headers);
}

function answerWithCode(engine: IdpEngine, ctx: HttpCtx, issuer: string, realm: RealmRecord, client: OidcClientRecord, session: UserSession, a: OidcAuthorization, headers: Record<string, string> = {}): void {
  session.clients.add(client.clientId);
  // Keycloak's order: state, session_state, iss, code.
  const fields: [string, string][] = [];
  if (a.state !== undefined) fields.push(['state', a.state]);
  fields.push(['session_state', session.id], ['iss', issuer]);
  if (a.responseType === 'code') {
    const code = engine.sessions.issueCode(
      {
        realm: realm.realm,
        clientId: client.clientId,
        sessionId: session.id,
        scope: a.scope,
        ...(a.redirectUriParam !== undefined ? { redirectUriParam: a.redirectUriParam } : {}),
        ...(a.nonce !== undefined ? { nonce: a.nonce } : {}),
        ...(a.codeChallenge !== undefined ? { codeChallenge: a.codeChallenge, codeChallengeMethod: a.codeChallengeMethod! } : {}),
      },
      realm.accessCodeLifespan,
    );
    fields.push(['code', code.code]);
  }
  respond(ctx, a.redirectUri, a.responseMode, fields, headers);
}

function respond(ctx: HttpCtx, redirectUri: string, mode: ResponseMode, fields: [string, string][], headers: Record<string, string> = {}): void {
  if (mode === 'form_post') return sendHtml(ctx, 200, formPostPage(redirectUri, fields), headers);
  sendRedirect(ctx, authorizationResponseUrl(redirectUri, mode, fields), headers);
}
