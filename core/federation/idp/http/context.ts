/** What every IdP route gets, and the small HTTP pieces the browser-facing routes share. */
import type http from 'node:http';
import { sendJson, sendText, readBody } from '../../../common/http.js';
import { OAuthError } from '../../oidc/errors.js';
import type { IdpEngine } from '../engine.js';
import type { RealmRecord } from '../model.js';
import type { PendingLogin } from '../sessions.js';
import { loginPage } from './pages.js';

export interface HttpCtx {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  url: URL;
  /** scheme://host:port as the client addressed us. */
  base: string;
  secure: boolean;
}

export const SESSION_COOKIE = 'KEYCLOAK_IDENTITY';
const FORM_LIMIT = 1024 * 1024;
/** Keycloak's "Login action timeout" (accessCodeLifespanLogin): 30 minutes to fill the login form. */
export const LOGIN_FORM_LIFESPAN = 1800;

/** The realm URL (issuer / SAML entity id) as seen through this request, with its /auth prefix if used. */
export function realmUrl(ctx: HttpCtx, prefix: string, realm: string): string {
  return `${ctx.base}${prefix}/realms/${encodeURIComponent(realm)}`;
}

export const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
const htmlHeaders = { ...noStore, 'x-frame-options': 'SAMEORIGIN', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

export function sendHtml(ctx: HttpCtx, status: number, body: string, extra: Record<string, string | string[]> = {}): void {
  sendText(ctx.res, status, body, 'text/html;charset=utf-8', { ...htmlHeaders, ...(extra as Record<string, string>) });
}

/** A 302 that the browser follows, never cached (Keycloak's noBackButtonCacheControlHeader). */
export function sendRedirect(ctx: HttpCtx, location: string, extra: Record<string, string | string[]> = {}): void {
  ctx.res.writeHead(302, { location, 'content-length': 0, ...noStore, ...(extra as Record<string, string>) });
  ctx.res.end();
}

export function realmOr404(engine: IdpEngine, ctx: HttpCtx, name: string): RealmRecord | undefined {
  if (!engine.store.hasRealm(name)) {
    sendJson(ctx.res, 404, { error: 'Realm does not exist' });
    return undefined;
  }
  return engine.store.realm(name);
}

export async function readForm(ctx: HttpCtx): Promise<URLSearchParams> {
  const ct = ctx.req.headers['content-type'] ?? '';
  const body = await readBody(ctx.req, FORM_LIMIT);
  if (body.length > 0 && !/application\/x-www-form-urlencoded/i.test(ct)) throw new OAuthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
  return new URLSearchParams(body.toString('utf8'));
}

export function cookie(ctx: HttpCtx, name: string): string | undefined {
  for (const part of (ctx.req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

export function sessionCookie(ctx: HttpCtx, prefix: string, realm: string, value: string, maxAge: number): string {
  return `${SESSION_COOKIE}=${value}; Version=1; Path=${prefix}/realms/${encodeURIComponent(realm)}/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${ctx.secure ? '; Secure' : ''}`;
}

/** Where the login form posts (Keycloak's login-actions): session_code, execution, client_id and tab_id. */
export function loginAction(ctx: HttpCtx, prefix: string, realm: RealmRecord, pending: PendingLogin): string {
  const clientId = realm.clients.find((c) => c.id === pending.clientId)?.clientId ?? '';
  const q = new URLSearchParams({ session_code: pending.code, execution: pending.execution, client_id: clientId, tab_id: pending.tabId });
  return `${realmUrl(ctx, prefix, realm.realm)}/login-actions/authenticate?${q}`;
}

/** Keycloak's authentication-session cookie: which browser a pending login belongs to. */
export const AUTH_SESSION_COOKIE = 'AUTH_SESSION_ID';

export function authSessionCookie(ctx: HttpCtx, prefix: string, realm: string, rootId: string): string {
  // SameSite=None lets a legitimate cross-site start (an SP's POST binding) keep its login; the
  // tab_id/session_code binding, not SameSite, is what stops a forged form.
  return `${AUTH_SESSION_COOKIE}=${rootId}; Path=${prefix}/realms/${encodeURIComponent(realm)}/; HttpOnly${ctx.secure ? '; SameSite=None; Secure' : '; SameSite=Lax'}`;
}

/** The login page for a pending login, with a fresh session_code and the AUTH_SESSION_ID cookie. */
export function showLoginPage(engine: IdpEngine, ctx: HttpCtx, prefix: string, realm: RealmRecord, pending: PendingLogin, extra: { username?: string; error?: string } = {}): void {
  engine.sessions.renewCode(pending);
  const page = loginPage({ realmDisplayName: realm.displayName ?? realm.realm, action: loginAction(ctx, prefix, realm, pending), ...extra });
  sendHtml(ctx, 200, page, { 'set-cookie': authSessionCookie(ctx, prefix, realm.realm, pending.rootId) });
}
