/**
 * What a browser POSTs to a cloud sign-in endpoint (the SAML HTTP-POST binding), read back.
 * `parseSamlPost` is the ONE place both capture paths (playwright-core here, Electron's
 * uploadData later) turn a form body into SAMLResponse + RelayState.
 */
import type { Element } from '@xmldom/xmldom';
import { NS, parseUntrustedXml, childElements, firstChild, textOf, XmlInputError } from './xml.js';

export interface SamlPost {
  /** The base64 SAMLResponse exactly as posted (URL-decoded, whitespace removed). */
  samlResponse: string;
  relayState?: string;
}

export class SamlPostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SamlPostError';
  }
}

/** Parses an application/x-www-form-urlencoded body. */
export function parseSamlPost(body: string): SamlPost {
  const form = new URLSearchParams(body);
  const raw = form.get('SAMLResponse');
  if (raw === null || raw.trim() === '') throw new SamlPostError('the POST carries no SAMLResponse field');
  // Some IdPs wrap the base64 at 76 columns; the value itself has no meaningful whitespace.
  const samlResponse = raw.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(samlResponse)) throw new SamlPostError('SAMLResponse is not base64');
  const relayState = form.get('RelayState');
  return { samlResponse, ...(relayState !== null && relayState !== '' ? { relayState } : {}) };
}

export function decodeSamlResponse(samlResponse: string): string {
  return Buffer.from(samlResponse, 'base64').toString('utf8');
}

export interface RolePair {
  roleArn: string;
  principalArn: string;
}

/**
 * A Role attribute value is "role_arn,provider_arn" in either order; the part naming
 * `:saml-provider/` is the provider. Values that are not such a pair are left out.
 */
export function parseRoleValue(value: string): RolePair | undefined {
  const parts = value.split(',').map((s) => s.trim());
  if (parts.length !== 2) return undefined;
  const [a, b] = parts as [string, string];
  const isProvider = (s: string) => /^arn:[^:]+:iam::\d{12}:saml-provider\/.+/.test(s);
  const isRole = (s: string) => /^arn:[^:]+:iam::\d{12}:role\/.+/.test(s);
  if (isRole(a) && isProvider(b)) return { roleArn: a, principalArn: b };
  if (isProvider(a) && isRole(b)) return { roleArn: b, principalArn: a };
  return undefined;
}

export interface AssertionSummary {
  issuer: string;
  destination?: string;
  subject: string;
  subjectFormat?: string;
  audience?: string;
  recipient?: string;
  notBefore?: string;
  notOnOrAfter?: string;
  sessionNotOnOrAfter?: string;
  roleSessionName?: string;
  sessionDuration?: number;
  roles: RolePair[];
  /** Every attribute by name, for display. */
  attributes: Record<string, string[]>;
  responseSigned: boolean;
  assertionSigned: boolean;
}

/**
 * Reads a SAMLResponse for display and role choice. This does NOT verify the signature: the
 * token service does that, and nothing here is trusted for access.
 */
export function summarizeSamlResponse(samlResponse: string, cloudDomain = 'https://aws.amazon.com'): AssertionSummary {
  let doc;
  try {
    doc = parseUntrustedXml(decodeSamlResponse(samlResponse));
  } catch (err) {
    throw new SamlPostError(`SAMLResponse is not a SAML document: ${(err as Error).message}`);
  }
  const res = doc.documentElement!;
  if (res.namespaceURI !== NS.protocol || res.localName !== 'Response') throw new SamlPostError('SAMLResponse is not a samlp:Response');
  const assertions = childElements(res, NS.assertion, 'Assertion');
  if (assertions.length !== 1) throw new SamlPostError(assertions.length === 0 ? 'the SAMLResponse has no (unencrypted) Assertion' : 'the SAMLResponse has more than one Assertion');
  const a = assertions[0]!;
  const subject = firstChild(a, NS.assertion, 'Subject');
  const nameId = subject && firstChild(subject, NS.assertion, 'NameID');
  const confirmationData = subject && firstChild(subject, NS.assertion, 'SubjectConfirmation');
  const scd = confirmationData && firstChild(confirmationData, NS.assertion, 'SubjectConfirmationData');
  const conditions = firstChild(a, NS.assertion, 'Conditions');
  const audience = conditions && firstChild(conditions, NS.assertion, 'AudienceRestriction');
  const authn = firstChild(a, NS.assertion, 'AuthnStatement');
  const attributes: Record<string, string[]> = {};
  for (const st of childElements(a, NS.assertion, 'AttributeStatement')) {
    for (const at of childElements(st, NS.assertion, 'Attribute')) {
      const name = at.getAttribute('Name') ?? '';
      (attributes[name] ??= []).push(...childElements(at, NS.assertion, 'AttributeValue').map((v: Element) => textOf(v).trim()));
    }
  }
  const domain = cloudDomain.replace(/\/+$/, '');
  const roles = (attributes[`${domain}/SAML/Attributes/Role`] ?? []).map(parseRoleValue).filter((r): r is RolePair => r !== undefined);
  const duration = attributes[`${domain}/SAML/Attributes/SessionDuration`]?.[0];
  const rsn = attributes[`${domain}/SAML/Attributes/RoleSessionName`]?.[0];
  const opt = (k: string, v: string | null | undefined) => (v ? { [k]: v } : {});
  return {
    issuer: textOf(firstChild(a, NS.assertion, 'Issuer')).trim() || textOf(firstChild(res, NS.assertion, 'Issuer')).trim(),
    ...opt('destination', res.getAttribute('Destination')),
    subject: textOf(nameId).trim(),
    ...opt('subjectFormat', nameId?.getAttribute('Format')),
    ...opt('audience', audience ? textOf(firstChild(audience, NS.assertion, 'Audience')).trim() : undefined),
    ...opt('recipient', scd?.getAttribute('Recipient')),
    ...opt('notBefore', conditions?.getAttribute('NotBefore')),
    ...opt('notOnOrAfter', conditions?.getAttribute('NotOnOrAfter') ?? scd?.getAttribute('NotOnOrAfter')),
    ...opt('sessionNotOnOrAfter', authn?.getAttribute('SessionNotOnOrAfter')),
    ...opt('roleSessionName', rsn),
    ...(duration !== undefined && /^\d+$/.test(duration) ? { sessionDuration: Number(duration) } : {}),
    roles,
    attributes,
    responseSigned: childElements(res, NS.dsig, 'Signature').length > 0,
    assertionSigned: childElements(a, NS.dsig, 'Signature').length > 0,
  };
}

export { XmlInputError };
