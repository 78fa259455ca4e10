import { describe, expect, it } from 'vitest';
import { SignatureV4 } from '@smithy/signature-v4';
import { HttpRequest } from '@smithy/protocol-http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { parseAmzDate, parseAuthorization, signatureMatches } from './sigv4.js';

/**
 * A GetCallerIdentity request exactly as the AWS CLI sent it (aws-cli/1.45.11, botocore
 * 1.43.11, captured on a local listener) with the credentials ASIATEST / secret / tok. botocore
 * signs content-type;host;x-amz-date;x-amz-security-token and no x-amz-content-sha256.
 */
const BOTOCORE = {
  method: 'POST',
  body: 'Action=GetCallerIdentity&Version=2011-06-15',
  headers: {
    host: '127.0.0.1:45999',
    'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    'x-amz-date': '20261122T061746Z',
    'x-amz-security-token': 'tok',
    authorization:
      'AWS4-HMAC-SHA256 Credential=ASIATEST/20261122/us-east-1/sts/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature=62fc026a8250c46b87dac1283995b88c810bd07e2e5d3922aa012b8d24c13bba',
    'content-length': '43',
  },
};

const verify = (req: typeof BOTOCORE, secret: string, token = 'tok') => {
  const auth = parseAuthorization(req.headers.authorization)!;
  return signatureMatches({ method: req.method, path: '/', query: {}, headers: req.headers, body: req.body }, auth, secret, token, parseAmzDate(req.headers['x-amz-date']));
};

describe('Signature Version 4 verification', () => {
  it('accepts a request signed by the AWS CLI (botocore), which does not sign x-amz-content-sha256', async () => {
    expect(await verify(BOTOCORE, 'secret')).toBe(true);
  });

  it('rejects the same request with another secret, another body or another session token', async () => {
    expect(await verify(BOTOCORE, 'secreT')).toBe(false);
    expect(await verify({ ...BOTOCORE, body: 'Action=GetCallerIdentity&Version=2011-06-16' }, 'secret')).toBe(false);
    expect(await verify({ ...BOTOCORE, headers: { ...BOTOCORE.headers, 'x-amz-security-token': 'other' } }, 'secret', 'other')).toBe(false);
  });

  it('accepts a request that does sign x-amz-content-sha256 (as the JavaScript SDK may)', async () => {
    const date = new Date(Date.UTC(2026, 10, 22, 6, 17, 46));
    const signer = new SignatureV4({ credentials: { accessKeyId: 'ASIATEST', secretAccessKey: 'secret', sessionToken: 'tok' }, region: 'us-east-1', service: 'sts', sha256: Sha256 });
    const signed = await signer.sign(
      new HttpRequest({ method: 'POST', protocol: 'http:', hostname: '127.0.0.1', path: '/', headers: { host: '127.0.0.1:45999', 'content-type': 'application/x-www-form-urlencoded' }, body: BOTOCORE.body }),
      { signingDate: date },
    );
    const headers = Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toLowerCase(), v])) as typeof BOTOCORE.headers;
    expect(headers.authorization).toContain('x-amz-content-sha256');
    expect(await verify({ ...BOTOCORE, headers }, 'secret')).toBe(true);
  });
});
