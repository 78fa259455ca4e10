/**
 * Builds an unsigned SAML 2.0 Response with one bearer Assertion, laid out as Keycloak lays it
 * out: Issuer, Status, then the Assertion with Subject, Conditions, AuthnStatement and the
 * attribute statement. Signing is a separate step (sign.ts).
 */
import { randomUUID } from 'node:crypto';
import { escapeXml as e } from './xml.js';

export interface SamlAttribute {
  name: string;
  friendlyName?: string;
  nameFormat?: string;
  values: string[];
}

export interface ResponseInput {
  issuer: string;
  destination: string;
  audience: string;
  nameId: string;
  nameIdFormat: string;
  /** Seconds since epoch × 1000. */
  now: number;
  /** Seconds the assertion (Conditions and SubjectConfirmationData) is valid for. */
  lifespanSeconds: number;
  sessionIndex: string;
  authnInstant: number;
  sessionNotOnOrAfter: number;
  attributes: SamlAttribute[];
  inResponseTo?: string;
}

export interface BuiltResponse {
  xml: string;
  responseId: string;
  assertionId: string;
}

export const BASIC_NAME_FORMAT = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';

/** SAML wants xs:dateTime in UTC; Keycloak writes milliseconds. */
export const samlTime = (ms: number): string => new Date(ms).toISOString();
export const samlId = (): string => `ID_${randomUUID()}`;

export function buildSamlResponse(input: ResponseInput): BuiltResponse {
  const responseId = samlId();
  const assertionId = samlId();
  const now = samlTime(input.now);
  const notOnOrAfter = samlTime(input.now + input.lifespanSeconds * 1000);
  const irt = input.inResponseTo ? ` InResponseTo="${e(input.inResponseTo)}"` : '';
  const attrs = input.attributes
    .filter((a) => a.values.length > 0)
    .map(
      (a) =>
        `<saml:Attribute${a.friendlyName ? ` FriendlyName="${e(a.friendlyName)}"` : ''} Name="${e(a.name)}" NameFormat="${e(a.nameFormat ?? BASIC_NAME_FORMAT)}">` +
        a.values.map((v) => `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${e(v)}</saml:AttributeValue>`).join('') +
        `</saml:Attribute>`,
    )
    .join('');
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" Destination="${e(input.destination)}" ID="${responseId}"${irt} IssueInstant="${now}" Version="2.0">` +
    `<saml:Issuer>${e(input.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion xmlns="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" IssueInstant="${now}" Version="2.0">` +
    `<saml:Issuer>${e(input.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${e(input.nameIdFormat)}">${e(input.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${irt} NotOnOrAfter="${notOnOrAfter}" Recipient="${e(input.destination)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${now}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${e(input.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${samlTime(input.authnInstant)}" SessionIndex="${e(input.sessionIndex)}" SessionNotOnOrAfter="${samlTime(input.sessionNotOnOrAfter)}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
    `</saml:Assertion></samlp:Response>`;
  return { xml, responseId, assertionId };
}
