/**
 * The IdP's SAML metadata, as Keycloak serves it at /realms/{realm}/protocol/saml/descriptor:
 * entity id = the realm URL, the signing certificate(s), NameID formats and the SSO endpoints
 * for the POST and Redirect bindings (no SLO endpoint: single logout is not offered).
 */
import { escapeXml } from './xml.js';

export interface IdpDescriptorInput {
  /** The realm URL, e.g. http://127.0.0.1:8080/realms/federation — also the SAML Issuer. */
  entityId: string;
  /** The realm's SAML endpoint, e.g. …/realms/federation/protocol/saml */
  samlEndpoint: string;
  /** Signing keys, active first. */
  keys: { kid: string; certBase64: string }[];
}

export function buildIdpDescriptor(input: IdpDescriptorInput): string {
  const e = escapeXml;
  const keyDescriptors = input.keys
    .map(
      (k) => `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:KeyName>${e(k.kid)}</ds:KeyName><ds:X509Data><ds:X509Certificate>${k.certBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join('');
  const ep = e(input.samlEndpoint);
  return (
    `<md:EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${e(input.entityId)}">` +
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    keyDescriptors +
    // No SingleLogoutService: SAML logout is not served (the cloud's sign-in has no SLO either),
    // and metadata must not promise an endpoint that refuses the request.
    `<md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>` +
    `<md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>` +
    `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</md:NameIDFormat>` +
    `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ep}"/>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ep}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`
  );
}
