/**
 * AssumeRoleWithWebIdentity: the JWT's issuer picks the OIDC provider; the token is verified
 * with jose against the provider's JWKS (fetched over thumbprint-pinned HTTPS), then audience
 * (aud or azp among the client ids), the role's trust policy and the duration are checked.
 */
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import { oidcProviderId } from '../account/model.js';
import { trustAllows } from '../account/trust-policy.js';
import type { TemporaryCredentials } from '../auth/issue-credentials.js';
import { issueSession, type AssumedRoleUser } from '../auth/issue-session.js';
import type { StsContext } from '../context.js';
import { invalidToken, StsError, validationError } from '../errors.js';
import { checkArn, checkDuration, checkSessionPolicy, type ParamErrors } from '../params.js';
import { PinnedFetchError } from './pinned-https.js';

export interface WebIdentityResult {
  Credentials: TemporaryCredentials;
  AssumedRoleUser: AssumedRoleUser;
  SubjectFromWebIdentityToken: string;
  Provider: string;
  Audience: string;
}

/** typ claim: absent (most providers), Keycloak's Bearer or ID; header typ: absent, JWT or RFC 9068 at+jwt. */
function isIdentityTokenType(typ: unknown, headerTyp: unknown): boolean {
  const claimOk = typ === undefined || (typeof typ === 'string' && ['bearer', 'id'].includes(typ.toLowerCase()));
  const headerOk = headerTyp === undefined || (typeof headerTyp === 'string' && ['jwt', 'at+jwt', 'application/at+jwt'].includes(headerTyp.toLowerCase()));
  return claimOk && headerOk;
}

const ROLE_SESSION_NAME_PATTERN = '[\\w+=,.@-]*';

export async function assumeRoleWithWebIdentity(ctx: StsContext, p: Record<string, string | undefined>): Promise<WebIdentityResult> {
  const errs: ParamErrors = [];
  checkArn(errs, p.RoleArn, 'roleArn');
  if (p.RoleSessionName === undefined) errs.push({ value: undefined, at: 'roleSessionName', constraint: 'Member must not be null' });
  else if (p.RoleSessionName.length < 2) errs.push({ value: p.RoleSessionName, at: 'roleSessionName', constraint: 'Member must have length greater than or equal to 2' });
  else if (p.RoleSessionName.length > 64) errs.push({ value: p.RoleSessionName, at: 'roleSessionName', constraint: 'Member must have length less than or equal to 64' });
  else if (!/^[\w+=,.@-]*$/.test(p.RoleSessionName)) errs.push({ value: p.RoleSessionName, at: 'roleSessionName', constraint: `Member must satisfy regular expression pattern: ${ROLE_SESSION_NAME_PATTERN}` });
  if (p.WebIdentityToken === undefined) errs.push({ value: undefined, at: 'webIdentityToken', constraint: 'Member must not be null' });
  else if (p.WebIdentityToken.length < 4) errs.push({ value: p.WebIdentityToken, at: 'webIdentityToken', constraint: 'Member must have length greater than or equal to 4' });
  else if (p.WebIdentityToken.length > 20000) errs.push({ value: '…', at: 'webIdentityToken', constraint: 'Member must have length less than or equal to 20000' });
  const duration = checkDuration(errs, p.DurationSeconds);
  if (errs.length) throw validationError(errs);
  checkSessionPolicy(p.Policy);
  const token = p.WebIdentityToken!;

  let iss: string | undefined;
  let typ: unknown;
  let headerTyp: unknown;
  try {
    headerTyp = decodeProtectedHeader(token).typ;
    const claims = decodeJwt(token);
    iss = claims.iss;
    typ = claims.typ;
  } catch {
    throw invalidToken('The web identity token is not a well-formed JWT');
  }
  if (!iss) throw invalidToken('The web identity token has no iss claim');
  // Only an access or ID token names an identity. Keycloak marks refresh, offline and logout
  // tokens by their typ; they are refused before any key is fetched.
  if (!isIdentityTokenType(typ, headerTyp)) throw invalidToken(`The web identity token is not an access token or an ID token (typ ${JSON.stringify(typ ?? headerTyp)})`);
  const provider = ctx.store.oidcProviderByIssuer(iss);
  if (!provider) throw invalidToken(`No OpenIDConnect provider found in your account for ${iss}`);

  const now = ctx.now();
  const verify = async (force: boolean) => {
    let entry;
    try {
      entry = await ctx.keys.keys(provider.url, provider.thumbprints, now, force);
    } catch (err) {
      ctx.log.warn('could not fetch OIDC keys', { provider: provider.url, error: (err as Error).message });
      throw new StsError(
        'IDPCommunicationError',
        (err instanceof PinnedFetchError && err.kind === 'thumbprint' ? `${err.message}. ` : '') +
          "Couldn't retrieve verification key from your identity provider,  please reference AssumeRoleWithWebIdentity documentation for requirements",
      );
    }
    return jwtVerify(token, entry.keySet, { issuer: provider.url.replace(/\/+$/, ''), currentDate: new Date(now), algorithms: ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256'] });
  };
  let payload;
  try {
    try {
      payload = (await verify(false)).payload;
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
      payload = (await verify(true)).payload; // the IdP may have rotated its keys
    }
  } catch (err) {
    if (err instanceof StsError) throw err;
    if (err instanceof joseErrors.JWTExpired) {
      const exp = Number((err.payload as { exp?: number }).exp);
      throw new StsError('ExpiredTokenException', `Token expired: current date/time ${Math.floor(now / 1000)} must be before the expiration date/time ${exp}`);
    }
    if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'iss') throw invalidToken(`No OpenIDConnect provider found in your account for ${iss}`);
    if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'nbf') throw invalidToken('Token is not yet valid (nbf)');
    if (err instanceof joseErrors.JWKSNoMatchingKey) throw invalidToken('The web identity token was not signed by any key of the provider');
    throw invalidToken('Invalid signature or token: the web identity token could not be verified');
  }
  if (typeof payload.exp !== 'number') throw invalidToken('The web identity token has no exp claim');
  const auds = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const azp = typeof payload.azp === 'string' ? payload.azp : undefined;
  const audience = auds.find((x) => provider.clientIds.includes(x)) ?? (azp && provider.clientIds.includes(azp) ? azp : undefined);
  if (!audience) throw invalidToken('Incorrect token audience');
  const sub = typeof payload.sub === 'string' ? payload.sub : '';

  const role = ctx.store.role(p.RoleArn!);
  const id = oidcProviderId(provider.url);
  const allowed =
    role !== undefined &&
    trustAllows(role.trustPolicy, {
      action: 'sts:AssumeRoleWithWebIdentity',
      federatedPrincipal: provider.arn,
      context: { [`${id}:aud`]: audience, [`${id}:sub`]: sub, [`${id}:azp`]: azp },
    });
  if (!allowed) throw new StsError('AccessDenied', 'Not authorized to perform sts:AssumeRoleWithWebIdentity', 403);
  if (duration !== undefined && duration > role!.maxSessionDuration) throw new StsError('ValidationError', 'The requested DurationSeconds exceeds the MaxSessionDuration set for this role.');
  const expires = now + (duration ?? 3600) * 1000;
  const issued = await issueSession(ctx, role!, p.RoleSessionName!, expires, 'AssumeRoleWithWebIdentity', provider.arn, sub);
  // For OIDC providers AWS answers with the provider's ARN in Provider.
  return { ...issued, SubjectFromWebIdentityToken: sub, Provider: provider.arn, Audience: audience };
}
