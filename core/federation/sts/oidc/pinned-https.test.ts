/**
 * The thumbprint IAM checks is the SHA-1 of the top certificate of the chain the server
 * presents (the top intermediate when the server sends leaf + intermediate). A server with
 * such a chain is built here with @peculiar/x509.
 */
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createHash, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { closeServer } from '../../../common/http.js';
import { pinnedGet, PinnedFetchError } from './pinned-https.js';

const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
const sha1 = (c: x509.X509Certificate) => createHash('sha1').update(Buffer.from(c.rawData)).digest('hex');
let server: https.Server;
let url: string;
let rootCert: x509.X509Certificate;
let interCert: x509.X509Certificate;
let leafCert: x509.X509Certificate;

beforeAll(async () => {
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const keys = async () => (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const [root, inter, leaf] = [await keys(), await keys(), await keys()];
  const ca = [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)];
  rootCert = await x509.X509CertificateGenerator.createSelfSigned({ serialNumber: '01', name: 'CN=Test Root', keys: root as never, signingAlgorithm: alg, extensions: ca });
  interCert = await x509.X509CertificateGenerator.create({ serialNumber: '02', subject: 'CN=Test Intermediate', issuer: rootCert.subject, publicKey: inter.publicKey as never, signingKey: root.privateKey as never, signingAlgorithm: alg, extensions: ca });
  leafCert = await x509.X509CertificateGenerator.create({
    serialNumber: '03',
    subject: 'CN=127.0.0.1',
    issuer: interCert.subject,
    publicKey: leaf.publicKey as never,
    signingKey: inter.privateKey as never,
    signingAlgorithm: alg,
    extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'ip', value: '127.0.0.1' }])],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leaf.privateKey)).toString('base64');
  server = https.createServer({ key: `-----BEGIN PRIVATE KEY-----\n${pkcs8}\n-----END PRIVATE KEY-----\n`, cert: leafCert.toString('pem') + '\n' + interCert.toString('pem') }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
});
afterAll(async () => {
  await closeServer(server);
});

describe('OIDC provider thumbprints', () => {
  it('are taken from the top certificate the server presents (the intermediate), not the leaf', async () => {
    const r = await pinnedGet(url, undefined);
    expect(r.status).toBe(200);
    expect(r.thumbprint).toBe(sha1(interCert));
    expect(r.thumbprint).not.toBe(sha1(leafCert));
    expect(r.thumbprint).not.toBe(sha1(rootCert));
  });

  it('a matching pin (any case) is trusted without the system CA store', async () => {
    expect((await pinnedGet(url, [sha1(interCert).toUpperCase()])).body).toBe('{"ok":true}');
  });

  it('a pin of the leaf alone is refused before the body is read', async () => {
    await expect(pinnedGet(url, [sha1(leafCert)])).rejects.toSatisfy((e: unknown) => e instanceof PinnedFetchError && e.kind === 'thumbprint');
  });

  it('plain http is refused', async () => {
    await expect(pinnedGet(url.replace('https:', 'http:'), undefined)).rejects.toThrow(/must use https/);
  });
});
