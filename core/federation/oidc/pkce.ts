/**
 * PKCE (RFC 7636) as Keycloak checks it: at the authorization endpoint
 * (AuthorizationEndpointChecker) and when the code is exchanged (PkceUtils), with its texts.
 * A client whose PKCE method is set (Keycloak's `pkce.code.challenge.method`) must send that
 * method; other clients may send plain or S256 and are then held to it.
 */
import { createHash } from 'node:crypto';
import { OAuthError } from './errors.js';

const VALID = /^[0-9a-zA-Z\-.~_]+$/;
const MIN = 43;
const MAX = 128;

const wellFormed = (s: string) => s.length >= MIN && s.length <= MAX && VALID.test(s);
const invalidRequest = (d: string) => new OAuthError(400, 'invalid_request', d);
const invalidGrant = (d: string) => new OAuthError(400, 'invalid_grant', d);

/** Checks the authorization request's PKCE parameters; returns the method to remember (plain when only a challenge came). */
export function checkAuthorizationPkce(challenge: string | undefined, method: string | undefined, enforced: string | undefined): string | undefined {
  if (enforced) {
    if (method === undefined) throw invalidRequest('Missing parameter: code_challenge_method');
    if (method !== enforced) throw invalidRequest('Invalid parameter: code challenge method is not matching the configured one');
    if (challenge === undefined) throw invalidRequest('Missing parameter: code_challenge');
    if (!wellFormed(challenge)) throw invalidRequest('Invalid parameter: code_challenge');
    return method;
  }
  if (challenge === undefined && method !== undefined) throw invalidRequest('Missing parameter: code_challenge');
  if (challenge === undefined) return undefined;
  if (method !== undefined && method !== 'S256' && method !== 'plain') throw invalidRequest('Invalid parameter: code_challenge_method');
  if (!wellFormed(challenge)) throw invalidRequest('Invalid parameter: code_challenge');
  return method ?? 'plain';
}

/** Checks the token request's code_verifier against what the code remembers. */
export function checkCodeVerifier(verifier: string | undefined, challenge: string | undefined, method: string | undefined): void {
  if (challenge !== undefined && verifier === undefined) throw invalidGrant('PKCE code verifier not specified');
  if (challenge === undefined && verifier !== undefined) throw invalidGrant('PKCE code verifier specified but challenge not present in authorization');
  if (challenge === undefined || verifier === undefined) return;
  if (!wellFormed(verifier)) throw invalidGrant('PKCE verification failed: Invalid code verifier');
  const encoded = method === 'S256' ? s256(verifier) : verifier;
  if (encoded !== challenge) throw invalidGrant('PKCE verification failed: Code mismatch');
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'latin1').digest('base64url');
}
