/**
 * JWTs with jose, laid out like Keycloak's: access tokens (typ Bearer) and ID tokens (typ ID)
 * RS256 with the published realm key; refresh tokens (typ Refresh) HS512 with the realm's HMAC
 * key, which no JWKS publishes, so nothing but this IdP can verify one and no verifier that
 * trusts the JWKS mistakes one for an identity.
 */
import { SignJWT, jwtVerify, decodeProtectedHeader, decodeJwt, type JWTPayload } from 'jose';

function decodeJwtSafe(token: string): JWTPayload | undefined {
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}
import { randomUUID } from 'node:crypto';
import type { KeyStore } from './keys.js';

export async function signJwt(keys: KeyStore, claims: JWTPayload, typ = 'JWT'): Promise<string> {
  const key = keys.active;
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ, kid: key.kid }).sign(key.privateKey);
}

export async function signRefreshJwt(keys: KeyStore, claims: JWTPayload): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS512', typ: 'JWT', kid: keys.hmac.kid }).sign(keys.hmac.secret);
}

/** Verifies a refresh token this IdP signed with its HMAC key; undefined when it is not one. */
export async function verifyRefreshJwt(keys: KeyStore, token: string, opts: { issuer: string; now: number }): Promise<JWTPayload | 'expired' | undefined> {
  try {
    const { payload } = await jwtVerify(token, keys.hmac.secret, { issuer: opts.issuer, algorithms: ['HS512'], currentDate: new Date(opts.now) });
    return payload.typ === 'Refresh' ? payload : undefined;
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : undefined;
  }
}

/** Verifies an RS256 token this IdP signed (any published key); undefined when it is not one. */
export async function verifyOwnJwt(keys: KeyStore, token: string, opts: { issuer: string; now: number; typ?: string; allowExpired?: boolean }): Promise<JWTPayload | 'expired' | undefined> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return undefined;
  }
  const key = kid ? keys.byKid(kid) : undefined;
  if (!key) return undefined;
  try {
    // An id_token_hint may have expired (OIDC RP-Initiated Logout 1.0, 2): check it as of its own expiry then.
    const at = opts.allowExpired ? Math.min(opts.now, ((decodeJwtSafe(token)?.exp ?? 0) - 1) * 1000) : opts.now;
    const { payload } = await jwtVerify(token, key.publicKey, { issuer: opts.issuer, algorithms: ['RS256'], currentDate: new Date(at) });
    if (opts.typ && payload.typ !== opts.typ) return undefined;
    return payload;
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : undefined;
  }
}

export const jti = (): string => randomUUID();
