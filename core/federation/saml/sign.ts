/**
 * Enveloped XML signatures for SAML documents with xml-crypto: RSA-SHA256, SHA-256 digests and
 * exclusive canonicalization, the Signature placed right after the element's Issuer as the SAML
 * schema requires. The assertion is signed first so a response signature covers it as signed.
 */
import { SignedXml } from 'xml-crypto';

export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
export const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

export interface SigningMaterial {
  privateKeyPem: string;
  certPem: string;
}

function signElement(xml: string, elementXpath: string, key: SigningMaterial): string {
  const sig = new SignedXml({
    privateKey: key.privateKeyPem,
    publicCert: key.certPem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  sig.addReference({ xpath: elementXpath, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256 });
  sig.computeSignature(xml, { prefix: 'dsig', location: { reference: `${elementXpath}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

/** Signs a whole protocol message (e.g. a LogoutResponse) whose root is `rootLocalName`. */
export function signSamlMessage(xml: string, rootLocalName: string, key: SigningMaterial): string {
  return signElement(xml, `/*[local-name(.)='${rootLocalName}']`, key);
}

export function signSamlResponse(xml: string, key: SigningMaterial, what: { assertion: boolean; response: boolean }): string {
  let out = xml;
  if (what.assertion) out = signElement(out, "/*[local-name(.)='Response']/*[local-name(.)='Assertion']", key);
  if (what.response) out = signElement(out, "/*[local-name(.)='Response']", key);
  return out;
}
