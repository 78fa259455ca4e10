/**
 * The token service itself: AssumeRoleWithSAML, AssumeRoleWithWebIdentity, GetCallerIdentity
 * and the account's IAM objects. Knows nothing about HTTP; errors are StsError values.
 */
import { createHash } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import type { Logger } from '../../common/log.js';
import { AccountStore } from './account/store.js';
import {
  oidcProviderArn,
  oidcProviderId,
  PROVIDER_NAME,
  ROLE_NAME,
  roleArn as makeRoleArn,
  samlProviderArn,
  type Account,
  type OidcProvider,
  type PolicyDocument,
  type Role,
  type SamlProvider,
  type SessionRecord,
} from './account/model.js';
import { MetadataError, parseIdpMetadata } from './account/saml-metadata.js';
import { trustAllows, validatePolicy } from './account/trust-policy.js';
import { newCredentials, newRoleId, type TemporaryCredentials } from './auth/issue-credentials.js';
import { parseAmzDate, parseAuthorization, parseQueryAuthorization, presignedSignatureMatches, signatureMatches, type IncomingSigned } from './auth/sigv4.js';
import { invalidToken, samlResponseRejected, StsError, validationError } from './errors.js';
import { fetchDiscovery, ProviderKeyCache } from './oidc/provider-keys.js';
import { PinnedFetchError } from './oidc/pinned-https.js';
import { readAssertion, responseIssuer, responseStatus } from './saml/read-assertion.js';
import { descendants, NS, parseUntrustedXml, textOf } from './saml/safe-xml.js';
import { SamlVerifyError, verifySamlResponse } from './saml/verify-response.js';
import { DEFAULT_STS_OPTIONS, isAwsAudience, isSigninEndpoint, type StsOptions } from './options.js';

export interface AssumedRoleUser {
  AssumedRoleId: string;
  Arn: string;
}

export interface SamlResult {
  Credentials: TemporaryCredentials;
  AssumedRoleUser: AssumedRoleUser;
  Subject: string;
  SubjectType: string;
  Issuer: string;
  Audience: string;
  NameQualifier: string;
}

export interface WebIdentityResult {
  Credentials: TemporaryCredentials;
  AssumedRoleUser: AssumedRoleUser;
  SubjectFromWebIdentityToken: string;
  Provider: string;
  Audience: string;
}

export interface CallerIdentity {
  Arn: string;
  UserId: string;
  Account: string;
}

