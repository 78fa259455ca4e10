/**
 * Maps the STS Query API (POST / form-encoded, or GET with a query string) to engine calls,
 * and engine results and StsErrors to AWS's XML. Never answers a stack trace.
 */
import type http from 'node:http';
import { sendText } from '../../../common/http.js';
import { uuid } from '../../../common/ids.js';
import type { Logger } from '../../../common/log.js';
import type { StsEngine } from '../engine.js';
import { StsError } from '../errors.js';
import { errorXml, successXml } from './xml.js';
import type { TemporaryCredentials } from '../auth/issue-credentials.js';

const credentialsXml = (c: TemporaryCredentials) => ({ AccessKeyId: c.accessKeyId, SecretAccessKey: c.secretAccessKey, SessionToken: c.sessionToken, Expiration: c.expiration });

const VERSION = '2011-06-15';
const NOT_IMPLEMENTED = new Set(['AssumeRole', 'AssumeRoot', 'DecodeAuthorizationMessage', 'GetAccessKeyInfo', 'GetFederationToken', 'GetSessionToken', 'GetWebIdentityToken']);

export async function handleQuery(engine: StsEngine, req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: string, log: Logger): Promise<void> {
  const requestId = uuid();
  const params: Record<string, string> = {};
  for (const [k, v] of url.searchParams) params[k] = v;
  const ct = String(req.headers['content-type'] ?? '');
  if (req.method === 'POST' && (ct === '' || ct.startsWith('application/x-www-form-urlencoded'))) {
    for (const [k, v] of new URLSearchParams(body)) params[k] = v;
  }
  const send = (status: number, xml: string) => sendText(res, status, xml, 'text/xml', { 'x-amzn-RequestId': requestId });
  try {
    const action = params.Action;
    if (!action) throw new StsError('MissingAction', 'Missing Action');
    if (params.Version !== undefined && params.Version !== VERSION) throw new StsError('InvalidAction', `Could not find operation ${action} for version ${params.Version}`);
    switch (action) {
      case 'AssumeRoleWithSAML': {
        const r = await engine.assumeRoleWithSaml(params, requestId);
        log.info('AssumeRoleWithSAML', { role: r.AssumedRoleUser.Arn, requestId });
        return send(
          200,
          successXml(
            action,
            { Credentials: credentialsXml(r.Credentials), AssumedRoleUser: { ...r.AssumedRoleUser }, Subject: r.Subject, SubjectType: r.SubjectType, Issuer: r.Issuer, Audience: r.Audience, NameQualifier: r.NameQualifier },
            requestId,
          ),
        );
      }
      case 'AssumeRoleWithWebIdentity': {
        const r = await engine.assumeRoleWithWebIdentity(params);
        log.info('AssumeRoleWithWebIdentity', { role: r.AssumedRoleUser.Arn, requestId });
        return send(
          200,
          successXml(
            action,
            { Credentials: credentialsXml(r.Credentials), AssumedRoleUser: { ...r.AssumedRoleUser }, SubjectFromWebIdentityToken: r.SubjectFromWebIdentityToken, Provider: r.Provider, Audience: r.Audience },
            requestId,
          ),
        );
      }
      case 'GetCallerIdentity': {
        const query: Record<string, string> = {};
        for (const [k, v] of url.searchParams) query[k] = v;
        const r = await engine.getCallerIdentity({ method: req.method ?? 'POST', path: url.pathname, query, headers: req.headers, body });
        return send(200, successXml(action, { Arn: r.Arn, UserId: r.UserId, Account: r.Account }, requestId));
      }
      default:
        if (NOT_IMPLEMENTED.has(action)) throw new StsError('InvalidAction', `Could not find operation ${action} for version ${VERSION}: Loupe's embedded STS implements AssumeRoleWithSAML, AssumeRoleWithWebIdentity and GetCallerIdentity`);
        throw new StsError('InvalidAction', `Could not find operation ${action} for version ${VERSION}`);
    }
  } catch (err) {
    if (err instanceof StsError) {
      log.info('STS request rejected', { code: err.code, status: err.status, requestId });
      return send(err.status, errorXml(err, requestId));
    }
    log.error('STS request failed', { error: (err as Error).message, requestId });
    return send(500, errorXml(new StsError('InternalFailure', 'The request processing has failed because of an unknown error, exception or failure.', 500, 'Receiver'), requestId));
  }
}
