/**
 * GetCallerIdentity for temporary credentials this service issued: the SigV4 signature (in the
 * Authorization header, or in the query string of a presigned URL) is computed again with the
 * issued secret and compared; the session token must be the issued one and not expired.
 */
import type { StsContext } from '../context.js';
import { StsError } from '../errors.js';
import { amzBasic } from '../time.js';
import { parseAmzDate, parseAuthorization, parseQueryAuthorization, presignedSignatureMatches, signatureMatches, type IncomingSigned } from './sigv4.js';

export interface CallerIdentity {
  Arn: string;
  UserId: string;
  Account: string;
}

// The answers both ways of signing share, in AWS's words.
const invalidKey = () => new StsError('InvalidClientTokenId', 'The security token included in the request is invalid.', 403);
const expiredToken = () => new StsError('ExpiredToken', 'The security token included in the request is expired', 403);
const signatureMismatch = () =>
  new StsError(
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    403,
  );

export async function getCallerIdentity(ctx: StsContext, req: IncomingSigned): Promise<CallerIdentity> {
  const header = req.headers.authorization;
  const authz = Array.isArray(header) ? header[0] : header;
  const flatQuery = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, Array.isArray(v) ? v[0]! : v]));
  if (!authz && flatQuery['X-Amz-Algorithm'] !== undefined) return presignedCallerIdentity(ctx, req, flatQuery);
  if (!authz) throw new StsError('MissingAuthenticationToken', 'Request is missing Authentication Token', 403);
  const auth = parseAuthorization(authz);
  if (!auth) throw new StsError('IncompleteSignature', `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters of AWS4-HMAC-SHA256.`, 400);
  const session = ctx.store.session(auth.accessKeyId);
  if (!session) throw invalidKey();
  const tokenHeader = req.headers['x-amz-security-token'];
  const token = Array.isArray(tokenHeader) ? tokenHeader[0] : tokenHeader;
  if (!token || token !== session.sessionToken || !auth.signedHeaders.includes('x-amz-security-token')) throw invalidKey();
  const dateHeader = req.headers['x-amz-date'];
  const amzDate = Array.isArray(dateHeader) ? dateHeader[0] : dateHeader;
  const signedAt = parseAmzDate(amzDate);
  if (Number.isNaN(signedAt) || !amzDate!.startsWith(auth.date)) throw new StsError('IncompleteSignature', 'Date must be in ISO-8601 \'basic format\'. Got \'' + (amzDate ?? '') + "'. See http://en.wikipedia.org/wiki/ISO_8601", 400);
  if (!(await signatureMatches(req, auth, session.secretAccessKey, token, signedAt))) {
    throw signatureMismatch();
  }
  // An expired token is reported as such even when the request is old too.
  const now = ctx.now();
  if (Date.parse(session.expiration) <= now) throw expiredToken();
  if (Math.abs(now - signedAt) > 15 * 60_000) {
    throw new StsError('SignatureDoesNotMatch', `Signature expired: ${amzDate} is now earlier than ${amzBasic(now - 15 * 60_000)} (${amzBasic(now)} - 15 min.)`, 403);
  }
  return { Arn: session.assumedRoleArn, UserId: session.assumedRoleId, Account: ctx.options.accountId };
}

/** GetCallerIdentity authenticated by the query string (a presigned URL). */
async function presignedCallerIdentity(ctx: StsContext, req: IncomingSigned, query: Record<string, string>): Promise<CallerIdentity> {
  const auth = parseQueryAuthorization(query);
  if (!auth) throw new StsError('AuthorizationQueryParametersError', 'X-Amz-Algorithm, X-Amz-Credential, X-Amz-Date, X-Amz-Expires, X-Amz-SignedHeaders and X-Amz-Signature are required for query-string authentication.', 400);
  const session = ctx.store.session(auth.accessKeyId);
  if (!session || !auth.sessionToken || auth.sessionToken !== session.sessionToken) throw invalidKey();
  const signedAt = parseAmzDate(auth.amzDate);
  if (Number.isNaN(signedAt) || !auth.amzDate.startsWith(auth.date)) throw new StsError('AuthorizationQueryParametersError', `Invalid X-Amz-Date: ${auth.amzDate}`, 400);
  if (!(await presignedSignatureMatches(req, auth, session.secretAccessKey, signedAt))) {
    throw signatureMismatch();
  }
  const now = ctx.now();
  if (Date.parse(session.expiration) <= now) throw expiredToken();
  if (now > signedAt + auth.expiresSeconds * 1000) throw new StsError('AccessDenied', 'Request has expired', 403);
  if (signedAt - now > 15 * 60_000) throw new StsError('SignatureDoesNotMatch', `Signature not yet current: ${auth.amzDate} is still later than ${amzBasic(now + 15 * 60_000)} (${amzBasic(now)} + 15 min.)`, 403);
  return { Arn: session.assumedRoleArn, UserId: session.assumedRoleId, Account: ctx.options.accountId };
}
