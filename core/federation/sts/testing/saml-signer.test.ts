/**
 * The test signer's output is a standard XML signature: xmlsec1 (the reference implementation)
 * accepts it, so the verifier tests start from responses a real IdP could have produced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { awsAttr, buildResponseXml, generateSigningKey, signXml, type SigningKey } from './saml-signer.js';

let dir: string;
let key: SigningKey;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-signer-'));
  key = await generateSigningKey('xmlsec-check');
  writeFileSync(path.join(dir, 'cert.pem'), key.certPem);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function xmlsecVerify(xml: string, idAttr: string): { ok: boolean; output: string } {
  const file = path.join(dir, `r-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  const r = spawnSync('/usr/bin/xmlsec1', ['--verify', '--pubkey-cert-pem', path.join(dir, 'cert.pem'), '--id-attr:ID', idAttr, file], { encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

const spec = { issuer: 'https://idp.example', attributes: { [awsAttr('RoleSessionName')]: ['alice'] } };

describe('the test-support SAML signer', () => {
  it('signs the Assertion in a way xmlsec1 --verify accepts', () => {
    const r = xmlsecVerify(signXml(buildResponseXml(spec), key, 'Assertion'), 'urn:oasis:names:tc:SAML:2.0:assertion:Assertion');
    expect(r.output).toMatch(/OK/);
    expect(r.ok).toBe(true);
  });

  it('signs the Response in a way xmlsec1 --verify accepts', () => {
    const r = xmlsecVerify(signXml(buildResponseXml(spec), key, 'Response'), 'urn:oasis:names:tc:SAML:2.0:protocol:Response');
    expect(r.ok).toBe(true);
  });

  it('xmlsec1 rejects it once a signed value changes (the tamper tests rest on this)', () => {
    const r = xmlsecVerify(signXml(buildResponseXml(spec), key, 'Assertion').replace('>alice<', '>mallory<'), 'urn:oasis:names:tc:SAML:2.0:assertion:Assertion');
    expect(r.ok).toBe(false);
  });
});
