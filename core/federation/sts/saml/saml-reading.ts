/**
 * Everything AssumeRoleWithSAML does with XML, as one pure function of plain data so it can run
 * on a worker thread (xml-worker-pool.ts): bounds, safe parse, the unsigned issuer check AWS
 * makes first, signature verification, and reading the signed Assertion. What comes back is
 * plain data, or the rejection in AWS's words.
 */
import { readAssertion, responseIssuer, responseStatus, type AssertionFields } from './read-assertion.js';
import { descendants, NS, parseUntrustedXml, textOf } from './safe-xml.js';
import { SamlVerifyError, verifySamlResponse } from './verify-response.js';
import { checkXmlBounds, XmlBoundsError } from '../../saml/xml-bounds.js';

export interface SamlReadInput {
  xml: string;
  /** The provider's signing certificates (PEM). */
  certificates: string[];
  /** The provider's entity id: the only acceptable Issuer. */
  entityId: string;
}

export type SamlReading =
  | { ok: true; fields: AssertionFields; signedResponseIssuer?: string; destination: string | null; status?: string; signedParts: ('Response' | 'Assertion')[] }
  /** Rejected by AWS's inner SAML service (AuthSamlInvalidSamlResponseException). */
  | { ok: false; kind: 'rejected'; message: string }
  /** InvalidIdentityToken with this message. */
  | { ok: false; kind: 'invalid'; message: string };

export function readSamlResponse(input: SamlReadInput): SamlReading {
  const { xml, certificates, entityId } = input;
  let raw;
  try {
    checkXmlBounds(xml);
    raw = parseUntrustedXml(xml);
  } catch (err) {
    if (err instanceof XmlBoundsError) return { ok: false, kind: 'rejected', message: `Invalid SAML response: ${err.message}` };
    return { ok: false, kind: 'rejected', message: `Invalid SAML response: ${(err as Error).message}` };
  }
  // The issuer is compared before the signature, as AWS does ("Issuer not present in
  // specified provider"); reading it unsigned here can only lead to a rejection.
  const rawIssuers = [responseIssuer(raw.documentElement!), ...descendants(raw, NS.assertion, 'Assertion').map((a) => textOf(descendants(a, NS.assertion, 'Issuer')[0])?.trim())].filter(
    (x): x is string => x !== undefined,
  );
  if (rawIssuers.length === 0 || rawIssuers.some((i) => i !== entityId)) return { ok: false, kind: 'rejected', message: 'Issuer not present in specified provider' };

  let signed;
  try {
    signed = verifySamlResponse(xml, certificates);
  } catch (err) {
    if (!(err instanceof SamlVerifyError)) throw err;
    if (err.reason === 'unsafe' || err.reason === 'malformed') return { ok: false, kind: 'rejected', message: `Invalid SAML response: ${err.message}` };
    if (err.reason === 'bad-signature' || err.reason === 'missing-signature') return { ok: false, kind: 'invalid', message: 'Response signature invalid' };
    return { ok: false, kind: 'invalid', message: `Response signature invalid: ${err.message}` };
  }
  const status = responseStatus(signed.signedResponse ?? signed.receivedResponse);
  const signedResponseIssuer = signed.signedResponse ? responseIssuer(signed.signedResponse) : undefined;
  return {
    ok: true,
    fields: readAssertion(signed.assertion),
    ...(signedResponseIssuer !== undefined ? { signedResponseIssuer } : {}),
    destination: (signed.signedResponse ?? signed.receivedResponse).getAttribute('Destination'),
    ...(status !== undefined ? { status } : {}),
    signedParts: signed.signedParts,
  };
}
