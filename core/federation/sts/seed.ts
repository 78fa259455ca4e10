/**
 * The demo account created on first start so the click-through works out of the box: account
 * 123456789012, roles LoupeReadOnly and LoupeAdmin trusting the embedded IdP's SAML provider
 * (`saml-provider/loupe`) and its OIDC provider (`https://127.0.0.1:<https port>/realms/federation`,
 * client `loupe-cli`).
 *
 * The roles are created at once. The providers need the IdP (its metadata; its HTTPS server for
 * the thumbprint), which may start later or not at all: what is still missing is kept in
 * `seed.json` and retried in the background and before each request until it succeeds.
 */
import path from 'node:path';
import { readJsonOrBackup, writeJsonAtomic } from '../../common/json-store.js';
import type { Logger } from '../../common/log.js';
import { oidcProviderArn, samlProviderArn, type PolicyDocument } from './account/model.js';
import type { StsEngine } from './engine.js';
import { SIGNIN_ACS } from './options.js';

export const DEMO_REALM = 'federation';
export const DEMO_CLIENT = 'loupe-cli';
/** The demo realm's OIDC clients whose tokens name a user: the CLI (password grant), the web and desktop apps (authorization code). */
export const DEMO_CLIENTS = [DEMO_CLIENT, 'loupe-desktop', 'loupe-web'];
/**
 * The IdP demo seed's fixed user ids (idp/seed.ts; engines share no code, so the values are
 * repeated). A Keycloak token's `sub` is the user id; the trust names who may assume each role,
 * as IAM conditions on `<provider>:sub` do. A service-account token's `sub` is its client's id,
 * in neither list.
 */
export const DEMO_SUBJECTS = { alice: '4f1c6a52-7d0e-4b8a-9c43-a11ce0000001', bob: '4f1c6a52-7d0e-4b8a-9c43-b0b000000002' } as const;
export const DEMO_PROVIDER_NAME = 'loupe';

type Pending = 'saml' | 'oidc';

export interface SeedTargets {
  /** The IdP's http base URL, e.g. http://127.0.0.1:8080 */
  idpHttp?: string;
  /** The IdP's https base URL, e.g. https://127.0.0.1:8443 */
  idpHttps: string;
}

/**
 * The demo roles' trust, matching the README: alice may assume both roles, bob only
 * LoupeReadOnly, a token with no user (client_credentials) neither. Over SAML the IdP's role
 * mapping decides (bob's assertion lists only read-only, and AWS requires the role in the
 * assertion); over OIDC the token carries no roles AWS reads, so the `sub` condition does.
 */
export function demoTrustPolicy(accountId: string, oidcUrl: string, subjects: readonly string[]): PolicyDocument {
  const oidcArn = oidcProviderArn(accountId, oidcUrl);
  const oidcId = oidcArn.split(':oidc-provider/')[1]!;
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { Federated: samlProviderArn(accountId, DEMO_PROVIDER_NAME) },
        Action: 'sts:AssumeRoleWithSAML',
        Condition: { StringEquals: { 'SAML:aud': SIGNIN_ACS } },
      },
      {
        Effect: 'Allow',
        Principal: { Federated: oidcArn },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: { StringEquals: { [`${oidcId}:aud`]: DEMO_CLIENTS, [`${oidcId}:sub`]: [...subjects] } },
      },
    ],
  };
}

export class DemoSeeder {
  private pending: Pending[] = [];
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastError = new Map<Pending, string>();
  private lastAttemptAt = 0;

  constructor(
    private readonly engine: StsEngine,
    private readonly dataDir: string,
    private readonly targets: SeedTargets,
    private readonly log: Logger,
  ) {}

  get oidcUrl(): string {
    return `${this.targets.idpHttps.replace(/\/+$/, '')}/realms/${DEMO_REALM}`;
  }

  /** Called once at start; `firstStart` when the account did not exist before. */
  async start(firstStart: boolean): Promise<void> {
    const file = path.join(this.dataDir, 'seed.json');
    if (firstStart) {
      const account = this.engine.options.accountId;
      await this.engine.createRole({ name: 'LoupeReadOnly', trustPolicy: demoTrustPolicy(account, this.oidcUrl, [DEMO_SUBJECTS.alice, DEMO_SUBJECTS.bob]), maxSessionDuration: 3600, description: 'Demo role: read-only (1 hour maximum session)' }, { replace: true });
      await this.engine.createRole({ name: 'LoupeAdmin', trustPolicy: demoTrustPolicy(account, this.oidcUrl, [DEMO_SUBJECTS.alice]), maxSessionDuration: 43200, description: 'Demo role: administrator (12 hours maximum session)' }, { replace: true });
      this.pending = ['saml', 'oidc'];
      await this.save();
    } else {
      const r = readJsonOrBackup<{ pending: Pending[] }>(file);
      this.pending = r.kind === 'ok' && Array.isArray(r.value.pending) ? r.value.pending : [];
    }
    if (this.pending.length > 0) {
      await this.attempt();
      if (this.pending.length > 0) {
        this.log.info('demo providers wait for the identity provider; retrying in the background', { pending: this.pending, idp: this.targets.idpHttp, idpHttps: this.targets.idpHttps });
        this.timer = setInterval(() => void this.attempt(), 3000);
        this.timer.unref();
      }
    }
  }

  status(): { pending: Pending[]; lastError: Record<string, string> } {
    return { pending: [...this.pending], lastError: Object.fromEntries(this.lastError) };
  }

  /** One attempt at whatever is still missing; concurrent callers share it. */
  attempt(): Promise<void> {
    if (this.pending.length === 0) return Promise.resolve();
    this.inFlight ??= this.run().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /**
   * For the request path: tries again (at most once a second) but never holds a request up for
   * more than `maxWaitMs`, so an IdP that does not answer cannot slow the token service down.
   */
  async attemptBriefly(maxWaitMs = 1000): Promise<void> {
    if (this.pending.length === 0) return;
    if (!this.inFlight && Date.now() - this.lastAttemptAt < 1000) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.attempt(), new Promise<void>((r) => (timer = setTimeout(r, maxWaitMs)))]);
    clearTimeout(timer);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async run(): Promise<void> {
    this.lastAttemptAt = Date.now();
    for (const what of [...this.pending]) {
      try {
        if (what === 'saml') await this.seedSaml();
        else await this.seedOidc();
        this.pending = this.pending.filter((p) => p !== what);
        this.lastError.delete(what);
        await this.save();
        this.log.info(`demo ${what === 'saml' ? 'SAML' : 'OIDC'} provider created`);
      } catch (err) {
        this.lastError.set(what, (err as Error).message);
      }
    }
    if (this.pending.length === 0) this.stop();
    this.lastAttemptAt = Date.now();
  }

  private async seedSaml(): Promise<void> {
    if (!this.targets.idpHttp) throw new Error('no identity provider URL (ctx.peers.idp)');
    const url = `${this.targets.idpHttp.replace(/\/+$/, '')}/realms/${DEMO_REALM}/protocol/saml/descriptor`;
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    await this.engine.createSamlProvider(DEMO_PROVIDER_NAME, await res.text(), { replace: true });
  }

  private async seedOidc(): Promise<void> {
    // No thumbprint is known in advance: the one the IdP presents now is recorded, as IAM does
    // when a provider is created without a thumbprint list.
    await this.engine.createOidcProvider(this.oidcUrl, DEMO_CLIENTS, undefined, { replace: true });
  }

  private save(): Promise<void> {
    return writeJsonAtomic(path.join(this.dataDir, 'seed.json'), { pending: this.pending });
  }
}