export class AdminError extends Error {
  constructor(
    readonly code: 'EntityAlreadyExists' | 'NoSuchEntity' | 'InvalidInput' | 'MalformedPolicyDocument' | 'ProviderUnreachable',
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const SESSION_NAME = /^[\w+=,.@-]{2,64}$/;
const REDEEM_WITHIN_MS = 5 * 60_000;
const ROLE_SESSION_NAME_PATTERN = '[\\w+=,.@-]*';

export class StsEngine {
  readonly options: StsOptions;
  private readonly keys = new ProviderKeyCache();

  constructor(
    readonly store: AccountStore,
    readonly log: Logger,
    options: Partial<StsOptions> = {},
  ) {
    this.options = { ...DEFAULT_STS_OPTIONS, ...options, accountId: store.accountId };
  }

  private now(): number {
    return this.options.clock.now();
  }

  // ---------------------------------------------------------------- AssumeRoleWithSAML

  async assumeRoleWithSaml(p: Record<string, string | undefined>, requestId: string): Promise<SamlResult> {
    const errs: Parameters<typeof validationError>[0] = [];
    checkArn(errs, p.RoleArn, 'roleArn');
    checkArn(errs, p.PrincipalArn, 'principalArn');
    if (p.SAMLAssertion === undefined) errs.push({ value: undefined, at: 'SAMLAssertion', constraint: 'Member must not be null' });
    else if (p.SAMLAssertion.length < 4) errs.push({ value: p.SAMLAssertion, at: 'SAMLAssertion', constraint: 'Member must have length greater than or equal to 4' });
    else if (p.SAMLAssertion.length > 100000) errs.push({ value: p.SAMLAssertion.slice(0, 32) + '…', at: 'SAMLAssertion', constraint: 'Member must have length less than or equal to 100000' });
    const duration = checkDuration(errs, p.DurationSeconds);
    if (errs.length) throw validationError(errs);
    checkSessionPolicy(p.Policy);
    const roleArn = p.RoleArn!;
    const principalArn = p.PrincipalArn!;

    const xml = decodeBase64Xml(p.SAMLAssertion!);
    if (xml === undefined) throw samlResponseRejected('Invalid base64 SAMLResponse', requestId);

    const provider = this.store.samlProvider(principalArn);
    if (!provider) throw samlResponseRejected(`Specified provider doesn't exist`, requestId);

    // The issuer is compared before the signature, as AWS does ("Issuer not present in
    // specified provider"); reading it unsigned here can only lead to a rejection.
    let raw;
    try {
      raw = parseUntrustedXml(xml);
    } catch (err) {
      throw samlResponseRejected(`Invalid SAML response: ${(err as Error).message}`, requestId);
    }
    const rawIssuers = [responseIssuer(raw.documentElement!), ...descendants(raw, NS.assertion, 'Assertion').map((a) => textOf(descendants(a, NS.assertion, 'Issuer')[0])?.trim())].filter(
      (x): x is string => x !== undefined,
    );
    if (rawIssuers.length === 0 || rawIssuers.some((i) => i !== provider.entityId)) throw samlResponseRejected('Issuer not present in specified provider', requestId);

    let signed;
    try {
      signed = verifySamlResponse(xml, provider.certificates);
    } catch (err) {
      if (!(err instanceof SamlVerifyError)) throw err;
      if (err.reason === 'unsafe' || err.reason === 'malformed') throw samlResponseRejected(`Invalid SAML response: ${err.message}`, requestId);
      if (err.reason === 'bad-signature' || err.reason === 'missing-signature') throw invalidToken('Response signature invalid');
      throw invalidToken(`Response signature invalid: ${err.message}`);
    }

    const status = responseStatus(signed.signedResponse ?? signed.receivedResponse);
    if (status !== 'urn:oasis:names:tc:SAML:2.0:status:Success') {
      throw new StsError('IDPRejectedClaim', `The identity provider did not report a successful login (StatusCode ${status ?? 'missing'})`, 403);
    }
    const a = readAssertion(signed.assertion);
    if (a.issuer !== provider.entityId) throw samlResponseRejected('Issuer not present in specified provider', requestId);
    if (signed.signedResponse) {
      const ri = responseIssuer(signed.signedResponse);
      if (ri !== undefined && ri !== provider.entityId) throw samlResponseRejected('Issuer not present in specified provider', requestId);
    }

    const extra = this.options.extraSigninEndpoints;
    const destination = (signed.signedResponse ?? signed.receivedResponse).getAttribute('Destination');
    if (destination && !isSigninEndpoint(destination, extra)) throw invalidToken(`Invalid SAML response: Destination ${destination} is not an AWS sign-in endpoint`);
    if (a.confirmations.length !== 1) throw invalidToken('Invalid SAML response: the Subject must have exactly one bearer SubjectConfirmation');
    const conf = a.confirmations[0]!;
    if (!conf.recipient || !conf.notOnOrAfter) throw invalidToken('Invalid SAML response: SubjectConfirmationData must have both Recipient and NotOnOrAfter');
    if (!isSigninEndpoint(conf.recipient, extra)) throw invalidToken(`Invalid SAML response: Recipient ${conf.recipient} is not an AWS sign-in endpoint`);
    const audienceOk = a.audienceRestrictions.length > 0 && a.audienceRestrictions.every((r) => r.some((x) => isAwsAudience(x, extra)));
    if (!audienceOk) throw invalidToken('Response does not contain the required audience');

    const now = this.now();
    this.checkTimes(now, [
      { at: a.notOnOrAfter, kind: 'end', what: 'Conditions NotOnOrAfter' },
      { at: conf.notOnOrAfter, kind: 'end', what: 'SubjectConfirmationData NotOnOrAfter' },
      { at: a.notBefore, kind: 'start', what: 'Conditions NotBefore' },
      { at: conf.notBefore, kind: 'start', what: 'SubjectConfirmationData NotBefore' },
    ]);

    // AWS takes an assertion again and again while it is valid, but only within five minutes of
    // its IssueInstant ("Token must be redeemed within 5 minutes of issuance"); saml2aws's
    // five-minute assertion cache is built around this.
    const issued = a.issueInstant ? Date.parse(a.issueInstant) : NaN;
    if (Number.isNaN(issued)) throw invalidToken('Invalid SAML response: the Assertion has no valid IssueInstant');
    if (issued > now + this.options.clockSkewMs) throw invalidToken(`Invalid SAML response: IssueInstant ${a.issueInstant} is in the future`);
    if (now - issued > REDEEM_WITHIN_MS) throw new StsError('ExpiredTokenException', 'Token must be redeemed within 5 minutes of issuance');

    const attr = (n: string) => a.attributes.get(`${this.options.cloudDomain}/SAML/Attributes/${n}`);
    const roles = attr('Role');
    if (!roles || roles.length === 0) throw invalidToken('Role is required in AuthnResponse');
    const sessionNames = attr('RoleSessionName');
    if (!sessionNames || sessionNames.length === 0) throw invalidToken('RoleSessionName is required in AuthnResponse');
    const sessionName = sessionNames[0]!;
    if (!SESSION_NAME.test(sessionName)) throw invalidToken('RoleSessionName in AuthnResponse must match [a-zA-Z_0-9+=,.@-]{2,64}');
    let attrDuration: number | undefined;
    const sd = attr('SessionDuration')?.[0];
    if (sd !== undefined) {
      attrDuration = /^\d+$/.test(sd) ? Number(sd) : NaN;
      if (!(attrDuration >= 900 && attrDuration <= 43200)) throw invalidToken('SessionDuration in AuthnResponse must be an integer from 900 to 43200');
    }
    const pairOk = roles.some((v) => {
      const parts = v.split(',').map((s) => s.trim());
      return parts.length === 2 && parts.includes(roleArn) && parts.includes(principalArn);
    });
    const role = this.store.role(roleArn);
    const subjectType = shortFormat(a.nameIdFormat);
    const recipient = conf.recipient;
    const nameQualifier = createHash('sha1').update(provider.entityId + this.options.accountId + '/' + provider.name).digest('base64');
    const allowed =
      pairOk &&
      role !== undefined &&
      trustAllows(role.trustPolicy, {
        action: 'sts:AssumeRoleWithSAML',
        federatedPrincipal: principalArn,
        context: { 'SAML:aud': recipient, 'SAML:iss': provider.entityId, 'SAML:sub': a.nameId, 'SAML:sub_type': subjectType, 'SAML:namequalifier': nameQualifier },
      });
    if (!allowed) throw new StsError('AccessDenied', 'Not authorized to perform sts:AssumeRoleWithSAML', 403);

    if (duration !== undefined && duration > role!.maxSessionDuration) throw new StsError('ValidationError', 'The requested DurationSeconds exceeds the MaxSessionDuration set for this role.');
    // An explicit DurationSeconds wins; otherwise the IdP's SessionDuration, capped by the role.
    const seconds = duration ?? Math.min(attrDuration ?? 3600, role!.maxSessionDuration);
    let expires = now + seconds * 1000;
    const sessionEnd = a.sessionNotOnOrAfter ? Date.parse(a.sessionNotOnOrAfter) : NaN;
    if (!Number.isNaN(sessionEnd) && sessionEnd < expires) {
      if (sessionEnd <= now) throw new StsError('ExpiredTokenException', `Session expired: SessionNotOnOrAfter ${a.sessionNotOnOrAfter} has passed`);
      expires = sessionEnd;
    }

    const granted = await this.issue(role!, sessionName, expires, 'AssumeRoleWithSAML', principalArn, a.nameId ?? '');
    return {
      ...granted,
      Subject: a.nameId ?? '',
      SubjectType: subjectType ?? '',
      Issuer: provider.entityId,
      Audience: recipient,
      NameQualifier: nameQualifier,
    };
  }

  private checkTimes(now: number, checks: { at?: string; kind: 'start' | 'end'; what: string }[]): void {
    for (const c of checks) {
      if (!c.at) continue;
      const t = Date.parse(c.at);
      if (Number.isNaN(t)) throw invalidToken(`Invalid SAML response: ${c.what} is not a date/time`);
      if (c.kind === 'end' && now >= t) {
        throw new StsError('ExpiredTokenException', `Token expired: current date/time ${iso(now)} must be before the ${c.what} date/time ${iso(t)}`);
      }
      if (c.kind === 'start' && now + this.options.clockSkewMs < t) throw invalidToken(`Invalid SAML response: assertion is not yet valid (${c.what} ${iso(t)})`);
    }
  }

  // -------------------------------------------------------- AssumeRoleWithWebIdentity

  async assumeRoleWithWebIdentity(p: Record<string, string | undefined>): Promise<WebIdentityResult> {
    const errs: Parameters<typeof validationError>[0] = [];
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
    try {
      decodeProtectedHeader(token);
      iss = decodeJwt(token).iss;
    } catch {
      throw invalidToken('The web identity token is not a well-formed JWT');
    }
    if (!iss) throw invalidToken('The web identity token has no iss claim');
    const provider = this.store.oidcProviderByIssuer(iss);
    if (!provider) throw invalidToken(`No OpenIDConnect provider found in your account for ${iss}`);

    const now = this.now();
    const verify = async (force: boolean) => {
      let entry;
      try {
        entry = await this.keys.keys(provider.url, provider.thumbprints, now, force);
      } catch (err) {
        this.log.warn('could not fetch OIDC keys', { provider: provider.url, error: (err as Error).message });
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

    const role = this.store.role(p.RoleArn!);
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
    const issued = await this.issue(role!, p.RoleSessionName!, expires, 'AssumeRoleWithWebIdentity', provider.arn, sub);
    // For OIDC providers AWS answers with the provider's ARN in Provider.
    return { ...issued, SubjectFromWebIdentityToken: sub, Provider: provider.arn, Audience: audience };
  }

  private async issue(role: Role, sessionName: string, expiresAt: number, via: SessionRecord['via'], providerArn: string, subject: string) {
    const creds = newCredentials(expiresAt);
    const user: AssumedRoleUser = {
      AssumedRoleId: `${role.roleId}:${sessionName}`,
      Arn: `arn:aws:sts::${this.options.accountId}:assumed-role/${role.name}/${sessionName}`,
    };
    await this.store.addSession(
{ ...creds, issuedAt: iso(this.now()), roleArn: role.arn, assumedRoleArn: user.Arn, assumedRoleId: user.AssumedRoleId, sessionName, via, providerArn, subject });
    return { Credentials: creds, AssumedRoleUser: user };
  }

  // ------------------------------------------------------------------ GetCallerIdentity

  async getCallerIdentity(req: IncomingSigned): Promise<CallerIdentity> {
    const header = req.headers.authorization;
    const authz = Array.isArray(header) ? header[0] : header;
    const flatQuery = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, Array.isArray(v) ? v[0]! : v]));
    if (!authz && flatQuery['X-Amz-Algorithm'] !== undefined) return this.presignedCallerIdentity(req, flatQuery);
    if (!authz) throw new StsError('MissingAuthenticationToken', 'Request is missing Authentication Token', 403);
    const auth = parseAuthorization(authz);
    if (!auth) throw new StsError('IncompleteSignature', `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters of AWS4-HMAC-SHA256.`, 400);
    const invalidKey = () => new StsError('InvalidClientTokenId', 'The security token included in the request is invalid.', 403);
    const session = this.store.session(auth.accessKeyId);
    if (!session) throw invalidKey();
    const tokenHeader = req.headers['x-amz-security-token'];
    const token = Array.isArray(tokenHeader) ? tokenHeader[0] : tokenHeader;
    if (!token || token !== session.sessionToken || !auth.signedHeaders.includes('x-amz-security-token')) throw invalidKey();
    const dateHeader = req.headers['x-amz-date'];
    const amzDate = Array.isArray(dateHeader) ? dateHeader[0] : dateHeader;
    const signedAt = parseAmzDate(amzDate);
    if (Number.isNaN(signedAt) || !amzDate!.startsWith(auth.date)) throw new StsError('IncompleteSignature', 'Date must be in ISO-8601 \'basic format\'. Got \'' + (amzDate ?? '') + "'. See http://en.wikipedia.org/wiki/ISO_8601", 400);
    if (!(await signatureMatches(req, auth, session.secretAccessKey, token, signedAt))) {
      throw new StsError(
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
        403,
      );
    }
    // An expired token is reported as such even when the request is old too.
    const now = this.now();
    if (Date.parse(session.expiration) <= now) throw new StsError('ExpiredToken', 'The security token included in the request is expired', 403);
    if (Math.abs(now - signedAt) > 15 * 60_000) {
      throw new StsError('SignatureDoesNotMatch', `Signature expired: ${amzDate} is now earlier than ${amzBasic(now - 15 * 60_000)} (${amzBasic(now)} - 15 min.)`, 403);
    }
    return { Arn: session.assumedRoleArn, UserId: session.assumedRoleId, Account: this.options.accountId };
  }

  /** GetCallerIdentity authenticated by the query string (a presigned URL). */
  private async presignedCallerIdentity(req: IncomingSigned, query: Record<string, string>): Promise<CallerIdentity> {
    const auth = parseQueryAuthorization(query);
    if (!auth) throw new StsError('AuthorizationQueryParametersError', 'X-Amz-Algorithm, X-Amz-Credential, X-Amz-Date, X-Amz-Expires, X-Amz-SignedHeaders and X-Amz-Signature are required for query-string authentication.', 400);
    const invalidKey = () => new StsError('InvalidClientTokenId', 'The security token included in the request is invalid.', 403);
    const session = this.store.session(auth.accessKeyId);
    if (!session || !auth.sessionToken || auth.sessionToken !== session.sessionToken) throw invalidKey();
    const signedAt = parseAmzDate(auth.amzDate);
    if (Number.isNaN(signedAt) || !auth.amzDate.startsWith(auth.date)) throw new StsError('AuthorizationQueryParametersError', `Invalid X-Amz-Date: ${auth.amzDate}`, 400);
    if (!(await presignedSignatureMatches(req, auth, session.secretAccessKey, signedAt))) {
      throw new StsError(
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
        403,
      );
    }
    const now = this.now();
    if (Date.parse(session.expiration) <= now) throw new StsError('ExpiredToken', 'The security token included in the request is expired', 403);
    if (now > signedAt + auth.expiresSeconds * 1000) throw new StsError('AccessDenied', 'Request has expired', 403);
    if (signedAt - now > 15 * 60_000) throw new StsError('SignatureDoesNotMatch', `Signature not yet current: ${auth.amzDate} is still later than ${amzBasic(now + 15 * 60_000)} (${amzBasic(now)} + 15 min.)`, 403);
    return { Arn: session.assumedRoleArn, UserId: session.assumedRoleId, Account: this.options.accountId };
  }

  // -------------------------------------------------------------------- account admin

  account(): Account {
    return this.store.snapshot();
  }

  sessions(): Omit<SessionRecord, 'secretAccessKey' | 'sessionToken'>[] {
    return this.store.listSessions().map(({ secretAccessKey: _s, sessionToken: _t, ...rest }) => rest);
  }

  async createSamlProvider(name: string, metadataXml: string, opts: { replace?: boolean } = {}): Promise<SamlProvider> {
    if (!PROVIDER_NAME.test(name)) throw new AdminError('InvalidInput', `Provider name must match ${PROVIDER_NAME.source}`, 400);
    const arn = samlProviderArn(this.options.accountId, name);
    if (!opts.replace && this.store.samlProvider(arn)) throw new AdminError('EntityAlreadyExists', `SAMLProvider ${name} already exists.`, 409);
    let meta;
    try {
      meta = parseIdpMetadata(metadataXml);
    } catch (err) {
      throw new AdminError('InvalidInput', err instanceof MetadataError ? err.message : 'Could not parse metadata', 400);
    }
    const provider: SamlProvider = { arn, name, entityId: meta.entityId, certificates: meta.certificates, metadataXml, createDate: iso(this.now()), validUntil: meta.validUntil };
    await this.store.putSamlProvider(provider);
    return provider;
  }

  async createOidcProvider(url: string, clientIds: string[], thumbprints?: string[], opts: { replace?: boolean } = {}): Promise<OidcProvider> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new AdminError('InvalidInput', `Invalid provider URL: ${url}`, 400);
    }
    if (u.protocol !== 'https:') throw new AdminError('InvalidInput', 'The Provider URL must begin with https://', 400);
    if (thumbprints?.some((t) => !/^[0-9a-fA-F]{40}$/.test(t))) throw new AdminError('InvalidInput', 'Each thumbprint must be 40 hexadecimal characters (SHA-1)', 400);
    const clean = url.replace(/\/+$/, '');
    const arn = oidcProviderArn(this.options.accountId, clean);
    if (!opts.replace && this.store.oidcProvider(arn)) throw new AdminError('EntityAlreadyExists', `Provider with url ${clean} already exists.`, 409);
    let found;
    try {
      found = await fetchDiscovery(clean, thumbprints && thumbprints.length ? thumbprints : undefined);
    } catch (err) {
      throw new AdminError('ProviderUnreachable', `Could not read ${clean}/.well-known/openid-configuration: ${(err as Error).message}`, 400);
    }
    if (found.discovery.issuer.replace(/\/+$/, '') !== clean) {
      throw new AdminError('InvalidInput', `The discovery document's issuer ${found.discovery.issuer} differs from the Provider URL ${clean}`, 400);
    }
    const provider: OidcProvider = {
      arn,
      url: clean,
      clientIds: [...new Set(clientIds)],
      // Like IAM today, an empty list means "use the thumbprint the server presents now".
      thumbprints: thumbprints && thumbprints.length ? thumbprints.map((t) => t.toLowerCase()) : [found.thumbprint],
      createDate: iso(this.now()),
    };
    this.keys.forget(clean);
    await this.store.putOidcProvider(provider);
    return provider;
  }

  async createRole(input: { name: string; trustPolicy: unknown; maxSessionDuration?: number; description?: string }, opts: { replace?: boolean } = {}): Promise<Role> {
    if (!ROLE_NAME.test(input.name)) throw new AdminError('InvalidInput', `Role name must match ${ROLE_NAME.source}`, 400);
    const max = input.maxSessionDuration ?? 3600;
    if (!Number.isInteger(max) || max < 3600 || max > 43200) throw new AdminError('InvalidInput', 'MaxSessionDuration must be an integer from 3600 to 43200', 400);
    let policy: PolicyDocument;
    try {
      policy = validatePolicy(typeof input.trustPolicy === 'string' ? JSON.parse(input.trustPolicy) : input.trustPolicy);
    } catch (err) {
      throw new AdminError('MalformedPolicyDocument', (err as Error).message, 400);
    }
    const arn = makeRoleArn(this.options.accountId, input.name);
    const existing = this.store.role(arn);
    if (existing && !opts.replace) throw new AdminError('EntityAlreadyExists', `Role with name ${input.name} already exists.`, 409);
    const role: Role = { arn, name: input.name, roleId: existing?.roleId ?? newRoleId(), trustPolicy: policy, maxSessionDuration: max, description: input.description, createDate: existing?.createDate ?? iso(this.now()) };
    await this.store.putRole(role);
    return role;
  }

  async deleteSamlProvider(arn: string): Promise<void> {
    if (!(await this.store.deleteSamlProvider(arn))) throw new AdminError('NoSuchEntity', `SAMLProvider ${arn} does not exist.`, 404);
  }
  async deleteOidcProvider(arn: string): Promise<void> {
    if (!(await this.store.deleteOidcProvider(arn))) throw new AdminError('NoSuchEntity', `OpenIDConnect Provider ${arn} does not exist.`, 404);
  }
  async deleteRole(arn: string): Promise<void> {
    if (!(await this.store.deleteRole(arn))) throw new AdminError('NoSuchEntity', `The role with name ${arn.split('/').pop()} cannot be found.`, 404);
  }
}

