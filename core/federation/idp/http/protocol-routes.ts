/**
 * Keycloak's public endpoints over HTTP: discovery, JWKS, token, userinfo, SAML descriptor,
 * IdP-initiated SSO, SP-initiated SSO and the login form (the OIDC authorization endpoint is in
 * oidc-auth-routes.ts). Every route exists with and without `/auth`.
 */
import { sendJson, sendText, type Router } from '../../../common/http.js';
import type { IdpEngine } from '../engine.js';
import { openIdConfiguration } from '../../oidc/discovery.js';
import { handleTokenRequest } from '../../oidc/token-endpoint.js';
import { OAuthError } from '../../oidc/errors.js';
import { decodeAuthnRequest, AuthnRequestError } from '../../saml/authn-request.js';
import { buildSignedLogin } from '../saml-login.js';
import { autoPostForm, errorPage, INVALID_CREDENTIALS, ACCOUNT_DISABLED, COOKIE_NOT_FOUND, LOGIN_TIMEOUT, EXPIRED_ACTION } from './pages.js';
import type { RealmRecord, SamlClientRecord } from '../model.js';
import type { PendingLogin, SamlPendingLogin } from '../sessions.js';
import { type HttpCtx, SESSION_COOKIE, AUTH_SESSION_COOKIE, LOGIN_FORM_LIFESPAN, realmUrl, noStore, sendHtml, realmOr404, readForm, cookie, sessionCookie, showLoginPage } from './context.js';
import { addOidcAuthRoutes, finishOidcLogin } from './oidc-auth-routes.js';
import { addOidcSessionRoutes } from './oidc-session-routes.js';
import { inspectToken } from '../../oidc/token-inspection.js';

export { type HttpCtx, SESSION_COOKIE, realmUrl } from './context.js';

export function addProtocolRoutes(router: Router<HttpCtx>, engine: IdpEngine): void {
  for (const prefix of ['', '/auth']) {
    const r = `${prefix}/realms/:realm`;

    router.add('GET', r, (ctx, p) => {
      const realm = realmOr404(engine, ctx, p.realm!);
      if (!realm) return;
      const url = realmUrl(ctx, prefix, realm.realm);
      const pub = engine.keys.active.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
      sendJson(ctx.res, 200, { realm: realm.realm, public_key: pub, 'token-service': `${url}/protocol/openid-connect`, 'account-service': `${url}/account`, 'tokens-not-before': 0 });
    });

    router.add('GET', `${r}/.well-known/openid-configuration`, (ctx, p) => {
      const realm = realmOr404(engine, ctx, p.realm!);
      if (realm) sendJson(ctx.res, 200, openIdConfiguration(realmUrl(ctx, prefix, realm.realm)));
    });

    router.add('GET', `${r}/protocol/openid-connect/certs`, (ctx, p) => {
      const realm = realmOr404(engine, ctx, p.realm!);
      if (realm) sendJson(ctx.res, 200, engine.keys.jwks(), { 'cache-control': 'no-cache' });
    });

    router.add('POST', `${r}/protocol/openid-connect/token`, async (ctx, p) => {
      try {
        const form = await readForm(ctx);
        const body = await handleTokenRequest(engine, {
          realm: p.realm!,
          issuer: realmUrl(ctx, prefix, p.realm!),
          form,
          ...(ctx.req.headers.authorization ? { authorization: ctx.req.headers.authorization } : {}),
        });
        sendJson(ctx.res, 200, body, noStore);
      } catch (err) {
        if (err instanceof OAuthError) {
          if (err.status === 404) return sendJson(ctx.res, 404, { error: err.error });
          return sendJson(ctx.res, err.status, err.toJSON(), noStore);
        }
        throw err;
      }
    });

    // UserInfo: the profile claims of a valid access token of this realm.
    const userinfo = async (ctx: HttpCtx, p: Record<string, string>) => {
      const realm = realmOr404(engine, ctx, p.realm!);
      if (!realm) return;
      const m = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '');
      // A revoked token or one whose session ended is no longer good here either.
      const found = m ? await inspectToken(engine, realm, realmUrl(ctx, prefix, realm.realm), m[1]!) : undefined;
      const claims = found?.kind === 'access' ? found.claims : undefined;
      const user = typeof claims === 'object' ? realm.users.find((u) => u.id === claims.sub && u.enabled) : undefined;
      if (!user || typeof claims !== 'object') {
        const error = m ? 'invalid_token' : 'invalid_request';
        const description = m ? 'Token verification failed' : 'Missing token';
        return sendJson(ctx.res, 401, { error, error_description: description }, { 'www-authenticate': `Bearer realm="${realm.realm}", error="${error}", error_description="${description}"` });
      }
      const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
      sendJson(ctx.res, 200, {
        sub: user.id,
        email_verified: false,
        ...(name ? { name } : {}),
        preferred_username: user.username,
        ...(user.firstName ? { given_name: user.firstName } : {}),
        ...(user.lastName ? { family_name: user.lastName } : {}),
        ...(user.email ? { email: user.email } : {}),
      });
    };
    router.add(['GET', 'POST'], `${r}/protocol/openid-connect/userinfo`, userinfo);

    router.add('GET', `${r}/protocol/saml/descriptor`, (ctx, p) => {
      const realm = realmOr404(engine, ctx, p.realm!);
      if (realm) sendText(ctx.res, 200, engine.descriptor(realmUrl(ctx, prefix, realm.realm)), 'application/xml;charset=utf-8');
    });

    // IdP-initiated SSO: the login page, or straight to the auto-post form when a session exists.
    router.add('GET', `${r}/protocol/saml/clients/:urlName`, (ctx, p) => idpInitiated(engine, ctx, prefix, p.realm!, p.urlName!, ctx.url.searchParams));
    router.add('POST', `${r}/protocol/saml/clients/:urlName`, async (ctx, p) => idpInitiated(engine, ctx, prefix, p.realm!, p.urlName!, await readForm(ctx)));

    // SP-initiated SSO: an AuthnRequest by HTTP-Redirect (GET, deflated) or HTTP-POST.
    router.add('GET', `${r}/protocol/saml`, (ctx, p) => spInitiated(engine, ctx, prefix, p.realm!, ctx.url.searchParams, 'redirect'));
    router.add('POST', `${r}/protocol/saml`, async (ctx, p) => spInitiated(engine, ctx, prefix, p.realm!, await readForm(ctx), 'post'));

    addOidcAuthRoutes(router, engine, prefix);
    addOidcSessionRoutes(router, engine, prefix);

    router.add('POST', `${r}/login-actions/authenticate`, async (ctx, p) => {
      const realm = realmOr404(engine, ctx, p.realm!);
      if (!realm) return;
      const form = await readForm(ctx);
      // Keycloak's SessionCodeChecks: the tab must belong to this browser's AUTH_SESSION_ID.
      const q = ctx.url.searchParams;
      const root = cookie(ctx, AUTH_SESSION_COOKIE);
      if (!root) return sendHtml(ctx, 400, errorPage(COOKIE_NOT_FOUND));
      const pending = engine.sessions.getPending(root, q.get('tab_id') ?? undefined);
      if (!pending || pending.realm !== realm.realm) return sendHtml(ctx, 400, errorPage(LOGIN_TIMEOUT));
      if (q.get('session_code') !== pending.code || q.get('execution') !== pending.execution) {
        // A stale or forged code for a live tab: the form again, as Keycloak re-renders it.
        return showLoginPage(engine, ctx, prefix, realm, pending, { error: EXPIRED_ACTION });
      }
      await submitCredentials(engine, ctx, prefix, realm, pending, form);
    });
  }
}

