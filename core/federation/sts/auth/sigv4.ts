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
  });
  const signed = await signer.sign(request, { signingDate: new Date(signingDateMs), signingRegion: auth.region, signingService: auth.service });
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization ?? signed.headers.Authorization))?.[1];
  if (!expected) return false;
  // The signer must have signed the same header set; otherwise the comparison means nothing.
  const signedList = /SignedHeaders=([^,\s]+)/.exec(String(signed.headers.authorization ?? signed.headers.Authorization))?.[1];
  if (signedList !== auth.signedHeaders.join(';')) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(auth.signature));
}