function checkArn(errs: Parameters<typeof validationError>[0], v: string | undefined, at: string): void {
  if (v === undefined) errs.push({ value: undefined, at, constraint: 'Member must not be null' });
  else if (v.length < 20) errs.push({ value: v, at, constraint: 'Member must have length greater than or equal to 20' });
  else if (v.length > 2048) errs.push({ value: v, at, constraint: 'Member must have length less than or equal to 2048' });
}

/**
 * A session policy can only narrow what the role allows; Loupe has no resources to apply it to,
 * so it is checked for shape (as STS does) and otherwise has no effect.
 */
function checkSessionPolicy(policy: string | undefined): void {
  if (policy === undefined) return;
  if (policy.length > 2048) throw validationError([{ value: policy.slice(0, 32) + '…', at: 'policy', constraint: 'Member must have length less than or equal to 2048' }]);
  try {
    const doc = JSON.parse(policy) as { Statement?: unknown };
    if (!doc || typeof doc !== 'object' || doc.Statement === undefined) throw new Error('no Statement');
  } catch {
    throw new StsError('MalformedPolicyDocument', 'Syntax errors in policy.');
  }
}

function checkDuration(errs: Parameters<typeof validationError>[0], v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) {
    errs.push({ value: v, at: 'durationSeconds', constraint: 'Member must be an integer' });
    return undefined;
  }
  const n = Number(v);
  if (n < 900) errs.push({ value: v, at: 'durationSeconds', constraint: 'Member must have value greater than or equal to 900' });
  else if (n > 43200) errs.push({ value: v, at: 'durationSeconds', constraint: 'Member must have value less than or equal to 43200' });
  return n;
}

/** Strict base64 → XML text; undefined when it is not base64 or does not decode to markup. */
function decodeBase64Xml(b64: string): string | undefined {
  const s = b64.replace(/[\r\n\t ]/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s) || s.length % 4 === 1) return undefined;
  const text = Buffer.from(s, 'base64').toString('utf8');
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('<')) return undefined;
  return trimmed;
}

/** AWS drops the standard SAML 2.0 name-id-format prefix: "…:nameid-format:transient" → "transient". */
function shortFormat(format: string | undefined): string | undefined {
  if (!format) return undefined;
  const prefix = 'urn:oasis:names:tc:SAML:2.0:nameid-format:';
  return format.startsWith(prefix) ? format.slice(prefix.length) : format;
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const amzBasic = (ms: number): string => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