function samlClientFor(realm: RealmRecord, pending: SamlPendingLogin): SamlClientRecord | undefined {
  const c = realm.clients.find((x) => x.id === pending.clientId);
  return c && c.protocol === 'saml' && c.enabled ? c : undefined;
}

/** Credentials are only taken by the login form's action, never with the SSO request (that would be a login CSRF). */
async function idpInitiated(engine: IdpEngine, ctx: HttpCtx, prefix: string, realmName: string, urlName: string, params: URLSearchParams): Promise<void> {
  const realm = realmOr404(engine, ctx, realmName);
  if (!realm) return;
  const client = engine.store.samlClientByUrlName(realm, urlName);
  if (!client) return sendHtml(ctx, 400, errorPage('Client not found.'));
  if (!client.enabled) return sendHtml(ctx, 400, errorPage('Login requester not enabled.'));
  const relayState = params.get('RelayState') ?? client.defaultRelayState;
  const pending = engine.sessions.addPending(
    { protocol: 'saml', realm: realm.realm, clientId: client.id, acsUrl: client.acsUrls[0]!, ...(relayState !== undefined ? { relayState } : {}) },
    LOGIN_FORM_LIFESPAN,
    cookie(ctx, AUTH_SESSION_COOKIE),
  );
  return continueOrLogin(engine, ctx, prefix, realm, client, pending as SamlPendingLogin, false);
}

