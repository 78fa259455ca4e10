/** The token service's options in one place, with AWS's numbers as defaults. */
import { systemClock, type Clock } from '../../common/clock.js';

export interface StsOptions {
  accountId: string;
  /** Prefix of the SAML attribute names, `{cloud_domain}/SAML/Attributes/Role`. */
  cloudDomain: string;
  /** Extra Recipient/Destination URLs accepted besides AWS's sign-in endpoints. */
  extraSigninEndpoints: string[];
  /** Allowance for IdP clocks running ahead (NotBefore, IssueInstant). Never applied to NotOnOrAfter. */
  clockSkewMs: number;
  clock: Clock;
}

export const DEFAULT_STS_OPTIONS: StsOptions = {
  accountId: '123456789012',
  cloudDomain: 'https://aws.amazon.com',
  extraSigninEndpoints: [],
  clockSkewMs: 60_000,
  clock: systemClock,
};

/** AWS's sign-in endpoints: global, regional, GovCloud, China, and the `/saml/acs/<id>` form. */
const SIGNIN = /^https:\/\/([a-z0-9-]+\.)?signin\.(aws\.amazon\.com|amazonaws-us-gov\.com|amazonaws\.cn)\/saml(\/acs\/[A-Za-z0-9_-]+)?$/;

export function isSigninEndpoint(url: string, extra: string[]): boolean {
  return SIGNIN.test(url) || extra.includes(url);
}

/** Audiences AWS accepts: its entity id or a sign-in endpoint. */
export function isAwsAudience(aud: string, extra: string[]): boolean {
  return aud === 'urn:amazon:webservices' || isSigninEndpoint(aud, extra);
}

export const SIGNIN_ENTITY_ID = 'urn:amazon:webservices';
export const SIGNIN_ACS = 'https://signin.aws.amazon.com/saml';
