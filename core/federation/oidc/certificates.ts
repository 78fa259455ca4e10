/**
 * RSA 2048 key pairs with self-signed X.509 certificates, made with @peculiar/x509 on Node's
 * WebCrypto. Used for the realm signing keys (SAML + JWT) and for the HTTPS listener.
 */
// @peculiar/x509 resolves its ASN.1 classes through tsyringe, which needs the Reflect metadata polyfill.
import 'reflect-metadata';
import { webcrypto, createHash } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALG = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

export interface KeyAndCert {
  privateKeyPem: string;
  certPem: string;
}

export interface CertOptions {
  commonName: string;
  /** Subject alternative names for a TLS certificate. */
  dnsNames?: string[];
  ips?: string[];
  validDays?: number;
}

export async function generateKeyAndCert(opts: CertOptions): Promise<KeyAndCert> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore.getTime() + (opts.validDays ?? 3650) * 86_400_000);
  const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(false, undefined, true)];
  extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true));
  const san = [...(opts.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })), ...(opts.ips ?? []).map((value) => ({ type: 'ip' as const, value }))];
  if (san.length > 0) {
    extensions.push(new x509.SubjectAlternativeNameExtension(san));
    extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]));
  }
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex').replace(/^[89a-f]/, '1'),
    name: `CN=${opts.commonName}`,
    notBefore,
    notAfter,
    signingAlgorithm: ALG,
    keys,
    extensions,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { privateKeyPem: toPem(pkcs8, 'PRIVATE KEY'), certPem: cert.toString('pem') + '\n' };
}

export function toPem(der: Buffer, label: string): string {
  const b64 = der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

/** The base64 body of a PEM certificate, as it goes into ds:X509Certificate and x5c. */
export function certBase64(certPem: string): string {
  return certPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

/** SHA-1 / SHA-256 thumbprints of a certificate, base64url as in JWK x5t / x5t#S256. */
export function certThumbprint(certPem: string, alg: 'sha1' | 'sha256'): string {
  return createHash(alg).update(Buffer.from(certBase64(certPem), 'base64')).digest('base64url');
}