async function spInitiated(engine: IdpEngine, ctx: HttpCtx, prefix: string, realmName: string, params: URLSearchParams, binding: 'redirect' | 'post'): Promise<void> {
  const realm = realmOr404(engine, ctx, realmName);
  if (!realm) return;
  const samlRequest = params.get('SAMLRequest');
  if (!samlRequest) return sendHtml(ctx, 400, errorPage('Invalid Request'));
  let authn;
  try {
    authn = decodeAuthnRequest(samlRequest, binding);
  } catch (err) {
    if (err instanceof AuthnRequestError) return sendHtml(ctx, 400, errorPage(`Invalid Request: ${err.message}`));
    throw err;
  }
  const candidates = realm.clients.filter((c): c is SamlClientRecord => c.protocol === 'saml' && c.clientId === authn.issuer);
  if (candidates.length === 0) return sendHtml(ctx, 400, errorPage('Unknown login requester.'));
  const enabled = candidates.filter((c) => c.enabled);
  if (enabled.length === 0) return sendHtml(ctx, 400, errorPage('Login requester not enabled.'));
  // The response goes only to an ACS registered for the client, never to one the request makes up.
  const acs = authn.assertionConsumerServiceUrl;
  const client = acs ? enabled.find((c) => c.acsUrls.includes(acs)) : enabled[0];
  if (!client) return sendHtml(ctx, 400, errorPage('Invalid redirect uri.'));
  const relayState = params.get('RelayState') ?? undefined;
  const pending = engine.sessions.addPending(
    { protocol: 'saml', realm: realm.realm, clientId: client.id, acsUrl: acs ?? client.acsUrls[0]!, inResponseTo: authn.id, ...(relayState !== undefined ? { relayState } : {}) },
    LOGIN_FORM_LIFESPAN,
    cookie(ctx, AUTH_SESSION_COOKIE),
  );
  return continueOrLogin(engine, ctx, prefix, realm, client, pending as SamlPendingLogin, authn.forceAuthn);
}

async function continueOrLogin(engine: IdpEngine, ctx: HttpCtx, prefix: string, realm: RealmRecord, client: SamlClientRecord, pending: SamlPendingLogin, forceAuthn: boolean): Promise<void> {
  const session = forceAuthn ? undefined : engine.sessions.get(cookie(ctx, SESSION_COOKIE), realm.realm);
  const user = session && realm.users.find((u) => u.id === session.userId && u.enabled);
  if (session && user) {
    engine.sessions.takePending(pending.id);
    session.clients.add(client.id);
    const form = buildSignedLogin(engine, realm, client, user, session, postInput(ctx, prefix, realm, pending));
    return sendHtml(ctx, 200, autoPostForm(form.acsUrl, { SAMLResponse: form.samlResponse, ...(form.relayState !== undefined ? { RelayState: form.relayState } : {}) }));
  }
  showLoginPage(engine, ctx, prefix, realm, pending);
}

function postInput(ctx: HttpCtx, prefix: string, realm: RealmRecord, pending: SamlPendingLogin) {
  return {
    issuer: realmUrl(ctx, prefix, realm.realm),
    acsUrl: pending.acsUrl,
    ...(pending.relayState !== undefined ? { relayState: pending.relayState } : {}),
    ...(pending.inResponseTo ? { inResponseTo: pending.inResponseTo } : {}),
  };
}

async function submitCredentials(engine: IdpEngine, ctx: HttpCtx, prefix: string, realm: RealmRecord, pending: PendingLogin, form: URLSearchParams): Promise<void> {
  const client = pending.protocol === 'saml' ? samlClientFor(realm, pending) : realm.clients.find((c) => c.id === pending.clientId && c.enabled);
  if (!client) return sendHtml(ctx, 400, errorPage(pending.protocol === 'saml' ? 'Login requester not enabled.' : 'Client disabled.'));
  const username = form.get('username') ?? '';
  const user = username ? await engine.store.authenticate(realm.realm, username, form.get('password') ?? '') : 'invalid';
  if (user === 'invalid' || user === 'disabled') {
    // Keycloak answers a failed login with the form again (200) and the message above it.
    const error = user === 'disabled' ? ACCOUNT_DISABLED : INVALID_CREDENTIALS;
    return showLoginPage(engine, ctx, prefix, realm, pending, { username, error });
  }
  const session = engine.sessions.create(realm.realm, user.id, realm.ssoSessionIdleTimeout, realm.ssoSessionMaxLifespan);
  engine.sessions.takePending(pending.id);
  const setCookie = { 'set-cookie': sessionCookie(ctx, prefix, realm.realm, session.id, realm.ssoSessionMaxLifespan) };
  if (pending.protocol === 'openid-connect') return finishOidcLogin(engine, ctx, prefix, realm, pending, session, setCookie);
  session.clients.add(client.id);
  const post = buildSignedLogin(engine, realm, client as SamlClientRecord, user, session, postInput(ctx, prefix, realm, pending));
  sendHtml(ctx, 200, autoPostForm(post.acsUrl, { SAMLResponse: post.samlResponse, ...(post.relayState !== undefined ? { RelayState: post.relayState } : {}) }), setCookie);
}
