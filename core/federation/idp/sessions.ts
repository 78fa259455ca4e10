/**
 * Login state kept in memory, like Keycloak's user and authentication sessions: an SSO session
 * per browser (cookie) or per OIDC login, and short-lived pending logins that remember which
 * client and ACS a login form is for. A restart logs everyone out; realms and keys persist.
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
}

export interface PendingLogin {
  id: string;
  realm: string;
  /** Internal client id. */
  clientId: string;
  acsUrl: string;
  relayState?: string;
  inResponseTo?: string;
  expires: number;
}

/** Bounds that keep a flood of GETs or password grants from growing memory without end. */
const MAX_PENDING = 10_000;
const MAX_SESSIONS = 100_000;

export class SessionStore {
  private sessions = new Map<string, UserSession>();
  private pending = new Map<string, PendingLogin>();

  constructor(private readonly clock: Clock) {}

  create(realm: string, userId: string, idleSeconds: number, maxSeconds: number): UserSession {
    const now = this.clock.now();
    const s: UserSession = { id: uuid(), realm, userId, started: now, lastSeen: now, idleSeconds, maxSeconds };
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

  addPending(p: Omit<PendingLogin, 'id' | 'expires'>, lifespanSeconds: number): PendingLogin {
    const entry: PendingLogin = { ...p, id: randomToken(18), expires: this.clock.now() + lifespanSeconds * 1000 };
    this.pending.set(entry.id, entry);
    this.sweep();
    dropOldest(this.pending, MAX_PENDING);
    return entry;
  }

  getPending(id: string | undefined): PendingLogin | undefined {
    if (!id) return undefined;
    const p = this.pending.get(id);
    if (!p || p.expires < this.clock.now()) {
      this.pending.delete(id);
      return undefined;
    }
    return p;
  }

  takePending(id: string): void {
    this.pending.delete(id);
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [k, s] of this.sessions) if (now > s.lastSeen + s.idleSeconds * 1000 || now > s.started + s.maxSeconds * 1000) this.sessions.delete(k);
    for (const [k, p] of this.pending) if (p.expires < now) this.pending.delete(k);
  }
}

/** Maps iterate in insertion order, so the first keys are the oldest. */
function dropOldest<K, V>(map: Map<K, V>, max: number): void {
  for (const k of map.keys()) {
    if (map.size <= max) return;
    map.delete(k);
  }
}
