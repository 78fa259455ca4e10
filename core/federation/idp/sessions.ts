/**
 * Login state kept in memory, like Keycloak's user and authentication sessions: an SSO session
 * per browser (cookie) or per OIDC login, the clients that session has logged into (Keycloak's
 * client sessions), short-lived pending logins that remember what a login form is for (a SAML
 * ACS or an OIDC redirect), and single-use authorization codes. A restart logs everyone out;
 * realms and keys persist.
 */
import { randomToken, uuid } from '../../common/ids.js';
import type { Clock } from '../../common/clock.js';

export interface UserSession {
  id: string;
  realm: string;
  userId: string;
  started: number;
  lastSeen: number;
  idleSeconds: number;
  maxSeconds: number;
  /** client_ids (OIDC) or internal ids (SAML) with a client session here; refresh needs one. */
  clients: Set<string>;
}

/**
 * A pending login is Keycloak's authentication session: it belongs to a browser's root session
 * (the AUTH_SESSION_ID cookie) and one tab of it (tab_id). The login form carries tab_id, the
 * execution and a session_code that changes with every form shown; a POST must come with the
 * cookie of the root the tab belongs to, so a form posted from another site or browser fails.
 */
interface PendingBase {
  /** `${rootId}/${tabId}` */
  id: string;
  rootId: string;
  tabId: string;
  /** The current session_code; a new one per form shown. */
  code: string;
  /** The username/password execution's id (Keycloak's `execution`). */
  execution: string;
  realm: string;
  /** Internal client id. */
  clientId: string;
  expires: number;
}

export interface SamlPendingLogin extends PendingBase {
  protocol: 'saml';
  acsUrl: string;
  relayState?: string;
  inResponseTo?: string;
}

export type ResponseMode = 'query' | 'fragment' | 'form_post';

/** What an authorization request asked for, kept until the login finishes (Keycloak's client notes). */
export interface OidcAuthorization {
  /** `none`: the response carries no code, only that the user is logged in. */
  responseType: 'code' | 'none';
  /** The verified redirect URI the response goes to. */
  redirectUri: string;
  /** The redirect_uri parameter as sent; the token request must repeat it. */
  redirectUriParam?: string;
  responseMode: ResponseMode;
  scope: string;
  state?: string;
  nonce?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  loginHint?: string;
}

export interface OidcPendingLogin extends PendingBase, OidcAuthorization {
  protocol: 'openid-connect';
}

export type PendingLogin = SamlPendingLogin | OidcPendingLogin;
type Generated = 'id' | 'expires' | 'rootId' | 'tabId' | 'code' | 'execution';
type NewPending = Omit<SamlPendingLogin, Generated> | Omit<OidcPendingLogin, Generated>;

export interface AuthorizationCode {
  code: string;
  realm: string;
  /** The OIDC client_id the code was issued to. */
  clientId: string;
  sessionId: string;
  redirectUriParam?: string;
  scope: string;
  nonce?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  expires: number;
}

/** Bounds that keep a flood of GETs or password grants from growing memory without end. */
const MAX_PENDING = 10_000;
const MAX_SESSIONS = 100_000;
const MAX_CODES = 10_000;

export class SessionStore {
  private sessions = new Map<string, UserSession>();
  private pending = new Map<string, PendingLogin>();
  private codes = new Map<string, AuthorizationCode>();
  /** Codes already exchanged, kept until they would have expired, so a replay can be recognised. */
  private usedCodes = new Map<string, AuthorizationCode>();
  /** jti of revoked access tokens (RFC 7009), until they would have expired anyway. */
  private revoked = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  create(realm: string, userId: string, idleSeconds: number, maxSeconds: number): UserSession {
    const now = this.clock.now();
    const s: UserSession = { id: uuid(), realm, userId, started: now, lastSeen: now, idleSeconds, maxSeconds, clients: new Set() };
    this.sessions.set(s.id, s);
    this.sweep();
    dropOldest(this.sessions, MAX_SESSIONS);
    return s;
  }

  /** An active session of that realm, touched; undefined when unknown, idle too long or past its maximum. */
  get(id: string | undefined, realm: string): UserSession | undefined {
    if (!id) return undefined;
    const s = this.sessions.get(id);
    if (!s || s.realm !== realm) return undefined;
    const now = this.clock.now();
    if (now > s.lastSeen + s.idleSeconds * 1000 || now > s.started + s.maxSeconds * 1000) {
      this.sessions.delete(id);
      return undefined;
    }
    s.lastSeen = now;
    return s;
  }

