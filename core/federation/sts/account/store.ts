/**
 * The account's IAM objects and the issued sessions, kept in memory and written through to
 * `<dataDir>/account.json` and `<dataDir>/sessions.jsonl` (both 0600: they hold secrets).
 */
import path from 'node:path';
import { appendFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { readJsonOrBackup, writeFileAtomicSync, writeJsonAtomic } from '../../../common/json-store.js';
import type { Logger } from '../../../common/log.js';
import type { Account, OidcProvider, Role, SamlProvider, SessionRecord } from './model.js';

/** Records stay listed this long after they expire, then are pruned. */
const KEEP_EXPIRED_MS = 7 * 24 * 3600_000;
const SESSIONS_FILE = 'sessions.jsonl';

export class AccountStore {
  private account: Account;
  private sessions = new Map<string, SessionRecord>();
  private writes: Promise<void> = Promise.resolve();
  private pendingLines: string[] = [];

  private constructor(
    private readonly dir: string,
    account: Account,
    sessions: SessionRecord[],
    private readonly log: Logger,
  ) {
    this.account = account;
    for (const s of sessions) this.sessions.set(s.accessKeyId, s);
  }

  static open(dir: string, defaultAccountId: string, log: Logger): { store: AccountStore; created: boolean } {
    const a = readJsonOrBackup<Account>(path.join(dir, 'account.json'), validateAccount);
    if (a.kind === 'corrupt') log.warn('account.json did not parse; kept a copy and started empty', { backup: a.backup, error: a.error });
    const account = a.kind === 'ok' ? a.value : { accountId: defaultAccountId, samlProviders: [], oidcProviders: [], roles: [] };
    const store = new AccountStore(dir, account, readSessionLog(path.join(dir, SESSIONS_FILE), log), log);
    store.compactSessions(Date.now());
    return { store, created: a.kind !== 'ok' };
  }

  get accountId(): string {
    return this.account.accountId;
  }

  snapshot(): Account {
    return structuredClone(this.account);
  }

  samlProvider(arn: string): SamlProvider | undefined {
    return this.account.samlProviders.find((p) => p.arn === arn);
  }
  oidcProvider(arn: string): OidcProvider | undefined {
    return this.account.oidcProviders.find((p) => p.arn === arn);
  }
  oidcProviderByIssuer(iss: string): OidcProvider | undefined {
    const norm = (u: string) => u.replace(/\/+$/, '');
    return this.account.oidcProviders.find((p) => norm(p.url) === norm(iss));
  }
  role(arn: string): Role | undefined {
    return this.account.roles.find((r) => r.arn === arn);
  }

  async putSamlProvider(p: SamlProvider): Promise<void> {
    this.account.samlProviders = [...this.account.samlProviders.filter((x) => x.arn !== p.arn), p];
    await this.saveAccount();
  }
  async putOidcProvider(p: OidcProvider): Promise<void> {
    this.account.oidcProviders = [...this.account.oidcProviders.filter((x) => x.arn !== p.arn), p];
    await this.saveAccount();
  }
  async putRole(r: Role): Promise<void> {
    this.account.roles = [...this.account.roles.filter((x) => x.arn !== r.arn), r];
    await this.saveAccount();
  }
  async deleteSamlProvider(arn: string): Promise<boolean> {
    return this.remove('samlProviders', arn);
  }
  async deleteOidcProvider(arn: string): Promise<boolean> {
    return this.remove('oidcProviders', arn);
  }
  async deleteRole(arn: string): Promise<boolean> {
    return this.remove('roles', arn);
  }

  session(accessKeyId: string): SessionRecord | undefined {
    return this.sessions.get(accessKeyId);
  }
  listSessions(): SessionRecord[] {
    return [...this.sessions.values()].sort((a, b) => b.issuedAt.localeCompare(a.issuedAt));
  }
  /**
   * Records an issued session. Records are appended to a JSON-lines log (one append shared by
   * every request that arrives meanwhile), so issuing stays cheap however many sessions exist;
   * the caller answers only after its record is in the file.
   */
  addSession(s: SessionRecord): Promise<void> {
    this.sessions.set(s.accessKeyId, s);
    this.pendingLines.push(JSON.stringify(s));
    return this.enqueue(async () => {
      if (this.pendingLines.length === 0) return;
      const lines = this.pendingLines.splice(0).join('\n') + '\n';
      await appendFile(path.join(this.dir, SESSIONS_FILE), lines, { mode: 0o600 });
    });
  }

  /** Drops records expired for more than a week and rewrites the log without them. */
  compactSessions(now: number): void {
    let dropped = 0;
    for (const [k, v] of this.sessions) {
      if (Date.parse(v.expiration) + KEEP_EXPIRED_MS < now) {
        this.sessions.delete(k);
        dropped++;
      }
    }
    if (dropped > 0) {
      const text = [...this.sessions.values()].map((x) => JSON.stringify(x)).join('\n');
      writeFileAtomicSync(path.join(this.dir, SESSIONS_FILE), text ? text + '\n' : '', { mode: 0o600 });
    }
  }

  /** Waits for every queued write, so a close never loses the last change. */
  flush(): Promise<void> {
    return this.writes;
  }

  private async remove(kind: 'samlProviders' | 'oidcProviders' | 'roles', arn: string): Promise<boolean> {
    const list = this.account[kind] as { arn: string }[];
    if (!list.some((x) => x.arn === arn)) return false;
    (this.account as unknown as Record<string, unknown>)[kind] = list.filter((x) => x.arn !== arn);
    await this.saveAccount();
    return true;
  }

  async saveAccount(): Promise<void> {
    const copy = this.snapshot();
    await this.enqueue(() => writeJsonAtomic(path.join(this.dir, 'account.json'), copy, { mode: 0o600 }));
  }

  /** Writes run one after another so an older snapshot never lands over a newer one. */
  private enqueue(write: () => Promise<void>): Promise<void> {
    const next = this.writes.then(write, write);
    this.writes = next.catch((err) => this.log.error('could not write STS state', { error: (err as Error).message }));
    return next;
  }
}

function validateAccount(raw: unknown): Account {
  const a = raw as Account;
  if (!a || typeof a.accountId !== 'string' || !Array.isArray(a.samlProviders) || !Array.isArray(a.oidcProviders) || !Array.isArray(a.roles)) {
    throw new Error('not an account document');
  }
  return a;
}

/** Reads the session log; a torn last line (crash mid-append) is skipped, not fatal. */
function readSessionLog(file: string, log: Logger): SessionRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: SessionRecord[] = [];
  let bad = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as SessionRecord;
      if (typeof r.accessKeyId === 'string' && typeof r.secretAccessKey === 'string') out.push(r);
      else bad++;
    } catch {
      bad++;
    }
  }
  if (bad > 0) log.warn('skipped unreadable lines in the session log', { file, lines: bad });
  return out;
}
