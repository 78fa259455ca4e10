/**
 * The token-service calls `loupe login` and `loupe credential-process` make, through
 * @aws-sdk/client-sts at a base URL (the embedded STS or a real AWS endpoint). Failures keep
 * STS's code and message (`StsCallError`), or say that the service could not be reached.
 */
import { AssumeRoleWithSAMLCommand, AssumeRoleWithWebIdentityCommand, GetCallerIdentityCommand, STSClient, type Credentials } from '@aws-sdk/client-sts';
import type { AwsCredentials } from './types.js';

/**
 * The region SigV4 signs for: a regional AWS endpoint names it (https://sts.eu-west-1.amazonaws.com);
 * the global endpoint and the embedded service sign for us-east-1, as the AWS CLI does.
 */
export function stsRegion(url: string): string {
  return /^https?:\/\/sts[.-]([a-z]{2}(?:-gov)?-[a-z]+-\d)\.amazonaws\.com(?:\.cn)?/i.exec(url)?.[1]?.toLowerCase() ?? 'us-east-1';
}

export class StsCallError extends Error {
  constructor(
    /** STS's error code (InvalidIdentityToken…), or 'Unreachable'. */
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'StsCallError';
  }
}

export interface Assumed {
  credentials: AwsCredentials;
  assumedRoleArn: string;
}

function client(endpoint: string, creds?: AwsCredentials): STSClient {
  return new STSClient({
    region: stsRegion(endpoint),
    endpoint,
    maxAttempts: 1,
    // Unsigned calls (AssumeRoleWith*) need none; the SDK still wants some configured.
    credentials: creds ? { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, sessionToken: creds.sessionToken } : { accessKeyId: 'AKIDLOUPEUNSIGNED000', secretAccessKey: 'unsigned-call' },
  });
}

async function send<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const e = err as Error & { Code?: string; $metadata?: { httpStatusCode?: number } };
    if (e.$metadata?.httpStatusCode) throw new StsCallError(e.Code ?? e.name, e.message, e.$metadata.httpStatusCode);
    throw new StsCallError('Unreachable', `The token service could not be reached: ${e.message}`);
  }
}

function toAssumed(c: Credentials | undefined, arn: string | undefined): Assumed {
  if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken || !c.Expiration) throw new StsCallError('NoCredentials', 'The token service answered without credentials');
  return { credentials: { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken, expiration: c.Expiration.toISOString().replace('.000Z', 'Z') }, assumedRoleArn: arn ?? '' };
}

export async function assumeRoleWithSaml(endpoint: string, p: { samlResponse: string; roleArn: string; principalArn: string; durationSeconds?: number }): Promise<Assumed> {
  const out = await send(() =>
    client(endpoint).send(new AssumeRoleWithSAMLCommand({ SAMLAssertion: p.samlResponse, RoleArn: p.roleArn, PrincipalArn: p.principalArn, ...(p.durationSeconds ? { DurationSeconds: p.durationSeconds } : {}) })),
  );
  return toAssumed(out.Credentials, out.AssumedRoleUser?.Arn);
}

export async function assumeRoleWithWebIdentity(endpoint: string, p: { token: string; roleArn: string; roleSessionName: string; durationSeconds?: number }): Promise<Assumed> {
  const out = await send(() =>
    client(endpoint).send(new AssumeRoleWithWebIdentityCommand({ WebIdentityToken: p.token, RoleArn: p.roleArn, RoleSessionName: p.roleSessionName, ...(p.durationSeconds ? { DurationSeconds: p.durationSeconds } : {}) })),
  );
  return toAssumed(out.Credentials, out.AssumedRoleUser?.Arn);
}

export async function callerIdentity(endpoint: string, creds: AwsCredentials): Promise<{ arn: string; account: string; userId: string }> {
  const out = await send(() => client(endpoint, creds).send(new GetCallerIdentityCommand({})));
  return { arn: out.Arn ?? '', account: out.Account ?? '', userId: out.UserId ?? '' };
}
