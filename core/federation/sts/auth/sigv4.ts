/**
 * Verifies an AWS Signature Version 4 request by signing it again with AWS's own signer
 * (`@smithy/signature-v4`) and the secret we issued, over exactly the headers the caller
 * listed in SignedHeaders, and comparing the two signatures in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { HttpRequest } from '@smithy/protocol-http';
import { Sha256 } from '@aws-crypto/sha256-js';

export interface ParsedAuthorization {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

const AUTH_RE = /^AWS4-HMAC-SHA256\s+Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})\s*$/;

export function parseAuthorization(header: string): ParsedAuthorization | undefined {
  const m = AUTH_RE.exec(header);
  if (!m) return undefined;
  return { accessKeyId: m[1]!, date: m[2]!, region: m[3]!, service: m[4]!, signedHeaders: m[5]!.split(';'), signature: m[6]! };
}

/** "20260101T000000Z" → epoch ms, or NaN. */
export function parseAmzDate(s: string | undefined): number {
  const m = s ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s) : null;
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN;
}

export interface IncomingSigned {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export async function signatureMatches(req: IncomingSigned, auth: ParsedAuthorization, secret: string, sessionToken: string | undefined, signingDateMs: number): Promise<boolean> {
  const headers: Record<string, string> = {};
  for (const name of auth.signedHeaders) {
    const v = req.headers[name];
    if (v === undefined) return false;
    headers[name] = Array.isArray(v) ? v.join(',') : v;
  }
  const host = headers.host ?? '';
  const request = new HttpRequest({ method: req.method, protocol: 'http:', hostname: host.replace(/:\d+$/, ''), path: req.path, query: req.query, headers, body: req.body });
  const signer = new SignatureV4({
    credentials: { accessKeyId: auth.accessKeyId, secretAccessKey: secret, sessionToken },
    region: auth.region,
    service: auth.service,
    sha256: Sha256,
    // Otherwise the signer adds x-amz-content-sha256 to the signed headers. botocore (the AWS
    // CLI, boto3) does not sign it for STS, so its requests would never match; a client that
    // did sign it sent the header, and it is signed from the request like any other.
    applyChecksum: false,
  });
  const signed = await signer.sign(request, { signingDate: new Date(signingDateMs), signingRegion: auth.region, signingService: auth.service });
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization ?? signed.headers.Authorization))?.[1];
  if (!expected) return false;
  // The signer must have signed the same header set; otherwise the comparison means nothing.
  const signedList = /SignedHeaders=([^,\s]+)/.exec(String(signed.headers.authorization ?? signed.headers.Authorization))?.[1];
  if (signedList !== auth.signedHeaders.join(';')) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(auth.signature));
}

export interface QueryAuthorization extends ParsedAuthorization {
  amzDate: string;
  expiresSeconds: number;
  sessionToken?: string;
}

const AUTH_PARAMS = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature', 'X-Amz-Security-Token'];

/** A presigned request (query-string authentication), as `aws eks get-token` and Vault's aws auth make them. */
export function parseQueryAuthorization(query: Record<string, string>): QueryAuthorization | undefined {
  if (query['X-Amz-Algorithm'] !== 'AWS4-HMAC-SHA256') return undefined;
  const cred = /^([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request$/.exec(query['X-Amz-Credential'] ?? '');
  const signature = query['X-Amz-Signature'] ?? '';
  const expires = Number(query['X-Amz-Expires'] ?? '');
  if (!cred || !/^[0-9a-f]{64}$/.test(signature) || !query['X-Amz-SignedHeaders'] || !Number.isInteger(expires)) return undefined;
  return {
    accessKeyId: cred[1]!,
    date: cred[2]!,
    region: cred[3]!,
    service: cred[4]!,
    signedHeaders: query['X-Amz-SignedHeaders'].split(';'),
    signature,
    amzDate: query['X-Amz-Date'] ?? '',
    expiresSeconds: expires,
    sessionToken: query['X-Amz-Security-Token'],
  };
}

export async function presignedSignatureMatches(req: IncomingSigned, auth: QueryAuthorization, secret: string, signingDateMs: number): Promise<boolean> {
  const headers: Record<string, string> = {};
  for (const name of auth.signedHeaders) {
    const v = req.headers[name];
    if (v === undefined) return false;
    headers[name] = Array.isArray(v) ? v.join(',') : v;
  }
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.query)) if (!AUTH_PARAMS.includes(k)) query[k] = v;
  const host = headers.host ?? '';
  const request = new HttpRequest({ method: req.method, protocol: 'http:', hostname: host.replace(/:\d+$/, ''), path: req.path, query, headers, body: req.body || undefined });
  const signer = new SignatureV4({
    credentials: { accessKeyId: auth.accessKeyId, secretAccessKey: secret, sessionToken: auth.sessionToken },
    region: auth.region,
    service: auth.service,
    sha256: Sha256,
  });
  const presigned = await signer.presign(request, { signingDate: new Date(signingDateMs), expiresIn: auth.expiresSeconds, signingRegion: auth.region, signingService: auth.service });
  const expected = String(presigned.query?.['X-Amz-Signature'] ?? '');
  if (presigned.query?.['X-Amz-SignedHeaders'] !== auth.signedHeaders.join(';') || expected.length !== auth.signature.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(auth.signature));
}
