/**
 * Test support (not product code): a minimal OIDC issuer over HTTPS with a self-signed
 * certificate, serving a discovery document and a JWKS, and minting RS256 tokens with jose. It
 * lets the STS's real web-identity verifier (pinned HTTPS, JWKS, jose) run without the IdP.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createHash, X509Certificate } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import { closeServer } from '../../../common/http.js';
import { generateSigningKey } from './saml-signer.js';

export interface TestIssuer {
  issuer: string;
  /** SHA-1 hex of the TLS certificate (the whole chain is this one self-signed certificate). */
  thumbprint: string;
  sign(claims: JWTPayload, opts?: { expiresInSeconds?: number; kid?: string; headerKid?: string; typ?: string }): Promise<string>;
  /** How many times the discovery document and the JWKS were fetched. */
  readonly fetches: { discovery: number; jwks: number };
  /** A new signing key; the old one stays in the JWKS. */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestIssuer(realm = 'test'): Promise<TestIssuer> {
  const tls = await generateSigningKey('127.0.0.1');
  const keys: { kid: string; privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']; jwk: JWK }[] = [];
  const addKey = async () => {
    const kp = await generateKeyPair('RS256', { extractable: true });
    const kid = `k${keys.length + 1}`;
    keys.push({ kid, privateKey: kp.privateKey, jwk: { ...(await exportJWK(kp.publicKey)), kid, alg: 'RS256', use: 'sig' } });
  };
  await addKey();
  let issuer = '';
  const fetches = { discovery: 0, jwks: 0 };
  const server = https.createServer({ key: tls.privateKeyPem, cert: tls.certPem }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === `/realms/${realm}/.well-known/openid-configuration`) fetches.discovery++;
    if (path === `/realms/${realm}/protocol/openid-connect/certs`) fetches.jwks++;
    if (path === `/realms/${realm}/.well-known/openid-configuration`) return json({ issuer, jwks_uri: `${issuer}/protocol/openid-connect/certs`, token_endpoint: `${issuer}/protocol/openid-connect/token` });
    if (path === `/realms/${realm}/protocol/openid-connect/certs`) return json({ keys: keys.map((k) => k.jwk) });
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}/realms/${realm}`;
  const thumbprint = createHash('sha1').update(new X509Certificate(tls.certPem).raw).digest('hex');
  return {
    issuer,
    thumbprint,
    fetches,
    async sign(claims, opts = {}) {
      const k = opts.kid ? keys.find((x) => x.kid === opts.kid)! : keys[keys.length - 1]!;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, iat: now, exp: now + (opts.expiresInSeconds ?? 300), ...claims }).setProtectedHeader({ alg: 'RS256', kid: opts.headerKid ?? k.kid, typ: opts.typ ?? 'JWT' }).sign(k.privateKey);
    },
    rotate: addKey,
    close: () => closeServer(server),
  };
}
