/**
 * Test support (not product code): an IdP key pair and SAML responses signed the way Keycloak
 * signs them (RSA-SHA256, exclusive canonicalization, enveloped signature after the Issuer),
 * so the STS's real verifier can be exercised without the IdP. Attack tests start from these
 * and tamper with the XML.
 */
import { webcrypto, randomUUID } from 'node:crypto';
// @peculiar/x509 (through tsyringe) needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { SignedXml } from 'xml-crypto';
import { escapeXml } from '../saml/safe-xml.js';

export interface SigningKey {
  privateKeyPem: string;
  certPem: string;
  /** Base64 DER, as it appears in ds:X509Certificate. */
  certBase64: string;
}

export async function generateSigningKey(commonName = 'loupe-test-idp'): Promise<SigningKey> {
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - 86400_000),
    notAfter: new Date(Date.now() + 365 * 86400_000),
    signingAlgorithm: alg,
    keys,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as unknown as webcrypto.CryptoKey));
  const privateKeyPem = `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
  const certPem = cert.toString('pem');
  return { privateKeyPem, certPem, certBase64: Buffer.from(cert.rawData).toString('base64') };
}

export function idpMetadataXml(entityId: string, key: SigningKey): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escapeXml(entityId)}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${key.certBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="http://127.0.0.1/realms/test/protocol/saml"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

export interface ResponseSpec {
  issuer: string;
  nameId?: string;
  nameIdFormat?: string;
  destination?: string;
  recipient?: string;
  audience?: string;
  /** Epoch ms; default now. */
  issueInstant?: number;
  notBefore?: number;
  notOnOrAfter?: number;
  sessionNotOnOrAfter?: number;
  status?: string;
  /** Attribute name → values; names are used as given (build them with `awsAttr`). */
  attributes?: Record<string, string[]>;
  responseId?: string;
  assertionId?: string;
}

export const awsAttr = (n: 'Role' | 'RoleSessionName' | 'SessionDuration', domain = 'https://aws.amazon.com'): string => `${domain}/SAML/Attributes/${n}`;
const iso = (ms: number) => new Date(ms).toISOString();

export function buildResponseXml(s: ResponseSpec): string {
  const now = s.issueInstant ?? Date.now();
  const notBefore = s.notBefore ?? now - 60_000;
  const notOnOrAfter = s.notOnOrAfter ?? now + 5 * 60_000;
  const rid = s.responseId ?? `ID_${randomUUID()}`;
  const aid = s.assertionId ?? `ID_${randomUUID()}`;
  const dest = s.destination ?? 'https://signin.aws.amazon.com/saml';
  const attrs = Object.entries(s.attributes ?? {})
    .map(
      ([name, values]) =>
        `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
          .map((v) => `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`)
          .join('')}</saml:Attribute>`,
    )
    .join('');
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" Destination="${escapeXml(dest)}" ID="${rid}" IssueInstant="${iso(now)}" Version="2.0">` +
    `<saml:Issuer>${escapeXml(s.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${s.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>` +
    `<saml:Assertion ID="${aid}" IssueInstant="${iso(now)}" Version="2.0">` +
    `<saml:Issuer>${escapeXml(s.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${escapeXml(s.nameIdFormat ?? 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent')}">${escapeXml(s.nameId ?? 'alice')}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${escapeXml(s.recipient ?? dest)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${escapeXml(s.audience ?? 'urn:amazon:webservices')}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${randomUUID()}"${s.sessionNotOnOrAfter ? ` SessionNotOnOrAfter="${iso(s.sessionNotOnOrAfter)}"` : ''}><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
    `</saml:Assertion></samlp:Response>`
  );
}

/** Signs the element `what` (the first Assertion, or the Response) with an enveloped signature placed after its Issuer. */
export function signXml(xml: string, key: SigningKey, what: 'Assertion' | 'Response'): string {
  const sig = new SignedXml({
    privateKey: key.privateKeyPem,
    publicCert: key.certPem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const target = what === 'Assertion' ? "//*[local-name(.)='Assertion' and namespace-uri(.)='urn:oasis:names:tc:SAML:2.0:assertion']" : "/*[local-name(.)='Response']";
  sig.addReference({
    xpath: target,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

export function signedResponseBase64(spec: ResponseSpec, key: SigningKey, sign: 'Assertion' | 'Response' | 'both' = 'Assertion'): string {
  let xml = buildResponseXml(spec);
  if (sign === 'Assertion' || sign === 'both') xml = signXml(xml, key, 'Assertion');
  if (sign === 'Response' || sign === 'both') xml = signXml(xml, key, 'Response');
  return Buffer.from(xml, 'utf8').toString('base64');
}