  remove(id: string): void {
    this.sessions.delete(id);
  }

  forUser(realm: string, userId: string): UserSession[] {
    return [...this.sessions.values()].filter((s) => s.realm === realm && s.userId === userId);
  }

  /** A new tab in the browser's root session `rootId` (the AUTH_SESSION_ID cookie), or in a new root. */
  addPending(p: NewPending, lifespanSeconds: number, rootId?: string): PendingLogin {
    const root = rootId && /^[A-Za-z0-9_-]{16,64}$/.test(rootId) ? rootId : randomToken(18);
    const tabId = randomToken(8);
    const entry = { ...p, id: `${root}/${tabId}`, rootId: root, tabId, code: randomToken(24), execution: uuid(), expires: this.clock.now() + lifespanSeconds * 1000 } as PendingLogin;
    this.pending.set(entry.id, entry);
    this.sweep();
    dropOldest(this.pending, MAX_PENDING);
    return entry;
  }

  /** The tab `tabId` of the root session `rootId`; undefined when either is unknown or expired. */
  getPending(rootId: string | undefined, tabId: string | undefined): PendingLogin | undefined {
    if (!rootId || !tabId) return undefined;
    const id = `${rootId}/${tabId}`;
    const p = this.pending.get(id);
    if (!p || p.expires < this.clock.now()) {
      this.pending.delete(id);
      return undefined;
    }
    return p;
  }

  /** A fresh session_code for the next form of this tab. */
  renewCode(p: PendingLogin): string {
    p.code = randomToken(24);
    return p.code;
  }

  takePending(id: string): void {
    this.pending.delete(id);
  }

  /** A fresh single-use code for a logged-in session; Keycloak's layout `uuid.session.client`. */
  issueCode(c: Omit<AuthorizationCode, 'code' | 'expires'>, lifespanSeconds: number): AuthorizationCode {
    const entry: AuthorizationCode = { ...c, code: `${uuid()}.${c.sessionId}.${randomToken(9)}`, expires: this.clock.now() + lifespanSeconds * 1000 };
    this.codes.set(entry.code, entry);
    this.sweep();
    dropOldest(this.codes, MAX_CODES);
    return entry;
  }

  /**
   * Takes a code once. A second use answers 'replayed' and ends the client's session, as
   * Keycloak detaches the client session when a code is used twice (RFC 6749 4.1.2).
   */
  redeemCode(code: string): AuthorizationCode | 'expired' | 'replayed' | undefined {
    const used = this.usedCodes.get(code);
    if (used) {
      this.sessions.get(used.sessionId)?.clients.delete(used.clientId);
      return 'replayed';
    }
    const c = this.codes.get(code);
    if (!c) return undefined;
    this.codes.delete(code);
    this.usedCodes.set(code, c);
    dropOldest(this.usedCodes, MAX_CODES);
    return c.expires < this.clock.now() ? 'expired' : c;
  }

  revokeToken(jti: string, expiresAt: number): void {
    this.revoked.set(jti, expiresAt);
    dropOldest(this.revoked, MAX_SESSIONS);
  }

  isRevoked(jti: string | undefined): boolean {
    return jti !== undefined && this.revoked.has(jti);
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [k, exp] of this.revoked) if (exp < now) this.revoked.delete(k);
    for (const [k, s] of this.sessions) if (now > s.lastSeen + s.idleSeconds * 1000 || now > s.started + s.maxSeconds * 1000) this.sessions.delete(k);
    for (const [k, p] of this.pending) if (p.expires < now) this.pending.delete(k);
    // Codes are kept a minute past expiry so a late exchange hears "Code is expired", not "not valid".
    for (const [k, c] of this.codes) if (c.expires + 60_000 < now) this.codes.delete(k);
    for (const [k, c] of this.usedCodes) if (c.expires + 60_000 < now) this.usedCodes.delete(k);
  }
}

/** Maps iterate in insertion order, so the first keys are the oldest. */
function dropOldest<K, V>(map: Map<K, V>, max: number): void {
  for (const k of map.keys()) {
    if (map.size <= max) return;
    map.delete(k);
  }
}
