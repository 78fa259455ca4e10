/**
 * RS256 JWTs with jose, laid out like Keycloak's: access tokens (typ Bearer), ID tokens and
 * refresh tokens (typ Refresh, checked only by this IdP).
 */
import { SignJWT, jwtVerify, decodeProtectedHeader, type JWTPayload } from 'jose';
import { randomUUID } from 'node:crypto';
import type { KeyStore } from './keys.js';

export async function signJwt(keys: KeyStore, claims: JWTPayload, typ = 'JWT'): Promise<string> {
  const key = keys.active;
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ, kid: key.kid }).sign(key.privateKey);
}

/** Verifies a token this IdP signed (any published key); undefined when it is not one. */
export async function verifyOwnJwt(keys: KeyStore, token: string, opts: { issuer: string; now: number; typ?: string }): Promise<JWTPayload | 'expired' | undefined> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return undefined;
  }
  const key = kid ? keys.byKid(kid) : undefined;
  if (!key) return undefined;
  try {
    const { payload } = await jwtVerify(token, key.publicKey, { issuer: opts.issuer, algorithms: ['RS256'], currentDate: new Date(opts.now) });
    if (opts.typ && payload.typ !== opts.typ) return undefined;
    return payload;
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : undefined;
  }
}

export const jti = (): string => randomUUID();
