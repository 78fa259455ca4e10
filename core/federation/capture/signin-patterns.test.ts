import { describe, it, expect } from 'vitest';
import { signinMatcher } from './signin-patterns.js';

describe('sign-in endpoints the capture stops', () => {
  const isSignin = signinMatcher();
  // The endpoint list comes from shared/reference/federation.md.
  it.each([
    'https://signin.aws.amazon.com/saml',
    'https://us-east-1.signin.aws.amazon.com/saml',
    'https://eu-central-1.signin.aws.amazon.com/saml',
    'https://signin.amazonaws-us-gov.com/saml',
    'https://signin.amazonaws.cn/saml',
    'https://signin.aws.amazon.com/saml/acs/SAMLSP4ABCDEF1234567',
    'https://us-west-2.signin.aws.amazon.com/saml/acs/SAMLSP4ABCDEF1234567',
  ])('stops %s', (url) => expect(isSignin(url)).toBe(true));

  it.each(['https://signin.aws.amazon.com/oauth', 'https://evil.example/signin.aws.amazon.com/saml', 'http://signin.aws.amazon.com/saml', 'https://signin.aws.amazon.com.evil.example/saml'])(
    'lets %s through',
    (url) => expect(isSignin(url)).toBe(false),
  );

  it('takes extra patterns, with * as a wildcard', () => {
    const m = signinMatcher(['https://sso.example.com/acs/*']);
    expect(m('https://sso.example.com/acs/123')).toBe(true);
    expect(m('https://signin.aws.amazon.com/saml')).toBe(false);
  });
});
