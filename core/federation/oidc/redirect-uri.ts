/**
 * Keycloak's redirect URI check (RedirectUtils.verifyRedirectUri): the URI's path is
 * percent-decoded and dot segments removed, its scheme and host lower-cased, then it must equal
 * a registered URI, or start with a registered URI that ends in `*` (query ignored then; a
 * registered `…/*` also matches the URI without the slash). Registered URIs starting with `/`
 * are relative to the client's root URL, else to the request's origin. For native apps
 * (RFC 8252 7.3) a request to `http://localhost:PORT/…` or `http://127.0.0.1:PORT/…` also
 * matches when the URI without the port does.
 */

const LOOPBACK_PREFIXES = ['http://localhost', 'http://127.0.0.1'];

export interface RedirectCheck {
  /** The redirect_uri parameter; undefined when absent. */
  redirectUri: string | undefined;
  registered: readonly string[];
  /** OIDC requests (scope has openid) must name one; plain OAuth2 may use the single registered one. */
  required: boolean;
  /** Origin relative registered URIs resolve against: the client's root URL or the request's. */
  origin: string;
}

/** The redirect URI to answer at, or undefined when it is not allowed. */
export function verifyRedirectUri(check: RedirectCheck): string | undefined {
  if (check.redirectUri === undefined) {
    if (check.required || check.registered.length !== 1) return undefined;
    const only = check.registered[0]!;
    const star = only.indexOf('/*');
    return star >= 0 ? only.slice(0, star) : only;
  }
  const decoded = decodeRedirectUri(check.redirectUri);
  if (decoded === undefined || check.registered.length === 0) return undefined;
  const uri = lowerCaseHost(decoded);
  const valid = check.registered.map((r) => (r.startsWith('/') ? check.origin + r : r));
  if (matches(valid, uri)) return uri.startsWith('/') ? check.origin + uri : uri;
  // Only a numeric port is dropped: `http://localhost:1@evil.example/` names another host.
  const loopback = LOOPBACK_PREFIXES.find((p) => uri.startsWith(p) && /^:\d{1,5}(\/|$)/.test(uri.slice(p.length)));
  if (loopback) {
    const slash = uri.indexOf('/', loopback.length);
    const withoutPort = loopback + (slash >= 0 ? uri.slice(slash) : '');
    if (matches(valid, withoutPort)) return uri;
  }
  return undefined;
}

/** Decodes the path part (not query or fragment) until stable, at most 5 times; removes dot segments. */
function decodeRedirectUri(raw: string): string | undefined {
  const cut = raw.search(/[?#]/);
  let head = cut >= 0 ? raw.slice(0, cut) : raw;
  const tail = cut >= 0 ? raw.slice(cut) : '';
  for (let i = 0; ; i++) {
    if (i === 5) return undefined;
    let next: string;
    try {
      next = decodeURIComponent(head);
    } catch {
      return undefined;
    }
    if (next === head) break;
    head = next;
  }
  // Characters java.net.URI refuses; userinfo would let `http://127.0.0.1@evil.example` pass a loopback rule.
  if (/[\s<>"{}|\\^`]/.test(head) || /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(head)) return undefined;
  return removeDotSegments(head) + tail;
}

/** RFC 3986 5.2.4 on the path after scheme://authority, as java.net.URI.normalize does. */
function removeDotSegments(uri: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)(.*)$/i.exec(uri);
  const prefix = m ? m[1]! : '';
  const path = m ? m[2]! : uri;
  if (!/(^|\/)\.\.?(\/|$)/.test(path)) return uri;
  const out: string[] = [];
  const segs = path.split('/');
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    if (s === '.') {
      if (i === segs.length - 1) out.push('');
    } else if (s === '..') {
      if (out.length > 1) out.pop();
      if (i === segs.length - 1) out.push('');
    } else out.push(s);
  }
  return prefix + out.join('/');
}

/** Keycloak lower-cases up to the first '/' from index 7: the host of http URLs, nothing of https ones. */
function lowerCaseHost(uri: string): string {
  const n = uri.indexOf('/', 7);
  return n === -1 ? uri.toLowerCase() : uri.slice(0, n).toLowerCase() + uri.slice(n);
}

function matches(valid: readonly string[], redirect: string): boolean {
  for (const v of valid) {
    if (v.endsWith('*') && !v.includes('?')) {
      const r = redirect.includes('?') ? redirect.slice(0, redirect.indexOf('?')) : redirect;
      let prefix = v.slice(0, -1);
      if (r.startsWith(prefix)) return true;
      if (prefix.length > 1 && prefix.endsWith('/')) prefix = prefix.slice(0, -1);
      if (prefix === r) return true;
    } else if (v === redirect) return true;
  }
  return false;
}
