/**
 * The token service itself: AssumeRoleWithSAML, AssumeRoleWithWebIdentity, GetCallerIdentity
 * and the account's IAM objects, one file per operation; this class holds the shared state.
 * Knows nothing about HTTP; errors are StsError (and AdminError for the account) values.
 */
import type { Logger } from '../../common/log.js';
import type { AccountStore } from './account/store.js';
import type { Account, OidcProvider, Role, SamlProvider, SessionRecord } from './account/model.js';
import * as admin from './account/admin.js';
import { getCallerIdentity, type CallerIdentity } from './auth/get-caller-identity.js';
import type { IncomingSigned } from './auth/sigv4.js';
import type { StsContext } from './context.js';
import { assumeRoleWithWebIdentity, type WebIdentityResult } from './oidc/assume-role-with-web-identity.js';
import { ProviderKeyCache } from './oidc/provider-keys.js';
import { DEFAULT_STS_OPTIONS, type StsOptions } from './options.js';
import { assumeRoleWithSaml, type SamlResult } from './saml/assume-role-with-saml.js';
import { SamlWorkerPool } from './saml/xml-worker-pool.js';
import { RememberedSamlReadings } from './saml/remembered-readings.js';
import type { SamlReadInput, SamlReading } from './saml/saml-reading.js';

export { AdminError } from './account/admin.js';
export type { SamlResult } from './saml/assume-role-with-saml.js';
export type { WebIdentityResult } from './oidc/assume-role-with-web-identity.js';
export type { CallerIdentity } from './auth/get-caller-identity.js';
export type { AssumedRoleUser } from './auth/issue-session.js';

export class StsEngine {
  readonly options: StsOptions;
  private readonly keys = new ProviderKeyCache();
  private readonly pool = new SamlWorkerPool();
  private readonly saml: RememberedSamlReadings;
  private readonly ctx: StsContext;

  constructor(
    readonly store: AccountStore,
    readonly log: Logger,
    options: Partial<StsOptions> = {},
  ) {
    this.options = { ...DEFAULT_STS_OPTIONS, ...options, accountId: store.accountId };
    const clock = this.options.clock;
    this.saml = new RememberedSamlReadings(this.pool, () => clock.now());
    this.ctx = { store, options: this.options, keys: this.keys, saml: this.saml, log, now: () => clock.now() };
  }

  /** Ends the SAML reading threads. */
  close(): Promise<void> {
    return this.saml.close();
  }

  /** Starts the SAML reading threads now, so the first sign-in does not wait for them. */
  warmSamlReaders(): void {
    this.pool.warm();
  }

  /**
   * Parses a SAML response and checks its signature for `entityId` with these certificates, as
   * AssumeRoleWithSAML does (off the event loop): the host shows the result with the assertion,
   * and AssumeRoleWithSAML with the same response then finds it already read.
   */
  readSamlResponse(input: SamlReadInput): Promise<SamlReading> {
    return this.saml.read(input);
  }

  assumeRoleWithSaml(p: Record<string, string | undefined>, requestId: string): Promise<SamlResult> {
    return assumeRoleWithSaml(this.ctx, p, requestId);
  }

  assumeRoleWithWebIdentity(p: Record<string, string | undefined>): Promise<WebIdentityResult> {
    return assumeRoleWithWebIdentity(this.ctx, p);
  }

  getCallerIdentity(req: IncomingSigned): Promise<CallerIdentity> {
    return getCallerIdentity(this.ctx, req);
  }

  account(): Account {
    return this.store.snapshot();
  }

  /** Issued sessions without their secrets. */
  sessions(): Omit<SessionRecord, 'secretAccessKey' | 'sessionToken'>[] {
    return this.store.listSessions().map(({ secretAccessKey: _s, sessionToken: _t, ...rest }) => rest);
  }

  createSamlProvider(name: string, metadataXml: string, opts: { replace?: boolean } = {}): Promise<SamlProvider> {
    return admin.createSamlProvider(this.ctx, name, metadataXml, opts);
  }
  createOidcProvider(url: string, clientIds: string[], thumbprints?: string[], opts: { replace?: boolean } = {}): Promise<OidcProvider> {
    return admin.createOidcProvider(this.ctx, url, clientIds, thumbprints, opts);
  }
  createRole(input: { name: string; trustPolicy: unknown; maxSessionDuration?: number; description?: string }, opts: { replace?: boolean } = {}): Promise<Role> {
    return admin.createRole(this.ctx, input, opts);
  }
  deleteSamlProvider(arn: string): Promise<void> {
    return admin.deleteSamlProvider(this.ctx, arn);
  }
  deleteOidcProvider(arn: string): Promise<void> {
    return admin.deleteOidcProvider(this.ctx, arn);
  }
  deleteRole(arn: string): Promise<void> {
    return admin.deleteRole(this.ctx, arn);
  }
}
