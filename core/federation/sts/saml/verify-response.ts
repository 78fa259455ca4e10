/**
 * Verifies a SAML Response's XML signature with the provider's certificates and returns ONLY
 * the signed content, re-parsed from the bytes the signature covers (xml-crypto's
 * `getSignedReferences()`): what is read afterwards cannot be anything the IdP did not sign.
 *
 * Signature wrapping is refused before any signature is checked: the document must hold
 * exactly one Assertion, as a direct child of the root Response, and a signature counts only
 * when it sits directly in the element its single Reference points to.
 */
import { SignedXml } from 'xml-crypto';
import type { Document, Element } from '@xmldom/xmldom';
import { childElement, childElements, descendants, NS, parseUntrustedXml, UnsafeXmlError } from './safe-xml.js';

export type SamlRejection = 'unsafe' | 'malformed' | 'wrapping' | 'missing-signature' | 'bad-signature' | 'encrypted';

export class SamlVerifyError extends Error {
  constructor(
    readonly reason: SamlRejection,
    message: string,
  ) {
    super(message);
  }
}

export interface SignedSaml {
  /** The Assertion as signed (from the signed bytes). */
  assertion: Element;
  /** The Response as signed, when the Response itself carries the signature. */
  signedResponse?: Element;
  /** The Response as received: use its unsigned parts only to reject, never to grant. */
  receivedResponse: Element;
  signedParts: ('Response' | 'Assertion')[];
}

export function verifySamlResponse(xml: string, certificates: string[]): SignedSaml {
  let doc: Document;
  try {
    doc = parseUntrustedXml(xml);
  } catch (err) {
    throw new SamlVerifyError(err instanceof UnsafeXmlError && /DOCTYPE/.test(err.message) ? 'unsafe' : 'malformed', (err as Error).message);
  }
  const root = doc.documentElement!;
  if (root.namespaceURI !== NS.protocol || root.localName !== 'Response') throw new SamlVerifyError('malformed', 'root element is not a SAML 2.0 Response');
  if (descendants(doc, NS.assertion, 'EncryptedAssertion').length > 0) throw new SamlVerifyError('encrypted', 'encrypted assertions are not supported: no decryption key is configured');

  const assertions = descendants(doc, NS.assertion, 'Assertion');
  if (assertions.length === 0) throw new SamlVerifyError('malformed', 'the Response holds no Assertion');
  if (assertions.length > 1) throw new SamlVerifyError('wrapping', `the Response holds ${assertions.length} Assertion elements; exactly one is allowed`);
  const assertion = assertions[0]!;
  if (assertion.parentNode !== root) throw new SamlVerifyError('wrapping', 'the Assertion is not a direct child of the Response');

  const responseSig = childElements(root, NS.dsig, 'Signature');
  const assertionSig = childElements(assertion, NS.dsig, 'Signature');
  if (responseSig.length > 1 || assertionSig.length > 1) throw new SamlVerifyError('wrapping', 'more than one Signature on one element');
  if (responseSig.length === 0 && assertionSig.length === 0) throw new SamlVerifyError('missing-signature', 'neither the Response nor the Assertion is signed');

  const result: SignedSaml = { assertion, receivedResponse: root, signedParts: [] };
  let signedAssertion: Element | undefined;
  if (assertionSig[0]) {
    const signed = checkEnveloped(xml, assertion, assertionSig[0], certificates);
    if (signed.namespaceURI !== NS.assertion || signed.localName !== 'Assertion') throw new SamlVerifyError('wrapping', 'the signed element is not the Assertion');
    signedAssertion = signed;
    result.signedParts.push('Assertion');
  }
  if (responseSig[0]) {
    const signed = checkEnveloped(xml, root, responseSig[0], certificates);
    if (signed.namespaceURI !== NS.protocol || signed.localName !== 'Response') throw new SamlVerifyError('wrapping', 'the signed element is not the Response');
    const inner = descendants(signed, NS.assertion, 'Assertion');
    if (inner.length !== 1 || inner[0]!.parentNode !== signed) throw new SamlVerifyError('wrapping', 'the signed Response does not hold exactly one Assertion');
    result.signedResponse = signed;
    signedAssertion ??= inner[0]!;
    result.signedParts.unshift('Response');
  }
  result.assertion = signedAssertion!;
  return result;
}

/**
 * Checks one enveloped signature sitting in `owner` and returns `owner` re-parsed from the
 * canonical bytes the signature covers.
 */
function checkEnveloped(xml: string, owner: Element, signature: Element, certificates: string[]): Element {
  const id = owner.getAttribute('ID');
  if (!id) throw new SamlVerifyError('malformed', `${owner.localName} has no ID attribute`);
  const signedInfo = childElement(signature, NS.dsig, 'SignedInfo');
  const refs = signedInfo ? childElements(signedInfo, NS.dsig, 'Reference') : [];
  if (refs.length !== 1) throw new SamlVerifyError('wrapping', `the ${owner.localName} signature must have exactly one Reference`);
  if (refs[0]!.getAttribute('URI') !== `#${id}`) throw new SamlVerifyError('wrapping', `the ${owner.localName} signature does not reference its own ${owner.localName} (#${id})`);

  let lastError = 'no certificate';
  for (const cert of certificates) {
    // getCertFromKeyInfo stays the default no-op: a KeyInfo certificate sent by the caller is
    // never trusted, only the provider's own.
    const sx = new SignedXml({ publicCert: cert });
    try {
      sx.loadSignature(signature as unknown as Parameters<SignedXml["loadSignature"]>[0]);
      if (sx.checkSignature(xml) !== true) {
        lastError = 'a reference digest does not match';
        continue;
      }
    } catch (err) {
      lastError = (err as Error).message;
      if (/multiple elements with the same value for the ID/.test(lastError)) throw new SamlVerifyError('wrapping', 'two elements carry the signed ID');
      continue;
    }
    const refsSigned = sx.getSignedReferences();
    if (refsSigned.length !== 1) throw new SamlVerifyError('wrapping', 'the signature covers more than one reference');
    const signedDoc = parseUntrustedXml(refsSigned[0]!);
    const signed = signedDoc.documentElement!;
    if (signed.getAttribute('ID') !== id) throw new SamlVerifyError('wrapping', 'the signed element is not the one read');
    return signed;
  }
  throw new SamlVerifyError('bad-signature', `signature of the ${owner.localName} is invalid: ${lastError}`);
}
