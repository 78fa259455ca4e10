import { describe, expect, it } from 'vitest';
import { prettyXml } from './pretty-xml.js';

describe('the captured response, indented for reading', () => {
  it('puts one element per line with its attributes, values inline, and keeps comments', () => {
    const xml =
      '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_1" Destination="https://signin.aws.amazon.com/saml"><saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">https://idp/realms/a&amp;b</saml:Issuer><!-- note --><samlp:Status><samlp:StatusCode Value="ok"/></samlp:Status></samlp:Response>';
    expect(prettyXml(xml)).toBe(
      [
        '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_1" Destination="https://signin.aws.amazon.com/saml">',
        '  <saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">https://idp/realms/a&amp;b</saml:Issuer>',
        '  <!-- note -->',
        '  <samlp:Status>',
        '    <samlp:StatusCode Value="ok"/>',
        '  </samlp:Status>',
        '</samlp:Response>',
        '',
      ].join('\n'),
    );
  });

  it('refuses a DOCTYPE as the SAML reader does', () => {
    expect(() => prettyXml('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>')).toThrow(/DOCTYPE/);
  });
});
