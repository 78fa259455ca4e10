/**
 * The authorization endpoint's checks in Keycloak's order (AuthorizationEndpoint.process and
 * AuthorizationEndpointChecker), transport-free. Until the redirect URI is known good an error
 * is a page ("We are sorry..."); after that it goes back to the client as
 * `error`/`error_description`/`state`/`iss` in the response mode.
 */
import type { OidcClientRecord, RealmRecord } from '../idp/model.js';
import { enforcedPkceMethod } from '../idp/model.js';
import type { OidcAuthorization, ResponseMode } from '../idp/sessions.js';
import { verifyRedirectUri } from './redirect-uri.js';
import { checkAuthorizationPkce } from './pkce.js';
import { OAuthError } from './errors.js';

/** Client scopes a realm has by default (Keycloak's built-in ones); any other requested scope is invalid_scope. */
export const KNOWN_SCOPES = ['openid', 'profile', 'email', 'roles', 'web-origins', 'acr', 'basic', 'address', 'phone'] as const;

export type AuthorizationOutcome =
  | { kind: 'page'; status: number; message: string }
  | { kind: 'error'; redirectUri: string; responseMode: ResponseMode; error: string; description?: string; state?: string }
  | { kind: 'ok'; client: OidcClientRecord; authorization: OidcAuthorization; prompt: string[] };

const RESPONSE_TYPES = new Set(['code', 'token', 'id_token', 'none']);

export function checkAuthorizationRequest(realm: RealmRecord, params: URLSearchParams, origin: string): AuthorizationOutcome {
  const get = (k: string) => params.get(k) ?? undefined;
  if (!realm.enabled) return { kind: 'page', status: 400, message: 'Realm not enabled' };
  const clientId = get('client_id');
  if (!clientId) return { kind: 'page', status: 400, message: 'Missing parameters: client_id' };
  const any = realm.clients.find((c) => c.clientId === clientId);
  if (!any) return { kind: 'page', status: 400, message: 'Client not found.' };
  if (!any.enabled) return { kind: 'page', status: 400, message: 'Client disabled.' };
  if (any.protocol !== 'openid-connect') return { kind: 'page', status: 400, message: 'Wrong client protocol.' };
  const client = any;
  const scope = get('scope') ?? '';
  const isOidc = scope.split(' ').includes('openid');
  const redirectUri = verifyRedirectUri({ redirectUri: get('redirect_uri'), registered: client.redirectUris, required: isOidc, origin: client.baseUrl && /^https?:\/\//.test(client.baseUrl) ? new URL(client.baseUrl).origin : origin });
  if (!redirectUri) return { kind: 'page', status: 400, message: 'Invalid parameter: redirect_uri' };
  const state = get('state');
  const fail = (responseMode: ResponseMode, error: string, description?: string): AuthorizationOutcome => ({
    kind: 'error',
    redirectUri,
    responseMode,
    error,
    ...(description !== undefined ? { description } : {}),
    ...(state !== undefined ? { state } : {}),
  });

  const rawMode = get('response_mode');
  const responseType = get('response_type');
  // With no usable response_type Keycloak still honours an explicit fragment mode, else answers in the query.
  const modeWhenInvalid: ResponseMode = rawMode === 'fragment' ? 'fragment' : 'query';
  if (!responseType) return fail(modeWhenInvalid, 'invalid_request', 'Missing parameter: response_type');
  const types = responseType.split(' ').filter(Boolean);
  if (types.length === 0 || !types.every((t) => RESPONSE_TYPES.has(t)) || (types.includes('none') && types.length > 1)) return fail(modeWhenInvalid, 'unsupported_response_type');
  const implicitOrHybrid = types.includes('token') || types.includes('id_token');
  let responseMode: ResponseMode;
  if (rawMode === undefined) responseMode = implicitOrHybrid ? 'fragment' : 'query';
  else if (rawMode === 'query' || rawMode === 'fragment' || rawMode === 'form_post') responseMode = rawMode;
  else return fail('query', 'invalid_request', 'Invalid parameter: response_mode');
  if (implicitOrHybrid && responseMode === 'query') return fail('query', 'invalid_request', "Response_mode 'query' not allowed for implicit or hybrid flow");
  if ((types.includes('code') || types.includes('none')) && !client.standardFlowEnabled) {
    return fail(responseMode, 'unauthorized_client', 'Client is not allowed to initiate browser login with given response_type. Standard flow is disabled for the client.');
  }
  // Implicit and hybrid flows are off for every client here, as they are by default in Keycloak.
  if (implicitOrHybrid) return fail(responseMode, 'unauthorized_client', 'Client is not allowed to initiate browser login with given response_type. Implicit flow is disabled for the client.');

  if (params.has('request') || params.has('request_uri')) return fail(responseMode, 'request_not_supported', 'Request objects are not supported');
  const unknown = scope.split(' ').filter((s) => s && !(KNOWN_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) return fail(responseMode, 'invalid_scope', `Invalid scopes: ${scope}`);
  let pkceMethod: string | undefined;
  try {
    pkceMethod = checkAuthorizationPkce(get('code_challenge'), get('code_challenge_method'), enforcedPkceMethod(client));
  } catch (err) {
    if (err instanceof OAuthError) return fail(responseMode, err.error, err.description);
    throw err;
  }
  const challenge = get('code_challenge');
  const nonce = get('nonce');
  const loginHint = get('login_hint');
  const redirectUriParam = get('redirect_uri');
  return {
    kind: 'ok',
    client,
    prompt: (get('prompt') ?? '').split(' ').filter(Boolean),
    authorization: {
      responseType: types.includes('none') ? 'none' : 'code',
      redirectUri,
      ...(redirectUriParam !== undefined ? { redirectUriParam } : {}),
      responseMode,
      scope,
      ...(state !== undefined ? { state } : {}),
      ...(nonce !== undefined ? { nonce } : {}),
      ...(pkceMethod !== undefined && challenge !== undefined ? { codeChallenge: challenge, codeChallengeMethod: pkceMethod } : {}),
      ...(loginHint !== undefined ? { loginHint } : {}),
    },
  };
}

/** The authorization response (or error) as the redirect Location, or the fields of a form_post page. */
export function authorizationResponseUrl(redirectUri: string, mode: 'query' | 'fragment', fields: [string, string][]): string {
  const enc = fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  if (mode === 'fragment') return `${redirectUri}${redirectUri.includes('#') ? '&' : '#'}${enc}`;
  const hash = redirectUri.indexOf('#');
  const base = hash >= 0 ? redirectUri.slice(0, hash) : redirectUri;
  return `${base}${base.includes('?') ? '&' : '?'}${enc}${hash >= 0 ? redirectUri.slice(hash) : ''}`;
}
