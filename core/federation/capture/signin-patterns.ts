/**
 * Which URLs are a cloud's sign-in endpoint, i.e. where the browser would POST the assertion.
 * Defaults cover AWS's global, regional, GovCloud and China endpoints and the newer
 * `/saml/acs/<id>` form; callers can add their own (a string may use `*` as a wildcard).
 */
export type SigninPattern = string | RegExp;

export const DEFAULT_SIGNIN_PATTERNS: readonly RegExp[] = [
  // https://signin.aws.amazon.com/saml, https://<region>.signin.aws.amazon.com/saml, …/saml/acs/<id>
  /^https:\/\/(?:[a-z0-9-]+\.)?signin\.aws\.amazon\.com\/saml(?:\/acs\/[A-Za-z0-9_-]+)?\/?(?:[?#].*)?$/,
  // https://signin.amazonaws-us-gov.com/saml (GovCloud)
  /^https:\/\/(?:[a-z0-9-]+\.)?signin\.amazonaws-us-gov\.com\/saml(?:\/acs\/[A-Za-z0-9_-]+)?\/?(?:[?#].*)?$/,
  // https://signin.amazonaws.cn/saml (China)
  /^https:\/\/(?:[a-z0-9-]+\.)?signin\.amazonaws\.cn\/saml(?:\/acs\/[A-Za-z0-9_-]+)?\/?(?:[?#].*)?$/,
];

function toRegExp(p: SigninPattern): RegExp {
  if (p instanceof RegExp) return p;
  const escaped = p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export function signinMatcher(patterns: readonly SigninPattern[] = DEFAULT_SIGNIN_PATTERNS): (url: string) => boolean {
  const res = patterns.map(toRegExp);
  return (url) => res.some((r) => r.test(url));
}
