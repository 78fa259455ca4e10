/**
 * CPU exhaustion without credentials (issue 23, defect 3): a SAMLAssertion of tens of
 * thousands of empty elements is refused before any parser sees it, and assertions that stay
 * within the bounds but are costly to canonicalize are read on a worker thread, so a flood of
 * them leaves an unrelated request (the IdP, sharing this process as in `loupe serve`) served.
 * The latency bound is loose and relative to a baseline measured in the same test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssumeRoleWithSAMLCommand } from '@aws-sdk/client-sts';
import { awsAttr, buildResponseXml, generateSigningKey, signXml, type SigningKey } from './testing/saml-signer.js';
import { PROVIDER_ARN, ROLE_ARN, startTestSts, TEST_ISSUER, type TestSts } from './testing/harness.js';
import { startHarness, removeDir, type Harness } from '../idp/testing/harness.js';

let sts: TestSts;
let idp: Harness;
let foreign: SigningKey;
beforeAll(async () => {
  sts = await startTestSts();
  idp = await startHarness();
  foreign = await generateSigningKey('attacker');
});
afterAll(async () => {
  await sts?.close();
  await idp?.close();
  if (idp) removeDir(idp.dir);
});

const assume = (b64: string) => sts.sdk.send(new AssumeRoleWithSAMLCommand({ RoleArn: ROLE_ARN, PrincipalArn: PROVIDER_ARN, SAMLAssertion: b64 }));
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: { Code?: string; message: string }) => `${e.Code}: ${e.message}`,
  );

/** A signed (by a key the provider does not trust) Response just under 100,000 base64 characters, with many namespaced elements. */
function costlyAssertion(i: number): string {
  const filler = Array.from({ length: 560 }, (_, k) => `<saml:AttributeValue xmlns:n${k % 9}="urn:n${k % 9}" b="${k}" a="${i}">v</saml:AttributeValue>`).join('');
  const xml = buildResponseXml({ issuer: TEST_ISSUER, responseId: `R${i}`, attributes: { [awsAttr('Role')]: [`${ROLE_ARN},${PROVIDER_ARN}`] } }).replace('</saml:Attribute>', `${filler}</saml:Attribute>`);
  return Buffer.from(signXml(xml, foreign, 'Response')).toString('base64');
}

async function probe(): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${idp.idp.url}/realms/federation/.well-known/openid-configuration`);
  await res.text();
  return performance.now() - t;
}

describe('bounded work before parsing', () => {
  it('18,000 empty elements (a 98 KB SAMLAssertion) are refused by the bounds, in AWS error words', async () => {
    const xml = buildResponseXml({ issuer: TEST_ISSUER }).replace('</saml:Issuer>', `</saml:Issuer>${'<e/>'.repeat(18_000)}`);
    const b64 = Buffer.from(xml).toString('base64');
    expect(b64.length).toBeLessThan(100_000);
    const r = await codeOf(assume(b64));
    expect(r).toMatch(/^InvalidIdentityToken: Invalid SAML response: the document has more than 2000 elements \(Service: AWSOpenIdDiscoveryService; Status Code: 400; Error Code: AuthSamlInvalidSamlResponseException/);
  });

  it('deep nesting is refused the same way', async () => {
    const xml = buildResponseXml({ issuer: TEST_ISSUER }).replace('</saml:Issuer>', `</saml:Issuer>${'<e>'.repeat(500)}${'</e>'.repeat(500)}`);
    expect(await codeOf(assume(Buffer.from(xml).toString('base64')))).toMatch(/nests elements more than 40 deep/);
  });
});

describe('a flood of costly assertions', () => {
  it("leaves another request's latency within a loose bound of its baseline", async () => {
    const hostile = Array.from({ length: 24 }, (_, i) => costlyAssertion(i));
    expect(hostile.every((b) => b.length < 100_000)).toBe(true);
    // Baseline: the same unrelated request, nothing else running.
    await probe();
    const baseline: number[] = [];
    for (let i = 0; i < 20; i++) baseline.push(await probe());
    let floodDone = false;
    const floodStart = performance.now();
    const flood = Promise.all(hostile.map((b) => codeOf(assume(b)))).finally(() => (floodDone = true));
    // Probes start at once and run while the flood is in flight (checked below). Each is timed
    // from its start, so time spent stuck behind the flood on the event loop counts.
    const during: number[] = [];
    for (let i = 0; i < 20; i++) during.push(await probe());
    const stillFlooding = !floodDone;
    const results = await flood;
    const floodMs = performance.now() - floodStart;
    expect(results.every((r) => r.startsWith('InvalidIdentityToken: Response signature invalid'))).toBe(true);
    // Parsed on the event loop, the flood held each probe up: the probes took about as long as
    // the flood. Off the loop they take a small part of it, however loaded the machine (both
    // slow down together), and stay near their baseline.
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(during)).toBeLessThan(floodMs / 2);
    expect(sum(during)).toBeLessThan(Math.max(2500, 20 * sum(baseline)));
    // And the measurement happened while the flood was being worked through.
    expect(stillFlooding).toBe(true);
  }, 120_000);
});
