import { describe, it, expect, beforeAll } from 'vitest';
import { RememberedSamlReadings, type SamlReader } from './remembered-readings.js';
import { readSamlResponse, type SamlReadInput } from './saml-reading.js';
import { buildResponseXml, generateSigningKey, signXml, awsAttr, type SigningKey } from '../testing/saml-signer.js';

const ISSUER = 'https://idp.example.test/realms/demo';
let key: SigningKey;
let other: SigningKey;
beforeAll(async () => {
  key = await generateSigningKey();
  other = await generateSigningKey('another-idp');
});

/** The real reader (parse and signature check), counting its calls. */
function countingReader(): SamlReader & { calls: number } {
  const r = {
    calls: 0,
    read: async (input: SamlReadInput) => {
      r.calls++;
      return readSamlResponse(input);
    },
    close: async () => {},
  };
  return r;
}

function signedXml(nameId = 'alice'): string {
  return signXml(buildResponseXml({ issuer: ISSUER, nameId, attributes: { [awsAttr('RoleSessionName')]: [nameId] } }), key, 'Assertion');
}

describe('RememberedSamlReadings', () => {
  it('reads the same response for the same provider once, and answers copies of that reading', async () => {
    const inner = countingReader();
    let now = 1_000_000;
    const memo = new RememberedSamlReadings(inner, () => now);
    const input = { xml: signedXml(), certificates: [key.certPem], entityId: ISSUER };
    const first = await memo.read(input);
    now += 60_000;
    const second = await memo.read({ ...input });
    expect(inner.calls).toBe(1);
    expect(first.ok).toBe(true);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    if (!second.ok) throw new Error('unreachable');
    expect(second.signedParts).toEqual(['Assertion']);
    expect(second.fields.attributes.get(awsAttr('RoleSessionName'))).toEqual(['alice']);
  });

  it('reads again for other bytes, other certificates or another entity id', async () => {
    const inner = countingReader();
    const memo = new RememberedSamlReadings(inner, () => 0);
    const xml = signedXml();
    await memo.read({ xml, certificates: [key.certPem], entityId: ISSUER });
    const changed = await memo.read({ xml: xml.replace('>alice<', '>mallory<'), certificates: [key.certPem], entityId: ISSUER });
    const otherCert = await memo.read({ xml, certificates: [other.certPem], entityId: ISSUER });
    const otherEntity = await memo.read({ xml, certificates: [key.certPem], entityId: 'https://elsewhere.test' });
    expect(inner.calls).toBe(4);
    // The tampered copy and the wrong certificate are refused, not served from the good reading.
    expect(changed).toMatchObject({ ok: false, kind: 'invalid' });
    expect(otherCert).toMatchObject({ ok: false, kind: 'invalid' });
    expect(otherEntity).toMatchObject({ ok: false, message: 'Issuer not present in specified provider' });
  });

  it('never remembers a rejection', async () => {
    const inner = countingReader();
    const memo = new RememberedSamlReadings(inner, () => 0);
    const input = { xml: signedXml(), certificates: [other.certPem], entityId: ISSUER };
    expect((await memo.read(input)).ok).toBe(false);
    expect((await memo.read(input)).ok).toBe(false);
    expect(inner.calls).toBe(2);
  });

  it('forgets a reading after five minutes, when AWS would no longer redeem the assertion', async () => {
    const inner = countingReader();
    let now = 0;
    const memo = new RememberedSamlReadings(inner, () => now);
    const input = { xml: signedXml(), certificates: [key.certPem], entityId: ISSUER };
    await memo.read(input);
    now = 5 * 60_000;
    await memo.read(input);
    expect(inner.calls).toBe(2);
  });

  it('keeps at most 64 readings, dropping the oldest', async () => {
    const inner = countingReader();
    const memo = new RememberedSamlReadings(inner, () => 0);
    const inputs = Array.from({ length: 65 }, (_, i) => ({ xml: signedXml(`user${i}`), certificates: [key.certPem], entityId: ISSUER }));
    for (const input of inputs) await memo.read(input);
    await memo.read(inputs[64]!);
    expect(inner.calls).toBe(65);
    await memo.read(inputs[0]!);
    expect(inner.calls).toBe(66);
  });
});
