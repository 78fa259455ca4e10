/**
 * What the token service will refuse in a captured assertion, said before any call: the checks
 * AWS documents for AssumeRoleWithSAML (RoleSessionName present and 2–64 characters of
 * [\w+=,.@-], a time window that is still open, a session no longer than the role allows).
 */
import type { CapturedAssertion, StsRoleInfo } from '../../../core/host/contract.js';

export interface AssertionWarning {
  /** 'error': STS will refuse the call; 'warning': it will work differently than asked. */
  level: 'error' | 'warning';
  /** What STS would answer, in its words. */
  text: string;
  /** The fix, in plain words. */
  fix: string;
}

const SESSION_NAME = /^[\w+=,.@-]{2,64}$/;

export function assertionWarnings(a: CapturedAssertion, now: number, role?: Pick<StsRoleInfo, 'name' | 'maxSessionDuration'>): AssertionWarning[] {
  const out: AssertionWarning[] = [];
  if (a.roleSessionName === undefined) {
    out.push({
      level: 'error',
      text: 'No RoleSessionName attribute: AssumeRoleWithSAML will answer InvalidIdentityToken “RoleSessionName is required in AuthnResponse”.',
      fix: 'Add a mapper to this client in the identity provider that sends https://aws.amazon.com/SAML/Attributes/RoleSessionName (for example the username).',
    });
  } else if (!SESSION_NAME.test(a.roleSessionName)) {
    out.push({
      level: 'error',
      text: `RoleSessionName “${a.roleSessionName}” is not 2–64 characters of letters, digits and _ + = , . @ -: STS will refuse it.`,
      fix: 'Map a value without spaces, such as the username or e-mail, to the RoleSessionName attribute.',
    });
  }
  if (a.roles.length === 0) {
    out.push({
      level: 'error',
      text: 'The assertion carries no usable Role values (role_arn,provider_arn pairs): there is no role to assume.',
      fix: 'Give the user a role in the identity provider whose name is “arn:aws:iam::ACCOUNT:role/NAME,arn:aws:iam::ACCOUNT:saml-provider/NAME”.',
    });
  }
  const notOnOrAfter = a.notOnOrAfter ? Date.parse(a.notOnOrAfter) : NaN;
  if (Number.isFinite(notOnOrAfter) && notOnOrAfter <= now) {
    out.push({ level: 'error', text: `The assertion expired at ${a.notOnOrAfter}: STS will answer ExpiredTokenException.`, fix: 'Sign in again to get a fresh assertion.' });
  }
  const notBefore = a.notBefore ? Date.parse(a.notBefore) : NaN;
  if (Number.isFinite(notBefore) && notBefore > now + 5 * 60_000) {
    out.push({ level: 'error', text: `The assertion is not valid before ${a.notBefore}, more than five minutes from now.`, fix: "Check the identity provider's clock, or this machine's." });
  }
  if (role && a.sessionDuration !== undefined && a.sessionDuration > role.maxSessionDuration) {
    out.push({
      level: 'warning',
      text: `SessionDuration ${a.sessionDuration} s is above ${role.name}'s maximum session of ${role.maxSessionDuration} s: asking STS for it fails with ValidationError.`,
      fix: `Loupe asks for ${role.maxSessionDuration} s instead. To get longer sessions, raise the role's maximum session duration.`,
    });
  }
  if (a.signature.status === 'failed') out.push({ level: 'error', text: a.signature.message, fix: "Update the token service's SAML provider with the identity provider's current metadata." });
  return out;
}

/** The DurationSeconds to ask for: the assertion's SessionDuration (else 1 h), never above the role's maximum. */
export function defaultDuration(a: Pick<CapturedAssertion, 'sessionDuration'>, role?: Pick<StsRoleInfo, 'maxSessionDuration'>): number {
  const wanted = a.sessionDuration ?? 3600;
  return Math.max(900, Math.min(wanted, role?.maxSessionDuration ?? 43200));
}

export interface RoleGroup {
  account: string;
  roles: { roleArn: string; principalArn: string; name: string; provider: string }[];
}

/** Role/provider pairs grouped by account, as saml2aws shows them; accounts and roles sorted. */
export function groupRoles(pairs: CapturedAssertion['roles']): RoleGroup[] {
  const byAccount = new Map<string, RoleGroup>();
  for (const p of pairs) {
    const account = /^arn:[^:]+:iam::(\d{12}):/.exec(p.roleArn)?.[1] ?? 'unknown account';
    const g = byAccount.get(account) ?? { account, roles: [] };
    g.roles.push({ ...p, name: p.roleArn.replace(/^.*:role\//, ''), provider: p.principalArn.replace(/^.*:saml-provider\//, '') });
    byAccount.set(account, g);
  }
  return [...byAccount.values()].sort((a, b) => a.account.localeCompare(b.account)).map((g) => ({ ...g, roles: g.roles.sort((a, b) => a.name.localeCompare(b.name)) }));
}

/** "59:07", "1:02:03", or "expired". */
export function countdown(untilMs: number, now: number): string {
  const left = Math.floor((untilMs - now) / 1000);
  if (left <= 0) return 'expired';
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = left % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** "2026-11-28 20:12:09 → 20:17:09 UTC" (the date once when both ends share it). */
export function validityWindow(notBefore: string | undefined, notOnOrAfter: string | undefined): string {
  const fmt = (iso: string | undefined) => {
    const t = iso ? Date.parse(iso) : NaN;
    return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 19).replace('T', ' ') : undefined;
  };
  const a = fmt(notBefore);
  const b = fmt(notOnOrAfter);
  if (a && b) return a.slice(0, 10) === b.slice(0, 10) ? `${a} → ${b.slice(11)} UTC` : `${a} → ${b} UTC`;
  if (b) return `until ${b} UTC`;
  if (a) return `from ${a} UTC`;
  return 'no time window';
}
