/**
 * The cloud sign-in service's SAML metadata document, which an IdP imports to register the
 * cloud as a client (AWS publishes its own at https://signin.aws.amazon.com/static/saml-metadata.xml).
 * Same entity id, ACS URL and binding as AWS's; it carries no KeyDescriptor because Loupe has no
 * AWS key to publish, and the IdP only needs the entity id and the ACS.
 */
import { escapeXml } from './saml/safe-xml.js';
import { SIGNIN_ACS, SIGNIN_ENTITY_ID } from './options.js';

export function signinMetadataXml(cloudDomain = 'https://aws.amazon.com'): string {
  const attr = (name: string, friendly: string, required: boolean) =>
    `      <RequestedAttribute isRequired="${required}" Name="${escapeXml(`${cloudDomain}/SAML/Attributes/${name}`)}" FriendlyName="${friendly}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri"/>\n`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${SIGNIN_ENTITY_ID}">\n` +
    `  <SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">\n` +
    `    <NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</NameIDFormat>\n` +
    `    <NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</NameIDFormat>\n` +
    `    <AssertionConsumerService index="1" isDefault="true" Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${SIGNIN_ACS}"/>\n` +
    `    <AttributeConsumingService index="1">\n` +
    `      <ServiceName xml:lang="en">AWS Management Console Single Sign-On</ServiceName>\n` +
    attr('RoleSessionName', 'RoleSessionName', true) +
    attr('Role', 'RoleEntitlement', true) +
    attr('SessionDuration', 'SessionDuration', false) +
    `    </AttributeConsumingService>\n` +
    `  </SPSSODescriptor>\n` +
    `  <Organization>\n` +
    `    <OrganizationName xml:lang="en">Amazon Web Services, Inc.</OrganizationName>\n` +
    `    <OrganizationDisplayName xml:lang="en">AWS</OrganizationDisplayName>\n` +
    `    <OrganizationURL xml:lang="en">https://aws.amazon.com</OrganizationURL>\n` +
    `  </Organization>\n` +
    `</EntityDescriptor>\n`
  );
}
