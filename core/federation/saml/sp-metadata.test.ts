/** Registering a cloud from its SAML metadata: what is read from AWS's sign-in metadata. */
import { describe, it, expect } from 'vitest';
import { parseSpMetadata } from './sp-metadata.js';
import { awsSigninMetadata } from '../idp/engine.js';
import { XmlInputError } from './xml.js';

describe('SP metadata', () => {
  it("AWS's sign-in metadata gives entity urn:amazon:webservices and ACS https://signin.aws.amazon.com/saml", () => {
    const md = parseSpMetadata(awsSigninMetadata());
    expect(md.entityId).toBe('urn:amazon:webservices');
    expect(md.acsUrls).toEqual(['https://signin.aws.amazon.com/saml']);
    expect(md.requestedAttributes.filter((a) => a.required).map((a) => a.name)).toEqual(['https://aws.amazon.com/SAML/Attributes/Role', 'https://aws.amazon.com/SAML/Attributes/RoleSessionName']);
    expect(md.wantAssertionsSigned).toBe(true);
  });

  it('puts the default ACS first, then by index, and keeps only HTTP-POST ones', () => {
    const md = parseSpMetadata(`<EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata"><EntityDescriptor entityID="sp"><SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
      <AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact" Location="https://sp/art" index="0"/>
      <AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://sp/b" index="2"/>
      <AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://sp/a" index="1"/>
      <AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://sp/acs/SAMLSP1" index="3" isDefault="true"/>
    </SPSSODescriptor></EntityDescriptor></EntitiesDescriptor>`);
    expect(md.acsUrls).toEqual(['https://sp/acs/SAMLSP1', 'https://sp/a', 'https://sp/b']);
  });

  it("says clearly what is wrong with IdP metadata, garbage, or a DOCTYPE", () => {
    expect(() => parseSpMetadata('<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"><md:IDPSSODescriptor/></md:EntityDescriptor>')).toThrow(/no SPSSODescriptor/);
    expect(() => parseSpMetadata('not xml')).toThrow(XmlInputError);
    expect(() => parseSpMetadata('<!DOCTYPE x><x/>')).toThrow('XML with a DOCTYPE is not accepted');
  });
});
