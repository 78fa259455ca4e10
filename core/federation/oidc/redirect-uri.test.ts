/** Keycloak's redirect URI rules (RedirectUtils), case by case. */
import { describe, it, expect } from 'vitest';
import { verifyRedirectUri } from './redirect-uri.js';

const check = (redirectUri: string | undefined, registered: string[], required = true) => verifyRedirectUri({ redirectUri, registered, required, origin: 'https://idp.example' });

describe('verifyRedirectUri', () => {
  it('exact registered URIs match only themselves (query included)', () => {
    expect(check('https://app.example/cb', ['https://app.example/cb'])).toBe('https://app.example/cb');
    expect(check('https://app.example/cb?x=1', ['https://app.example/cb'])).toBeUndefined();
    expect(check('https://app.example/cb2', ['https://app.example/cb'])).toBeUndefined();
  });

  it('a trailing * is a prefix (query ignored); …/* also matches without the slash', () => {
    const reg = ['https://app.example/cb/*'];
    expect(check('https://app.example/cb/x?y=1', reg)).toBe('https://app.example/cb/x?y=1');
    expect(check('https://app.example/cb', reg)).toBe('https://app.example/cb');
    expect(check('https://app.example/cbx', reg)).toBeUndefined();
    expect(check('https://app.example.evil/cb/x', reg)).toBeUndefined();
  });

  it('dot segments and percent-encoding cannot climb out of a wildcard path', () => {
    const reg = ['https://app.example/cb/*'];
    expect(check('https://app.example/cb/../admin', reg)).toBeUndefined();
    expect(check('https://app.example/cb/%2e%2e/admin', reg)).toBeUndefined();
    expect(check('https://app.example/cb/%252e%252e/admin', reg)).toBeUndefined();
    expect(check('https://app.example/cb/./ok', reg)).toBe('https://app.example/cb/ok');
  });

  it('an http host is compared case-insensitively, the path is not (https hosts stay as sent, as in Keycloak)', () => {
    expect(check('http://APP.example/cb', ['http://app.example/cb'])).toBe('http://app.example/cb');
    expect(check('http://app.example/CB', ['http://app.example/cb'])).toBeUndefined();
    expect(check('https://APP.example/cb', ['https://app.example/cb'])).toBeUndefined();
  });

  it('loopback redirects of native apps match whatever their port', () => {
    expect(check('http://127.0.0.1:51234/callback', ['http://127.0.0.1/callback'])).toBe('http://127.0.0.1:51234/callback');
    expect(check('http://localhost:8000/cb/x', ['http://localhost/*'])).toBe('http://localhost:8000/cb/x');
    expect(check('http://127.0.0.1:51234/other', ['http://127.0.0.1/callback'])).toBeUndefined();
    expect(check('http://127.0.0.1:1@evil.example/callback', ['http://127.0.0.1/*'])).toBeUndefined();
    expect(check('http://10.0.0.1:8000/callback', ['http://10.0.0.1/callback'])).toBeUndefined();
  });

  it('relative registered URIs resolve against the origin; plain OAuth2 may omit the parameter when one URI is registered', () => {
    expect(check('https://idp.example/app/cb', ['/app/*'])).toBe('https://idp.example/app/cb');
    expect(check(undefined, ['https://app.example/cb/*'], false)).toBe('https://app.example/cb');
    expect(check(undefined, ['https://app.example/cb/*'], true)).toBeUndefined();
    expect(check(undefined, ['https://a.example/', 'https://b.example/'], false)).toBeUndefined();
    expect(check('https://app.example/cb', [])).toBeUndefined();
  });
});
