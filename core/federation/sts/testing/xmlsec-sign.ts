/**
 * Test support: signs a SAML Response with the real `xmlsec1 --sign`, from a signature template
 * whose canonicalization the test chooses (e.g. inclusive C14N, which other IdPs use), so the
 * verifier is checked against what another implementation produces.
 */
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

export const C14N_INCLUSIVE = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const C14N_EXCLUSIVE = 'http://www.w3.org/2001/10/xml-exc-c14n#';

/**
 * Puts a Signature template after the Issuer of the Response (or of its Assertion) and lets
 * xmlsec1 fill it in. `xml` may be bytes in any encoding it declares.
 */
export function xmlsecSignResponse(xml: Buffer, privateKeyPem: string, id: string, c14n = C14N_INCLUSIVE, what: 'Response' | 'Assertion' = 'Response', c14nTransform = true): Buffer {
  const template =
    `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="${c14n}"/>` +
    `<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/><ds:Reference URI="#${id}"><ds:Transforms>` +
    `<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>${c14nTransform ? `<ds:Transform Algorithm="${c14n}"/>` : ''}</ds:Transforms>` +
    `<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue></ds:DigestValue></ds:Reference></ds:SignedInfo><ds:SignatureValue></ds:SignatureValue></ds:Signature>`;
  const text = xml.toString('latin1');
  const issuerEnd = what === 'Response' ? text.indexOf('</saml:Issuer>') : text.indexOf('</saml:Issuer>', text.indexOf('<saml:Assertion'));
  const at = issuerEnd + '</saml:Issuer>'.length;
  const withTemplate = Buffer.concat([xml.subarray(0, at), Buffer.from(template, 'latin1'), xml.subarray(at)]);
  const dir = mkdtempSync(path.join(tmpdir(), 'loupe-xmlsec-sign-'));
  try {
    writeFileSync(path.join(dir, 'in.xml'), withTemplate);
    writeFileSync(path.join(dir, 'key.pem'), privateKeyPem, { mode: 0o600 });
    const r = spawnSync('/usr/bin/xmlsec1', ['--sign', '--privkey-pem', path.join(dir, 'key.pem'), '--id-attr:ID', what === 'Response' ? 'urn:oasis:names:tc:SAML:2.0:protocol:Response' : 'urn:oasis:names:tc:SAML:2.0:assertion:Assertion', '--output', path.join(dir, 'out.xml'), path.join(dir, 'in.xml')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`xmlsec1 --sign failed: ${r.stderr}`);
    return readFileSync(path.join(dir, 'out.xml'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
