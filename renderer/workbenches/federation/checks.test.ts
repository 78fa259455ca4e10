import { describe, expect, it } from 'vitest';
import type { CapturedAssertion } from '../../../core/host/contract.js';
import { assertionWarnings, countdown, defaultDuration, groupRoles, validityWindow } from './checks.js';
import { explainError } from './explain-error.js';

const NOW = Date.parse('2026-11-28T20:00:00Z');
const base: CapturedAssertion = {
  captureId: 'c',
  issuer: 'http://127.0.0.1:8080/realms/federation',
  subject: 'alice',
  roles: [{ roleArn: 'arn:aws:iam::123456789012:role/LoupeReadOnly', principalArn: 'arn:aws:iam::123456789012:saml-provider/loupe' }],
  roleSessionName: 'alice',
  sessionDuration: 3600,
  notBefore: '2026-11-28T19:59:00Z',
  notOnOrAfter: '2026-11-28T20:04:00Z',
  acsUrl: 'https://signin.aws.amazon.com/saml',
  responseSigned: true,
  assertionSigned: true,
  attributes: {},
  samlResponse: 'x',
  xml: '<x/>',
  signature: { status: 'verified', message: 'ok' },
};

describe('what STS will refuse, said before the call', () => {
  it('a sound assertion raises nothing', () => {
    expect(assertionWarnings(base, NOW, { name: 'LoupeReadOnly', maxSessionDuration: 3600 })).toEqual([]);
  });

  it("no RoleSessionName is the specification's InvalidIdentityToken, with the mapper to add", () => {
    const [w] = assertionWarnings({ ...base, roleSessionName: undefined }, NOW);
    expect(w).toMatchObject({ level: 'error' });
    expect(w!.text).toContain('RoleSessionName is required in AuthnResponse');
    expect(w!.fix).toContain('https://aws.amazon.com/SAML/Attributes/RoleSessionName');
  });

  it('an expired assertion, a name with a space, and a SessionDuration above the role maximum', () => {
    const ws = assertionWarnings({ ...base, roleSessionName: 'alice smith', sessionDuration: 43200, notOnOrAfter: '2026-11-28T19:59:59Z' }, NOW, { name: 'LoupeReadOnly', maxSessionDuration: 3600 });
    expect(ws.map((w) => w.level)).toEqual(['error', 'error', 'warning']);
    expect(ws[1]!.text).toContain('ExpiredTokenException');
    expect(ws[2]!.text).toContain("SessionDuration 43200 s is above LoupeReadOnly's maximum session of 3600 s");
    expect(defaultDuration({ sessionDuration: 43200 }, { maxSessionDuration: 3600 })).toBe(3600);
    expect(defaultDuration({}, undefined)).toBe(3600);
  });

  it('groups role/provider pairs by account, names sorted', () => {
    const g = groupRoles([
      { roleArn: 'arn:aws:iam::222222222222:role/B', principalArn: 'arn:aws:iam::222222222222:saml-provider/p' },
      { roleArn: 'arn:aws:iam::111111111111:role/Z', principalArn: 'arn:aws:iam::111111111111:saml-provider/p' },
      { roleArn: 'arn:aws:iam::111111111111:role/A', principalArn: 'arn:aws:iam::111111111111:saml-provider/p' },
    ]);
    expect(g.map((x) => [x.account, x.roles.map((r) => r.name)])).toEqual([
      ['111111111111', ['A', 'Z']],
      ['222222222222', ['B']],
    ]);
  });

  it('counts down and writes the window once per date', () => {
    expect(countdown(NOW + 3599_000, NOW)).toBe('59:59');
    expect(countdown(NOW + 3723_000, NOW)).toBe('1:02:03');
    expect(countdown(NOW - 1, NOW)).toBe('expired');
    expect(validityWindow(base.notBefore, base.notOnOrAfter)).toBe('2026-11-28 19:59:00 → 20:04:00 UTC');
  });
});

describe('errors in the failing system’s words, with a fix', () => {
  it("STS's InvalidIdentityToken for a missing RoleSessionName", () => {
    const e = explainError({ message: 'x', detail: { Code: 'InvalidIdentityToken', Message: 'RoleSessionName is required in AuthnResponse' } });
    expect(e).toMatchObject({ system: 'Token service (STS)', code: 'InvalidIdentityToken', message: 'RoleSessionName is required in AuthnResponse' });
    expect(e.fix).toMatch(/^Add a RoleSessionName mapper/);
  });

  it("Keycloak's unauthorized_client says to enable Direct access grants", () => {
    const e = explainError({ message: 'x', detail: { status: 400, error: 'unauthorized_client', error_description: 'Client not allowed for direct access grants' } });
    expect(e.system).toBe('Identity provider (Keycloak)');
    expect(e.fix).toMatch(/^Enable Direct access grants for this client/);
  });

  it('a capture timeout and an unreachable host', () => {
    expect(explainError({ message: 'No SAML response…', detail: { code: 'timeout' } }).system).toBe('Capture browser');
    expect(explainError({ message: 'down', code: 'network' }).fix).toContain('loupe serve');
  });
});
