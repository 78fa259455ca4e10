/**
 * AssumeRoleWithSAML: the SAMLResponse is decoded, then bounded, parsed safely, its signature
 * verified with the provider's certificates and only the signed content read, all on a worker
 * thread (saml-reading.ts, xml-worker-pool.ts);
 * issuer, destination, recipient, audience and times are checked as AWS does, then the Role
 * attribute, the role's trust policy and the session duration.
 */
import { createHash } from 'node:crypto';
import { trustAllows } from '../account/trust-policy.js';
import { issueSession } from '../auth/issue-session.js';
import type { TemporaryCredentials } from '../auth/issue-credentials.js';
import type { AssumedRoleUser } from '../auth/issue-session.js';
import type { StsContext } from '../context.js';
import { invalidToken, samlResponseRejected, StsError, validationError } from '../errors.js';
import { isAwsAudience, isSigninEndpoint } from '../options.js';
import { checkArn, checkDuration, checkSessionPolicy, type ParamErrors } from '../params.js';
import { iso } from '../time.js';
import { SamlWorkerOverloaded } from './xml-worker-pool.js';

export interface SamlResult {
  Credentials: TemporaryCredentials;
  AssumedRoleUser: AssumedRoleUser;
  Subject: string;
  SubjectType: string;
  Issuer: string;
  Audience: string;
  NameQualifier: string;
}

const SESSION_NAME = /^[\w+=,.@-]{2,64}$/;
const REDEEM_WITHIN_MS = 5 * 60_000;

export async function assumeRoleWithSaml(ctx: StsContext, p: Record<string, string | undefined>, requestId: string): Promise<SamlResult> {
  const errs: ParamErrors = [];
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

  const provider = ctx.store.samlProvider(principalArn);
  if (!provider) throw samlResponseRejected(`Specified provider doesn't exist`, requestId);

  // Parsing and the signature check run on a worker thread (saml-reading.ts): the issuer is
  // compared before the signature there, as AWS does.
  let reading;
  try {
    reading = await ctx.saml.read({ xml, certificates: provider.certificates, entityId: provider.entityId });
  } catch (err) {
    if (err instanceof SamlWorkerOverloaded) throw new StsError('Throttling', 'Rate exceeded');
    throw err;
  }
  if (!reading.ok) throw reading.kind === 'rejected' ? samlResponseRejected(reading.message, requestId) : invalidToken(reading.message);
  const status = reading.status;
  if (status !== 'urn:oasis:names:tc:SAML:2.0:status:Success') {
    throw new StsError('IDPRejectedClaim', `The identity provider did not report a successful login (StatusCode ${status ?? 'missing'})`, 403);
  }
  const a = reading.fields;
  if (a.issuer !== provider.entityId) throw samlResponseRejected('Issuer not present in specified provider', requestId);
  if (reading.signedResponseIssuer !== undefined && reading.signedResponseIssuer !== provider.entityId) throw samlResponseRejected('Issuer not present in specified provider', requestId);

  const extra = ctx.options.extraSigninEndpoints;
  const destination = reading.destination;
  if (destination && !isSigninEndpoint(destination, extra)) throw invalidToken(`Invalid SAML response: Destination ${destination} is not an AWS sign-in endpoint`);
  if (a.confirmations.length !== 1) throw invalidToken('Invalid SAML response: the Subject must have exactly one bearer SubjectConfirmation');
  const conf = a.confirmations[0]!;
  if (!conf.recipient || !conf.notOnOrAfter) throw invalidToken('Invalid SAML response: SubjectConfirmationData must have both Recipient and NotOnOrAfter');
  if (!isSigninEndpoint(conf.recipient, extra)) throw invalidToken(`Invalid SAML response: Recipient ${conf.recipient} is not an AWS sign-in endpoint`);
  const audienceOk = a.audienceRestrictions.length > 0 && a.audienceRestrictions.every((r) => r.some((x) => isAwsAudience(x, extra)));
  if (!audienceOk) throw invalidToken('Response does not contain the required audience');

  const now = ctx.now();
  checkTimes(ctx, now, [
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
  if (issued > now + ctx.options.clockSkewMs) throw invalidToken(`Invalid SAML response: IssueInstant ${a.issueInstant} is in the future`);
  if (now - issued > REDEEM_WITHIN_MS) throw new StsError('ExpiredTokenException', 'Token must be redeemed within 5 minutes of issuance');

  const attr = (n: string) => a.attributes.get(`${ctx.options.cloudDomain}/SAML/Attributes/${n}`);
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
  const role = ctx.store.role(roleArn);
  const subjectType = shortFormat(a.nameIdFormat);
  const recipient = conf.recipient;
  const nameQualifier = createHash('sha1').update(provider.entityId + ctx.options.accountId + '/' + provider.name).digest('base64');
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

  const granted = await issueSession(ctx, role!, sessionName, expires, 'AssumeRoleWithSAML', principalArn, a.nameId ?? '');
  return {
    ...granted,
    Subject: a.nameId ?? '',
    SubjectType: subjectType ?? '',
    Issuer: provider.entityId,
    Audience: recipient,
    NameQualifier: nameQualifier,
  };
}

function checkTimes(ctx: StsContext, now: number, checks: { at?: string; kind: 'start' | 'end'; what: string }[]): void {
  for (const c of checks) {
    if (!c.at) continue;
    const t = Date.parse(c.at);
    if (Number.isNaN(t)) throw invalidToken(`Invalid SAML response: ${c.what} is not a date/time`);
    if (c.kind === 'end' && now >= t) {
      throw new StsError('ExpiredTokenException', `Token expired: current date/time ${iso(now)} must be before the ${c.what} date/time ${iso(t)}`);
    }
    if (c.kind === 'start' && now + ctx.options.clockSkewMs < t) throw invalidToken(`Invalid SAML response: assertion is not yet valid (${c.what} ${iso(t)})`);
  }
}

/** Strict base64 → XML text; undefined when it is not base64 or does not decode to markup. */
function decodeBase64Xml(b64: string): string | undefined {
  const s = b64.replace(/[\r\n\t ]/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s) || s.length % 4 === 1) return undefined;
  const text = decodeXmlBytes(Buffer.from(s, 'base64'));
  if (text === undefined) return undefined;
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('<')) return undefined;
  return trimmed;
}

/**
 * XML bytes as text in the encoding they declare (XML 1.0 4.3.3 / appendix F): a UTF-16 byte
 * order mark, else the encoding="…" of the declaration, else UTF-8. Canonical XML is defined on
 * characters, so the signature is checked over what the signer meant, whatever the bytes.
 */
function decodeXmlBytes(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /^(?:\uFEFF|\xEF\xBB\xBF)?\s*<\?xml[^>]*\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  if (declared === undefined || declared === 'utf-8' || declared === 'utf8') return bytes.toString('utf8');
  if (['iso-8859-1', 'latin1', 'l1', 'iso_8859-1', 'us-ascii', 'ascii', 'windows-1252', 'cp1252'].includes(declared)) {
    // windows-1252 differs from Latin-1 only in 0x80–0x9F, which TextDecoder maps as browsers do.
    return declared.includes('1252') ? new TextDecoder('windows-1252').decode(bytes) : bytes.toString('latin1');
  }
  try {
    return new TextDecoder(declared, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** AWS drops the standard SAML 2.0 name-id-format prefix: "…:nameid-format:transient" → "transient". */
function shortFormat(format: string | undefined): string | undefined {
  if (!format) return undefined;
  const prefix = 'urn:oasis:names:tc:SAML:2.0:nameid-format:';
  return format.startsWith(prefix) ? format.slice(prefix.length) : format;
}
