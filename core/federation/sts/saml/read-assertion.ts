/** Reads the fields STS uses from a signed Assertion element (see verify-response.ts). */
import type { Element } from '@xmldom/xmldom';
import { childElement, childElements, NS, textOf } from './safe-xml.js';

export interface AssertionFields {
  id: string;
  issueInstant?: string;
  issuer?: string;
  nameId?: string;
  nameIdFormat?: string;
  /** Bearer SubjectConfirmationData elements: Recipient and NotOnOrAfter. */
  confirmations: { recipient?: string; notOnOrAfter?: string; notBefore?: string }[];
  notBefore?: string;
  notOnOrAfter?: string;
  /** One list per AudienceRestriction; SAML requires every restriction to be met. */
  audienceRestrictions: string[][];
  sessionNotOnOrAfter?: string;
  attributes: Map<string, string[]>;
}

export function readAssertion(a: Element): AssertionFields {
  const subject = childElement(a, NS.assertion, 'Subject');
  const nameIdEl = subject && childElement(subject, NS.assertion, 'NameID');
  const confirmations: AssertionFields['confirmations'] = [];
  for (const sc of subject ? childElements(subject, NS.assertion, 'SubjectConfirmation') : []) {
    if (sc.getAttribute('Method') !== 'urn:oasis:names:tc:SAML:2.0:cm:bearer') continue;
    const d = childElement(sc, NS.assertion, 'SubjectConfirmationData');
    confirmations.push({
      recipient: d?.getAttribute('Recipient') || undefined,
      notOnOrAfter: d?.getAttribute('NotOnOrAfter') || undefined,
      notBefore: d?.getAttribute('NotBefore') || undefined,
    });
  }
  const conditions = childElement(a, NS.assertion, 'Conditions');
  const audienceRestrictions = (conditions ? childElements(conditions, NS.assertion, 'AudienceRestriction') : []).map((ar) =>
    childElements(ar, NS.assertion, 'Audience').map((au) => (textOf(au) ?? '').trim()),
  );
  const attributes = new Map<string, string[]>();
  for (const st of childElements(a, NS.assertion, 'AttributeStatement')) {
    for (const at of childElements(st, NS.assertion, 'Attribute')) {
      const name = at.getAttribute('Name');
      if (!name) continue;
      const values = childElements(at, NS.assertion, 'AttributeValue').map((v) => (textOf(v) ?? '').trim());
      attributes.set(name, [...(attributes.get(name) ?? []), ...values]);
    }
  }
  const authn = childElement(a, NS.assertion, 'AuthnStatement');
  return {
    id: a.getAttribute('ID') ?? '',
    issueInstant: a.getAttribute('IssueInstant') || undefined,
    issuer: textOf(childElement(a, NS.assertion, 'Issuer'))?.trim(),
    nameId: nameIdEl ? (textOf(nameIdEl) ?? '').trim() : undefined,
    nameIdFormat: nameIdEl?.getAttribute('Format') || undefined,
    confirmations,
    notBefore: conditions?.getAttribute('NotBefore') || undefined,
    notOnOrAfter: conditions?.getAttribute('NotOnOrAfter') || undefined,
    audienceRestrictions,
    sessionNotOnOrAfter: authn?.getAttribute('SessionNotOnOrAfter') || undefined,
    attributes,
  };
}

/** StatusCode of the Response; a non-Success status means the IdP rejected the login. */
export function responseStatus(response: Element): string | undefined {
  const status = childElement(response, NS.protocol, 'Status');
  const code = status && childElement(status, NS.protocol, 'StatusCode');
  return code?.getAttribute('Value') || undefined;
}

export function responseIssuer(response: Element): string | undefined {
  return textOf(childElement(response, NS.assertion, 'Issuer'))?.trim();
}
