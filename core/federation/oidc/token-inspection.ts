/**
 * What a token this IdP issued is now: its kind and claims if it is still good — signature,
 * expiry, not revoked, its user enabled, its session alive and (for refresh tokens) its
 * client still in that session. Used by introspection (RFC 7662), revocation (RFC 7009) and
 * logout; the same rules as the token endpoint's refresh grant.
 */
import type { JWTPayload } from 'jose';
import type { RealmRecord } from '../idp/model.js';
import type { TokenDeps } from './token-endpoint.js';
import { verifyOwnJwt, verifyRefreshJwt } from './tokens.js';

export type TokenKind = 'access' | 'id' | 'refresh';

export interface InspectedToken {
  kind: TokenKind;
  claims: JWTPayload;
}

/** Decodes and verifies; undefined for anything not (or no longer) a valid token of this realm. */
export async function inspectToken(deps: TokenDeps, realm: RealmRecord, issuer: string, token: string): Promise<InspectedToken | undefined> {
  const now = deps.clock.now();
  let kind: TokenKind | undefined;
  let claims: JWTPayload | 'expired' | undefined = await verifyRefreshJwt(deps.keys, token, { issuer, now });
  if (typeof claims === 'object') kind = 'refresh';
  else {
    claims = await verifyOwnJwt(deps.keys, token, { issuer, now });
    if (typeof claims === 'object') kind = claims.typ === 'Bearer' ? 'access' : claims.typ === 'ID' ? 'id' : undefined;
  }
  if (!kind || typeof claims !== 'object') return undefined;
  if (deps.sessions.isRevoked(claims.jti)) return undefined;
  const sid = typeof claims.sid === 'string' ? claims.sid : undefined;
  if (sid) {
    const session = deps.sessions.get(sid, realm.realm);
    if (!session) return undefined;
    if (kind === 'refresh' && !session.clients.has(String(claims.azp))) return undefined;
  }
  const user = realm.users.find((u) => u.id === claims.sub);
  const client = realm.clients.find((c) => c.clientId === claims.azp);
  // A service-account token's sub is its client's id.
  if (user ? !user.enabled : !(client && client.id === claims.sub && client.enabled)) return undefined;
  return { kind, claims };
}
